/**
 * Renders every Kubernetes overlay (deploy/k8s/overlays/*) with kustomize and validates the objects
 * offline (scripts/k8s/validate-manifests.ts). Exit code 1 on any problem. Used by CI (.ci/run), on a
 * clean clone: the development overlay's secrets (ignored by git) are made first when missing.
 *
 *   npm run k8s:validate              all overlays
 *   npm run k8s:validate -- --print   also print the rendered YAML
 */
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureDevSecrets } from './k8s/dev-secrets';
import { ensureKustomize, K8S_DIR, OVERLAYS, render } from './k8s/kustomize';
import { validateManifests } from './k8s/validate-manifests';

async function main(): Promise<number> {
  const print = process.argv.includes('--print');
  const kustomize = await ensureKustomize((line) => console.log(line));
  ensureDevSecrets();
  let failed = false;
  for (const overlay of OVERLAYS) {
    const dir = path.join(K8S_DIR, 'overlays', overlay);
    const manifests = await render(kustomize, dir);
    const problems = validateManifests(manifests);
    const kinds = new Map<string, number>();
    for (const m of manifests) kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
    const summary = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
    if (print) {
      const { stdout } = await promisify(execFile)(kustomize, ['build', dir], { maxBuffer: 64 << 20 });
      console.log(stdout);
    }
    if (problems.length === 0) {
      console.log(`k8s ${overlay}: ${manifests.length} objects valid (${summary})`);
    } else {
      failed = true;
      console.log(`k8s ${overlay}: ${problems.length} problem(s)`);
      for (const problem of problems) console.log(`  - ${problem}`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
