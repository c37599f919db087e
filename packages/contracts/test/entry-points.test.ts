/**
 * The package's declared entry points (package.json `exports`). Browser code imports the subpaths
 * only (a lint rule), so each must stay free of zod: the index, with every schema, is for servers.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import packageJson from '../package.json';

const PACKAGE_DIR = path.resolve(__dirname, '..');
const subpaths = Object.entries(packageJson.exports as Record<string, string>).filter(
  ([entry]) => entry !== '.',
);

/** Every file a browser bundle of `file` takes in (its imports, followed). */
async function bundledInputs(file: string): Promise<string[]> {
  const result = await build({
    entryPoints: [path.join(PACKAGE_DIR, file)],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('@crm/contracts entry points', () => {
  it.each(subpaths)('%s bundles without zod', async (_entry, file) => {
    const inputs = await bundledInputs(file);
    expect(inputs.filter((input) => /[\\/]node_modules[\\/]/.test(input))).toEqual([]);
  });

  it('resolves each subpath to its file, and nothing else under the package', () => {
    for (const [entry, file] of subpaths)
      expect(realpathSync(require.resolve(`@crm/contracts${entry.slice(1)}`))).toBe(
        realpathSync(path.join(PACKAGE_DIR, file)),
      );
    expect(() => require.resolve('@crm/contracts/src/phone')).toThrow();
  });
});
