/**
 * Smoke of `npm run bench:growth`: at GROWTH_SCALE=0.02 with a few calls per read it seeds the three
 * sizes, makes 1 000 items due for each background job at each, and prints every row of the table
 * (no figure is asserted: timings on a shared CI machine mean nothing; the bench is run on its own
 * for them). It takes many minutes, the passes with 1 000 due most of them.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

it('seeds the three sizes and prints every row of the table', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/growth/run.ts'], {
    cwd: ROOT,
    env: { ...process.env, GROWTH_SCALE: '0.02', GROWTH_CALLS: '2', GROWTH_CONCURRENCY: '2' },
    maxBuffer: 20 * 1024 * 1024,
    timeout: 1_080_000,
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
    'pass with 1 000 due: no-show sweep',
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
}, 1_100_000);
