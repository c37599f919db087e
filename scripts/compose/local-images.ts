/**
 * Local images for machines where no registry answers (docker/local/*.Dockerfile): a Debian root file
 * system from debootstrap (with the machine's apt mirror) imported as `crm/debian:bookworm`, a Node
 * base with this machine's Node and npm, and stand-ins for the infrastructure images of
 * docker-compose.yml (RabbitMQ with its management plugin, Redis, Mailpit, and FerretDB on
 * PostgreSQL for MongoDB). Every build goes through Docker's layer cache, so a second run that
 * changes nothing takes seconds. The variables that point compose at them are written to
 * docker/local-images.env (`docker-compose --env-file docker/local-images.env up --build`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFerretdbBinary, ensureJaegerBinary, ensureMailpitBinary } from '../lib/go-tools';
import { REPO_ROOT } from '../lib/paths';
import { docker, dockerOk, imageSizeMb, run } from './docker-cli';

export const DEBIAN_IMAGE = 'crm/debian:bookworm';
export const LOCAL_ENV_FILE = path.join(REPO_ROOT, 'docker', 'local-images.env');
const RECIPES = path.join(REPO_ROOT, 'docker', 'local');

/** The compose variable each local image stands behind, and the image. */
export const LOCAL_IMAGES = {
  NODE_IMAGE: 'crm/node:20',
  MONGO_IMAGE: 'crm/mongo:local',
  RABBITMQ_IMAGE: 'crm/rabbitmq:local',
  REDIS_IMAGE: 'crm/redis:local',
  MAILPIT_IMAGE: 'crm/mailpit:local',
  JAEGER_IMAGE: 'crm/jaeger:local',
} as const;

export type LocalImageVariable = keyof typeof LOCAL_IMAGES;

/** The first Debian mirror apt is configured with (deb822 or one-line sources), else deb.debian.org. */
export function aptMirror(): string {
  if (process.env.DEBIAN_MIRROR) return process.env.DEBIAN_MIRROR;
  const candidates = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list'];
  for (const file of candidates) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const match = /^URIs:\s*(\S+)/m.exec(text) ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(text);
    if (match && !match[1].includes('security')) return match[1];
  }
  return 'http://deb.debian.org/debian';
}

async function debianBase(say: (line: string) => void): Promise<void> {
  if (dockerOk(['image', 'inspect', DEBIAN_IMAGE])) return say(`${DEBIAN_IMAGE}: cached`);
  const rootfs = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-rootfs-'));
  try {
    const mirror = aptMirror();
    say(`${DEBIAN_IMAGE}: debootstrap bookworm from ${mirror}`);
    await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror]);
    // What a container never needs: downloaded packages, package lists (builds fetch their own),
    // documentation and translations.
    for (const dir of [
      'var/cache/apt/archives',
      'var/lib/apt/lists',
      'usr/share/doc',
      'usr/share/man',
      'usr/share/locale',
    ])
      fs.rmSync(path.join(rootfs, dir), { recursive: true, force: true });
    fs.mkdirSync(path.join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
    fs.mkdirSync(path.join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
    await run('sh', [
      '-c',
      `tar -C '${rootfs}' -c . | docker import --change 'CMD ["bash"]' - ${DEBIAN_IMAGE}`,
    ]);
  } finally {
    fs.rmSync(rootfs, { recursive: true, force: true });
  }
}

/** A build context holding the named recipe files and extra files (binaries) copied in. */
function context(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-image-'));
  for (const [target, source] of Object.entries(files))
    fs.cpSync(source, path.join(dir, target), { recursive: true, dereference: true });
  return dir;
}

async function build(
  image: string,
  dockerfile: string,
  files: Record<string, string>,
  prune: (dir: string) => void = () => undefined,
): Promise<void> {
  const dir = context({ Dockerfile: path.join(RECIPES, dockerfile), ...files });
  try {
    prune(dir);
    await docker(['build', '-q', '-t', image, dir]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function npmDirectory(): string {
  const bundled = path.resolve(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  if (fs.existsSync(bundled)) return bundled;
  throw new Error(`npm not found next to ${process.execPath}`);
}

/** OpenSSL's configuration headers for every platform but this one: 50 MB a base never needs. */
function pruneOtherPlatforms(dir: string): void {
  const archs = path.join(dir, 'include', 'openssl', 'archs');
  const own = { x64: 'linux-x86_64', arm64: 'linux-aarch64' }[process.arch as string];
  if (!own || !fs.existsSync(path.join(archs, own))) return;
  for (const arch of fs.readdirSync(archs))
    if (arch !== own) fs.rmSync(path.join(archs, arch), { recursive: true, force: true });
}

function nodeHeaders(): string {
  const headers = path.resolve(path.dirname(process.execPath), '..', 'include', 'node');
  if (fs.existsSync(path.join(headers, 'node.h'))) return headers;
  throw new Error(`Node's headers not found in ${headers}`);
}

/** Builds (or finds cached) every local image and writes docker/local-images.env. */
export async function buildLocalImages(
  say: (line: string) => void = console.log,
): Promise<Record<LocalImageVariable, string>> {
  const started = Date.now();
  await debianBase(say);
  const step = async (image: string, make: () => Promise<void>): Promise<void> => {
    const t0 = Date.now();
    await make();
    say(`${image}: ready in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${imageSizeMb(image)} MB`);
  };
  await step(LOCAL_IMAGES.NODE_IMAGE, () =>
    build(
      LOCAL_IMAGES.NODE_IMAGE,
      'node.Dockerfile',
      {
        node: process.execPath,
        npm: npmDirectory(),
        include: nodeHeaders(),
        'ca-certificates.crt': '/etc/ssl/certs/ca-certificates.crt',
      },
      pruneOtherPlatforms,
    ),
  );
  const quiet = (): void => undefined;
  const [ferretdb, mailpit] = [await ensureFerretdbBinary(quiet), await ensureMailpitBinary(quiet)];
  await step(LOCAL_IMAGES.REDIS_IMAGE, () =>
    build(LOCAL_IMAGES.REDIS_IMAGE, 'redis.Dockerfile', {
      'redis-entrypoint.sh': path.join(RECIPES, 'redis-entrypoint.sh'),
    }),
  );
  await step(LOCAL_IMAGES.MAILPIT_IMAGE, () =>
    build(LOCAL_IMAGES.MAILPIT_IMAGE, 'mailpit.Dockerfile', { mailpit }),
  );
  const jaeger = await ensureJaegerBinary(quiet);
  await step(LOCAL_IMAGES.JAEGER_IMAGE, () =>
    build(LOCAL_IMAGES.JAEGER_IMAGE, 'jaeger.Dockerfile', { jaeger }),
  );
  await step(LOCAL_IMAGES.RABBITMQ_IMAGE, () =>
    build(LOCAL_IMAGES.RABBITMQ_IMAGE, 'rabbitmq.Dockerfile', { rabbitmq: path.join(RECIPES, 'rabbitmq') }),
  );
  await step(LOCAL_IMAGES.MONGO_IMAGE, () =>
    build(LOCAL_IMAGES.MONGO_IMAGE, 'mongo.Dockerfile', { ferretdb, mongo: path.join(RECIPES, 'mongo') }),
  );
  const lines = Object.entries(LOCAL_IMAGES).map(([variable, image]) => `${variable}=${image}`);
  fs.writeFileSync(
    LOCAL_ENV_FILE,
    `# Written by npm run compose:images: compose with the local images (no registry needed).\n${lines.join('\n')}\n`,
  );
  say(
    `local images ready in ${((Date.now() - started) / 1000).toFixed(1)} s; compose variables in ${path.relative(REPO_ROOT, LOCAL_ENV_FILE)}`,
  );
  return { ...LOCAL_IMAGES };
}
