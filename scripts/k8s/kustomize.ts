/**
 * kustomize, built once from the Go module proxy into the infrastructure's binary cache (like FerretDB
 * and Mailpit, see scripts/lib/go-tools.ts), and a helper that renders an overlay into objects.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { findGo } from '../lib/go-tools';
import { withFileLock } from '../lib/lock';
import { ensureDir, infraPaths, REPO_ROOT } from '../lib/paths';
import type { Manifest } from './validate-manifests';

const run = promisify(execFile);

export const KUSTOMIZE_VERSION = 'v5.7.1';
const MODULE = 'sigs.k8s.io/kustomize/kustomize/v5';

export const K8S_DIR = path.join(REPO_ROOT, 'deploy', 'k8s');
export const OVERLAYS = ['dev', 'production'] as const;

export function kustomizeBinaryPath(): string {
  return path.join(infraPaths.bin(), `kustomize-${KUSTOMIZE_VERSION}`);
}

/** The cached kustomize binary, built with `go install` on first use (about a minute). */
export async function ensureKustomize(log: (line: string) => void = () => undefined): Promise<string> {
  const target = kustomizeBinaryPath();
  if (fs.existsSync(target)) return target;
  const go = findGo();
  if (!go) throw new Error('Go is needed to build kustomize (looked on PATH and at /usr/local/go/bin/go)');
  const lock = path.join(infraPaths.run(), 'kustomize-build.lock');
  return withFileLock(
    lock,
    async () => {
      if (fs.existsSync(target)) return target; // built by another process meanwhile
      log(`building kustomize ${KUSTOMIZE_VERSION} with ${go} (first run only)`);
      const gobin = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-'));
      try {
        await run(go, ['install', `${MODULE}@${KUSTOMIZE_VERSION}`], {
          env: { ...process.env, GOBIN: gobin, GOFLAGS: '-mod=mod -buildvcs=false', GOTOOLCHAIN: 'local' },
          timeout: 15 * 60_000,
          maxBuffer: 16 * 1024 * 1024,
        });
        ensureDir(path.dirname(target));
        const staged = `${target}.tmp-${process.pid}`;
        fs.copyFileSync(path.join(gobin, 'kustomize'), staged);
        fs.chmodSync(staged, 0o755);
        fs.renameSync(staged, target);
      } finally {
        fs.rmSync(gobin, { recursive: true, force: true });
      }
      return target;
    },
    { timeoutMs: 20 * 60_000 },
  );
}

/** `kustomize build <dir>`, parsed into objects. */
export async function render(kustomize: string, dir: string): Promise<Manifest[]> {
  const { stdout } = await run(kustomize, ['build', dir], { maxBuffer: 64 * 1024 * 1024 });
  return parseYamlDocuments(stdout);
}

export function parseYamlDocuments(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`invalid YAML: ${document.errors[0]!.message}`);
      return document.toJS() as Manifest | null;
    })
    .filter((manifest): manifest is Manifest => manifest !== null);
}
