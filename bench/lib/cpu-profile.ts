/**
 * The top of a V8 CPU profile (`node --cpu-prof`): self time per function, as the closing notes
 * and README tables quote it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The main thread's profile of the latest run: a process writes one file per thread (tsx's loader
 * runs in a worker) when it exits; of the files written since `since`, the largest.
 */
export function mainThreadProfile(dir: string, since: number): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).mtimeMs >= since);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
}

/** Where a function lives, short: the package or the repository path, and the line. */
function placeOf(url: string, line: number): string {
  if (!url) return '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const inModules = clean.lastIndexOf('node_modules/');
  const short =
    inModules >= 0 ? clean.slice(inModules + 'node_modules/'.length) : path.relative(process.cwd(), clean);
  return `${short}:${line + 1}`;
}

/** Markdown rows `| self % | function | where |` of the functions with the most self time (idle left out). */
export function profileTop(file: string, top = 15): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  (profile.samples ?? []).forEach((id, index) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas?.[index] ?? 0));
  });
  const byFunction = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const key = `${functionName || '(anonymous)'}\t${placeOf(url, lineNumber)}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const total = [...byFunction.values()].reduce((sum, micros) => sum + micros, 0) || 1;
  return [...byFunction]
    .sort(([, a], [, b]) => b - a)
    .slice(0, top)
    .map(([key, micros]) => {
      const [name, where] = key.split('\t');
      return `| ${((micros / total) * 100).toFixed(1).padStart(5)} % | ${name} | ${where} |`;
    });
}
