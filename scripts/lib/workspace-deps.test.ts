import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';

/**
 * Every workspace declares the `@crm/*` packages its source imports, so that `npm ci -w <one>` and
 * the container bundling (scripts/build-deployable.ts) see the real dependency graph, and a package
 * never works only because a neighbour happened to hoist it.
 */
const WORKSPACE_GLOBS = ['packages', 'services', 'frontends'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)['"](@crm\/[a-z0-9-]+)/g;

function workspaces(): string[] {
  const dirs = WORKSPACE_GLOBS.flatMap((group) =>
    fs.readdirSync(path.join(REPO_ROOT, group)).map((name) => path.join(group, name)),
  );
  return [...dirs, 'gateway'].filter((dir) => fs.existsSync(path.join(REPO_ROOT, dir, 'package.json')));
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test', 'coverage'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (SOURCE.test(entry.name) && !/\.(test|fixture)\./.test(entry.name)) files.push(full);
  }
  return files;
}

describe('workspace dependencies', () => {
  it.each(workspaces())('%s declares every @crm package its source imports', (dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.devDependencies ?? {}),
    ]);
    const imported = new Set<string>();
    for (const file of sourceFiles(path.join(REPO_ROOT, dir))) {
      for (const match of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) imported.add(match[1]);
    }
    imported.delete(pkg.name);
    expect([...imported].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });
});
