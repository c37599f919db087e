/**
 * Bundles one deployable (gateway or a service) into `<workspace>/dist/main.js` for its container
 * image: our own TypeScript (the workspace and the @crm/* packages) is compiled in, third-party
 * packages stay external and come from `npm ci --omit=dev` in the image.
 *
 *   npx tsx scripts/build-deployable.ts services/auth
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { REPO_ROOT } from './lib/paths';

const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@crm/') ? undefined : { path: args.path, external: true },
    );
  },
};

async function main(workspace: string | undefined): Promise<void> {
  if (!workspace) throw new Error('usage: build-deployable.ts <workspace dir>, e.g. services/auth');
  const root = path.join(REPO_ROOT, workspace);
  await build({
    entryPoints: [path.join(root, 'src/main.ts')],
    outfile: path.join(root, 'dist/main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  console.log(`built ${workspace}/dist/main.js`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
