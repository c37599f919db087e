/**
 * Smoke of `npm run bench:growth`, in the last phase of `npm test` (alone: on FerretDB its full scans
 * would slow every other test running beside it): at GROWTH_SCALE=0.02 with the fewest calls per
 * read (one, alone, which with one "concurrent" caller is also that figure) and 50 items due per
 * background job instead of 1 000, it seeds the three sizes, takes every figure and prints every
 * row of the table. No figure is asserted: timings on a shared CI machine mean nothing; the bench is
 * run on its own for them.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

it('seeds the three sizes and prints every row of the table', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/growth/run.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      GROWTH_SCALE: '0.02',
      GROWTH_CALLS: '1',
      GROWTH_CONCURRENCY: '1',
      GROWTH_READ_BUDGET_S: '0',
      GROWTH_DUE: '50',
    },
    maxBuffer: 20 * 1024 * 1024,
    timeout: 780_000,
  });
  const table = stdout.slice(stdout.indexOf('| figure | month | year | five years |'));
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| figure'));
  expect(Number(/ROWS (\d+)/.exec(stdout)?.[1])).toBe(rows.length);
  for (const name of [
    "today's agenda p99",
    'audit, last page p99',
    'export of a 5-year patient p50',
    'booking p99',
    'pass: no-show sweep',
    'pass with 50 due: no-show sweep',
  ])
    expect(rows.some((row) => row.startsWith(`| ${name} |`))).toBe(true);
  // Every row has a figure at each size.
  for (const row of rows)
    expect(
      row
        .split('|')
        .slice(2, 5)
        .every((cell) => cell.trim() !== 'n/a'),
    ).toBe(true);
}, 800_000);
