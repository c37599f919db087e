import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDir, infraPaths, rel, REPO_ROOT } from './paths';
import { runLogged, which } from './processes';

export const FERRETDB_VERSION = 'v1.24.2';
export const MAILPIT_VERSION = 'v1.28.0';
/** The Go module version of Jaeger v2's single binary (cmd/jaeger), the trace collector and UI. */
export const JAEGER_VERSION = 'v1.76.0';

const TOOLS_DIR = path.join(REPO_ROOT, 'scripts', 'tools');

/** `go` on PATH, else the usual tarball location. */
export function findGo(): string | null {
  return which('go', ['/usr/local/go/bin/go']);
}

export function ferretdbBinaryPath(): string {
  return path.join(infraPaths.bin(), `ferretdb-${FERRETDB_VERSION}`);
}

export function mailpitBinaryPath(): string {
  return path.join(infraPaths.bin(), `mailpit-${MAILPIT_VERSION}`);
}

export function jaegerBinaryPath(): string {
  return path.join(infraPaths.bin(), `jaeger-${JAEGER_VERSION}`);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).size > 0;
  } catch {
    return false;
  }
}

function makeWritable(dir: string): void {
  const st = fs.lstatSync(dir);
  if (st.isSymbolicLink()) return;
  fs.chmodSync(dir, st.mode | 0o200 | (st.isDirectory() ? 0o100 : 0));
  if (st.isDirectory()) for (const entry of fs.readdirSync(dir)) makeWritable(path.join(dir, entry));
}

function copyToolFiles(tool: string, dest: string): void {
  for (const file of ['go.mod', 'go.sum', 'tools.go']) {
    fs.copyFileSync(path.join(TOOLS_DIR, tool, file), path.join(dest, file));
  }
}

function goEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // A build outside any VCS checkout, modules resolved from the committed go.mod/go.sum.
    GOFLAGS: '-mod=mod -buildvcs=false',
    // Never fetch another toolchain: the one installed here is new enough.
    GOTOOLCHAIN: 'local',
    ...extra,
  };
}

class BuildError extends Error {}

async function step(
  logName: string,
  go: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const r = await runLogged(logName, go, args, { cwd, env, timeoutMs: 20 * 60_000 });
  if (r.code !== 0) {
    const tail = r.output.trimEnd().split('\n').slice(-8).join('\n    ');
    throw new BuildError(`go ${args.join(' ')} failed (exit ${r.code}):\n    ${tail}`);
  }
  return r.output;
}

async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    try {
      makeWritable(dir);
    } catch {
      // best effort
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Moves a freshly built binary into place atomically (two concurrent builds cannot clash). */
function install(built: string, target: string): void {
  fs.chmodSync(built, 0o755);
  ensureDir(path.dirname(target));
  const staged = `${target}.tmp-${process.pid}`;
  fs.copyFileSync(built, staged);
  fs.chmodSync(staged, 0o755);
  fs.renameSync(staged, target);
}

export type Progress = (message: string) => void;

/**
 * Returns the cached FerretDB binary, building it first if needed. Plain
 * `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` fails here, and the module needs
 * build/version/version.txt, so it is built from a writable copy of the module with a replace.
 */
export async function ensureFerretdbBinary(progress: Progress): Promise<string> {
  const target = ferretdbBinaryPath();
  if (isExecutable(target)) return target;
  const go = findGo();
  if (!go) throw new BuildError('Go is not installed (looked on PATH and at /usr/local/go/bin/go)');
  const logName = 'ferretdb-build';
  progress(
    `building FerretDB ${FERRETDB_VERSION} with ${go} (first run only; log: ${rel(infraPaths.log(logName))})`,
  );
  await withTempDir('ferretdb-build-', async (dir) => {
    copyToolFiles('ferretdb', dir);
    const env = goEnv({});
    const json = await step(
      logName,
      go,
      ['mod', 'download', '-json', 'github.com/FerretDB/FerretDB'],
      dir,
      env,
    );
    const match = /"Dir":\s*"([^"]+)"/.exec(json);
    let moduleDir = match?.[1];
    if (!moduleDir) {
      const modcache =
        (await step(logName, go, ['env', 'GOMODCACHE'], dir, env)).trim().split('\n').pop() ?? '';
      moduleDir = path.join(modcache, 'github.com', '!ferret!d!b', `!ferret!d!b@${FERRETDB_VERSION}`);
    }
    if (!fs.existsSync(moduleDir)) throw new BuildError(`module directory not found: ${moduleDir}`);
    const src = path.join(dir, 'src');
    fs.cpSync(moduleDir, src, { recursive: true });
    makeWritable(src);
    fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    await step(logName, go, ['mod', 'edit', '-replace', 'github.com/FerretDB/FerretDB=./src'], dir, env);
    const out = path.join(dir, 'ferretdb');
    await step(logName, go, ['build', '-o', out, 'github.com/FerretDB/FerretDB/cmd/ferretdb'], dir, env);
    install(out, target);
  });
  return target;
}

/** Returns the cached Mailpit binary, building it first if needed. */
export async function ensureMailpitBinary(progress: Progress): Promise<string> {
  const target = mailpitBinaryPath();
  if (isExecutable(target)) return target;
  const go = findGo();
  if (!go) throw new BuildError('Go is not installed (looked on PATH and at /usr/local/go/bin/go)');
  const logName = 'mailpit-build';
  progress(
    `building Mailpit ${MAILPIT_VERSION} with ${go} (first run only; log: ${rel(infraPaths.log(logName))})`,
  );
  await withTempDir('mailpit-build-', async (dir) => {
    copyToolFiles('mailpit', dir);
    // The checksum database is not reachable here; the committed go.sum pins every module.
    const env = goEnv({ GOSUMDB: 'off' });
    const out = path.join(dir, 'mailpit');
    await step(logName, go, ['build', '-o', out, 'github.com/axllent/mailpit'], dir, env);
    install(out, target);
  });
  return target;
}

/**
 * Returns the cached Jaeger binary, building it first if needed (about 2.5 minutes on 2 cores).
 * Jaeger's go.mod has replace directives, so `go install …@version` refuses it; scripts/tools/jaeger
 * is a module that requires it as a tool (`go get -tool`), whose go.sum pins every module.
 */
export async function ensureJaegerBinary(progress: Progress): Promise<string> {
  const target = jaegerBinaryPath();
  if (isExecutable(target)) return target;
  const go = findGo();
  if (!go) throw new BuildError('Go is not installed (looked on PATH and at /usr/local/go/bin/go)');
  const logName = 'jaeger-build';
  progress(
    `building Jaeger ${JAEGER_VERSION} with ${go} (first run only, a few minutes; log: ${rel(infraPaths.log(logName))})`,
  );
  await withTempDir('jaeger-build-', async (dir) => {
    for (const file of ['go.mod', 'go.sum']) {
      fs.copyFileSync(path.join(TOOLS_DIR, 'jaeger', file), path.join(dir, file));
    }
    const env = goEnv({ GOSUMDB: 'off' });
    const out = path.join(dir, 'jaeger');
    await step(logName, go, ['build', '-o', out, 'github.com/jaegertracing/jaeger/cmd/jaeger'], dir, env);
    install(out, target);
  });
  return target;
}
