/**
 * What the shell's build plugins (this folder; docs/adr/0005-route-flag-and-prerendering.md) assume of
 * react-router, @module-federation/vite and Vite, checked against the installed versions: first the
 * packages as installed, then a real build of the shell. After an upgrade, `npx jest frontends/shell`:
 * a failure names the plugin, what no longer holds and what to change.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SHARED_SINGLETONS } from '../../../packages/web-kit/build/federation.ts';
import {
  LOAD_SHARE_MARKER,
  ROUTER_DOM_ENTRY,
  RUNTIME_PACKAGE_JSON,
  routerEsmEntry,
  type RouterPackageJson,
} from './package-layout.ts';
import ROUTER_CLIENT_EXPORTS from './router-client-exports.json';

const SHELL_DIR = path.resolve(__dirname, '..');
/** Packages resolved as the plugins resolve them (`createRequire(import.meta.url)` in this folder). */
const pluginRequire = createRequire(__filename);

const packageJsonPath = (name: string, from = pluginRequire) => from.resolve(`${name}/package.json`);
const versionOf = (name: string, from = pluginRequire): string =>
  (from(packageJsonPath(name, from)) as { version: string }).version;

const UPGRADE_CHECKLIST = 'docs/adr/0005-route-flag-and-prerendering.md, "Upgrade checklist"';

/** Fails with the plugin's name, what no longer holds and what to do about it. */
function assume(plugin: string, holds: boolean, broken: string): void {
  if (!holds) throw new Error(`${plugin}: ${broken}\n(${UPGRADE_CHECKLIST})`);
}

/** Every JavaScript file below `dir`, with its text. */
function javascriptFiles(dir: string): { file: string; text: string }[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
}

describe(`react-router ${versionOf('react-router')}`, () => {
  const routerDir = path.dirname(packageJsonPath('react-router'));
  const routerDomPackage = packageJsonPath('react-router-dom');

  it('exports every name of router-client-exports.json, and so does react-router-dom', () => {
    for (const name of ['react-router', 'react-router-dom']) {
      const exported = pluginRequire(name) as Record<string, unknown>;
      const missing = ROUTER_CLIENT_EXPORTS.filter((exportName) => !(exportName in exported));
      assume(
        'react-router-client-only.ts',
        missing.length === 0,
        `${name} ${versionOf(name)} no longer exports ${missing.join(', ')}: take them out of build/router-client-exports.json (which the lint rule reads too) and out of the code that uses them`,
      );
    }
  });

  it("has the ES module entry the shared module re-exports (exports['.'].import.default)", () => {
    const packageJson = pluginRequire(packageJsonPath('react-router')) as RouterPackageJson;
    let entry = '';
    try {
      entry = path.join(routerDir, routerEsmEntry(packageJson));
    } catch (error) {
      assume('react-router-client-only.ts', false, `${(error as Error).message}: read the new exports map`);
    }
    assume(
      'react-router-client-only.ts',
      fs.existsSync(entry),
      `react-router's ES module entry ${entry} does not exist: read the new exports map`,
    );
  });

  it('keeps react-router-dom’s ES module entry where the plugin replaces it, on the same react-router', () => {
    const domPackage = pluginRequire(routerDomPackage) as RouterPackageJson;
    const domEntry = path.join(path.dirname(routerDomPackage), routerEsmEntry(domPackage));
    assume(
      'react-router-client-only.ts',
      ROUTER_DOM_ENTRY.test(domEntry),
      `react-router-dom's ES module entry is now ${domEntry}, which ROUTER_DOM_ENTRY (build/package-layout.ts) does not match: the shell would bundle all of react-router-dom; update the pattern`,
    );
    const domRequire = createRequire(routerDomPackage);
    assume(
      'react-router-client-only.ts',
      packageJsonPath('react-router', domRequire) === packageJsonPath('react-router'),
      `react-router-dom ${versionOf('react-router-dom')} uses a react-router of its own (${versionOf('react-router', domRequire)}), not the shared ${versionOf('react-router')}: align the two versions in the front ends' package.json`,
    );
  });

  it('satisfies, with React and SWR, the major versions the shared singletons require', () => {
    for (const [name, { requiredVersion }] of Object.entries(SHARED_SINGLETONS)) {
      if (name.startsWith('@crm/')) continue;
      const installed = versionOf(name);
      const major = /^\^(\d+)\./.exec(requiredVersion)?.[1];
      assume(
        'packages/web-kit/build/federation.ts (SHARED_SINGLETONS)',
        installed.split('.')[0] === major,
        `${name} ${installed} is outside requiredVersion ${requiredVersion}: change requiredVersion with the upgrade, for the shell and every remote at once`,
      );
    }
  });
});

describe(`@module-federation/vite ${versionOf('@module-federation/vite')}`, () => {
  const pluginPackage = packageJsonPath('@module-federation/vite');
  const pluginCode = javascriptFiles(path.dirname(pluginPackage));

  it('imports the runtime’s package.json whole, the file slim-federation-runtime.ts cuts down', () => {
    const importers = pluginCode.filter(({ text }) =>
      /from\s*["']@module-federation\/runtime\/package\.json["']/.test(text),
    );
    assume(
      'slim-federation-runtime.ts',
      importers.length > 0,
      'no module of @module-federation/vite imports "@module-federation/runtime/package.json" any more: find how it reads the runtime version now; if it no longer bundles the whole file, remove the plugin from vite.config.ts',
    );
    const runtimeFromPlugin = packageJsonPath(
      '@module-federation/runtime',
      createRequire(importers[0]!.file),
    );
    assume(
      'slim-federation-runtime.ts',
      runtimeFromPlugin === packageJsonPath('@module-federation/runtime') &&
        RUNTIME_PACKAGE_JSON.test(runtimeFromPlugin),
      `@module-federation/vite imports the runtime's package.json from ${runtimeFromPlugin}, not the file the plugin reads the version of and matches (RUNTIME_PACKAGE_JSON in build/package-layout.ts): align the versions or the pattern`,
    );
  });

  it('still has the options and the chunk names the shell and the remotes rely on', () => {
    const text = pluginCode.map((file) => file.text).join('\n');
    for (const [needed, plugin, what] of [
      [LOAD_SHARE_MARKER, 'preload-shared.ts', 'the file-name marker of the shared singletons’ chunks'],
      [
        'provideExternalRuntime',
        'vite.config.ts (experiments.provideExternalRuntime)',
        'the shell’s option that provides the federation runtime to the remotes',
      ],
      [
        'externalRuntime',
        'packages/web-kit/build/federation.ts (experiments.externalRuntime)',
        'the remotes’ option that takes the shell’s federation runtime',
      ],
    ] as const)
      assume(plugin, text.includes(needed), `@module-federation/vite no longer knows "${needed}", ${what}`);
  });
});

/** The shell built as `npm run build -w @crm/shell` builds it, into `outDir`; the build's output if it fails. */
function buildShell(outDir: string): string | undefined {
  const vitePackage = packageJsonPath('vite');
  const viteBin = path.join(
    path.dirname(vitePackage),
    (pluginRequire(vitePackage) as { bin: { vite: string } }).bin.vite,
  );
  // Without jest's marks, which make the federation plugin stand aside (it skips itself in tests).
  const { JEST_WORKER_ID: _worker, VITEST: _vitest, ...env } = process.env;
  try {
    // With the manifest, to follow the chunks' imports.
    execFileSync(
      process.execPath,
      [viteBin, 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'error'],
      {
        cwd: SHELL_DIR,
        env: { ...env, NODE_ENV: 'production' },
        stdio: 'pipe',
        timeout: 180_000,
      },
    );
    return undefined;
  } catch (error) {
    const { stderr, stdout, message } = error as { stderr?: Buffer; stdout?: Buffer; message: string };
    const output = `${String(stderr ?? '')}${String(stdout ?? '')}`.trim() || message;
    // Without terminal colours (the bundler's diagnostics keep them whatever the environment says).
    const plain = output.replace(/\u001b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex
    return plain.split('\n').slice(0, 40).join('\n');
  }
}

describe(`the shell's build (Vite ${versionOf('vite')})`, () => {
  let outDir = '';
  let buildFailure: string | undefined;
  let html = '';
  let flagData: {
    routeChunks: Record<string, string[]>;
    startUp: { entry: string; preloads: string[] };
  };
  let manifest: Record<string, { file: string; imports?: string[]; dynamicImports?: string[] }>;
  /** The checks of the built files, skipped when the build failed: that failure is the one to read. */
  const built = (name: string, check: () => void) =>
    it(name, () => {
      if (!buildFailure) check();
    });

  beforeAll(() => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-upgrade-'));
    buildFailure = buildShell(outDir);
    if (buildFailure) return;
    html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'));
    const data = /\}\)\((\{"routeChunks".*?\})\);<\/script>/s.exec(html)?.[1];
    flagData = data ? JSON.parse(data) : { routeChunks: {}, startUp: { entry: '', preloads: [] } };
  }, 180_000);

  afterAll(() => {
    if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('builds (a plugin that fails loudly names itself)', () => {
    assume(
      'the shell’s build',
      buildFailure === undefined,
      `npm run build -w @crm/shell fails:\n${buildFailure}`,
    );
  });

  built('route-flag.ts: the entry script and every module preload moved into the flag’s data', () => {
    assume(
      'route-flag.ts',
      flagData.startUp.entry !== '',
      'index.html has no inline route flag with its data in <head>: do transformIndexHtml (order "post") and generateBundle still see index.html?',
    );
    assume(
      'route-flag.ts',
      !/<script[^>]+type="module"/.test(html) && !/<link[^>]+rel="modulepreload"/.test(html),
      'index.html still has a <script type="module"> or a <link rel="modulepreload"> of its own: Vite writes these tags differently now; update ENTRY_SCRIPT and MODULE_PRELOAD',
    );
    assume(
      'route-flag.ts',
      /^\/assets\/.+\.js$/.test(flagData.startUp.entry) && flagData.startUp.preloads.length > 0,
      `the flag's start-up data is ${JSON.stringify(flagData.startUp)}: no entry or no preloads`,
    );
    for (const [route, chunks] of Object.entries(flagData.routeChunks))
      assume(
        'route-flag.ts',
        chunks.length > 0,
        `no chunks for ${route}: chunk.facadeModuleId or chunk.imports changed (PRELOADED_PAGES)`,
      );
  });

  built('inline-entry-css.ts: the entry’s stylesheet is inside index.html', () => {
    assume(
      'inline-entry-css.ts',
      html.includes('<style>') && !/<link[^>]+rel="stylesheet"[^>]+\/assets\//.test(html),
      'the entry’s stylesheet is still a <link rel="stylesheet">: Vite writes the tag differently now; update STYLESHEET_LINK',
    );
  });

  built(
    'prerender-first-screens.ts: #root holds the first screens of "/" and "/dates", with the built logo',
    () => {
      assume(
        'prerender-first-screens.ts',
        html.includes('<div id="root"><div class="layout layout--home prerender-home">') &&
          html.includes('prerender-dates'),
        'index.html\'s #root does not hold the two first screens: does index.html still have <div id="root"></div>?',
      );
      assume(
        'prerender-first-screens.ts',
        /class="brand__logo" src="\/assets\/logo-[^"]+\.png"/.test(html),
        'the static header does not show the built logo: asset.originalFileNames changed (builtLogoUrl)',
      );
    },
  );

  built('preload-shared.ts: the code the shared singletons start with is preloaded', () => {
    const loadShares = Object.values(manifest).filter((chunk) => chunk.file.includes(LOAD_SHARE_MARKER));
    assume(
      'preload-shared.ts',
      loadShares.length > 0,
      `no chunk's file name holds "${LOAD_SHARE_MARKER}": find how @module-federation/vite names the shared singletons' chunks now (LOAD_SHARE_MARKER in build/package-layout.ts)`,
    );
    const startedCode = loadShares
      .flatMap((chunk) => chunk.dynamicImports ?? [])
      .map((key) => `/${manifest[key]!.file}`);
    const missing = startedCode.filter((file) => !flagData.startUp.preloads.includes(file));
    assume(
      'preload-shared.ts',
      startedCode.length > 0 && missing.length === 0,
      `the shared singletons' code is not preloaded (${missing.join(', ') || 'none found'}): do the loadShare chunks still import it dynamically?`,
    );
  });

  built('react-router-client-only.ts: the shared react-router is its client part only', () => {
    const shared = fs.readFileSync(
      path.join(SHELL_DIR, 'node_modules', '.crm-build', 'react-router-client.mjs'),
      'utf8',
    );
    const [, names = '', from = ''] = /export \{ (.*) \} from "(.*)\?shared-client";/.exec(shared) ?? [];
    assume(
      'react-router-client-only.ts',
      names === ROUTER_CLIENT_EXPORTS.join(', ') && fs.existsSync(from),
      `the shared module written for react-router is not the client exports of its ES module entry:\n${shared}`,
    );
    const routerChunk = Object.values(manifest).find(
      (chunk) => chunk.file.includes(LOAD_SHARE_MARKER) && chunk.file.includes('react_mf_2_router'),
    );
    const gzipped = routerChunk
      ? zlib.gzipSync(fs.readFileSync(path.join(outDir, routerChunk.file))).length
      : Infinity;
    assume(
      'react-router-client-only.ts',
      gzipped < 30_000,
      `the shared react-router chunk is ${gzipped} bytes gzipped (about 15 KB when cut to its client part): is the data router or the server part back?`,
    );
  });

  built('slim-federation-runtime.ts: the runtime’s package.json is reduced to its name and version', () => {
    const code = javascriptFiles(outDir).map((file) => file.text);
    assume(
      'slim-federation-runtime.ts',
      code.some((text) => text.includes(versionOf('@module-federation/runtime'))) &&
        !code.some((text) => /typesVersions|publishConfig/.test(text)),
      'the built code holds more of @module-federation/runtime/package.json than its name and version, or not its version: does RUNTIME_PACKAGE_JSON still match the file the federation plugin imports?',
    );
  });
});
