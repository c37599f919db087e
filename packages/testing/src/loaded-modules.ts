import { execFileSync } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * Every module file a fresh Node process loads for `require(specifier)` (a package name, or a path
 * from the repository's root), run through tsx as `npm start` runs the deployables: what an entry
 * point really pulls in. No imports but Node's: `@crm/testing/src/loaded-modules` for tests below
 * the harness.
 */
export function modulesLoadedBy(specifier: string): string[] {
  const script = `require(${JSON.stringify(specifier)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const output = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(output) as string[];
}
