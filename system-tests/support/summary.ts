/**
 * Figures a system-test file prints when it ends (afterAll), so a CI log shows what was proven:
 * cases run and passed, and measurements such as lost e-mails or time to 503.
 */
export class Summary {
  private readonly figures = new Map<string, string | number>();
  run = 0;
  passed = 0;

  constructor(private readonly title: string) {}

  /** Counts one case; call `pass()` once its assertions held. */
  case(): { pass: () => void } {
    this.run += 1;
    return { pass: () => (this.passed += 1) };
  }

  set(name: string, value: string | number): void {
    this.figures.set(name, value);
  }

  add(name: string, by = 1): void {
    this.figures.set(name, Number(this.figures.get(name) ?? 0) + by);
  }

  get(name: string): number {
    return Number(this.figures.get(name) ?? 0);
  }

  print(): void {
    const rows: Array<[string, string]> = [
      ['cases run', String(this.run)],
      ['cases passed', String(this.passed)],
      ...[...this.figures].map(([name, value]): [string, string] => [name, String(value)]),
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    const valueWidth = Math.max(12, ...rows.map(([, value]) => value.length));
    const line = `+${'-'.repeat(width + 2)}+${'-'.repeat(valueWidth + 2)}+`;
    const text = [
      `system-tests summary: ${this.title}`,
      line,
      ...rows.map(([name, value]) => `| ${name.padEnd(width)} | ${value.padStart(valueWidth)} |`),
      line,
    ].join('\n');
    // console.log is shown by jest with the file's name; the table is what CI readers look for.
    console.log(text);
  }
}
