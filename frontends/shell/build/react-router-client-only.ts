import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';
import { ROUTER_DOM_ENTRY, routerEsmEntry, type RouterPackageJson } from './package-layout.ts';
import ROUTER_CLIENT_EXPORTS from './router-client-exports.json' with { type: 'json' };

/**
 * The part of react-router's declarative client-side API (v7) the front ends use: `<BrowserRouter>`,
 * `<Routes>`, links and hooks (router-client-exports.json, which the lint rule of eslint.config.mjs
 * also reads). The shell shares `react-router` as a federation singleton, and a shared module cannot
 * be tree-shaken (any remote may use any export), so sharing the whole package would put its server
 * and framework parts (request handlers, sessions, RSC, streaming hydration) and the data router
 * (`createBrowserRouter`, loaders, actions, fetchers) on every page: ~65 KB of gzipped JavaScript
 * instead of ~14 KB. Nothing in the front ends loads data through the router (SWR does), so the
 * shell renders with `<BrowserRouter>`; remotes get exactly these exports through `react-router`
 * and `react-router-dom`, and lint refuses any other (add it to the list to use it).
 */

const require = createRequire(import.meta.url);

/**
 * Writes the module the shell shares as `react-router` (federation's `import` option for it) and
 * gives its path: the client exports, re-exported from the package's ES module entry, so the bundler
 * drops the rest. It has to be a file: the federation plugin reads it to learn the shared module's
 * exports (given the package itself, it would read all ~100 and keep a reference to each).
 */
export function reactRouterClientModule(directory: string): string {
  const packageJsonPath = require.resolve('react-router/package.json');
  const entry = path.resolve(
    path.dirname(packageJsonPath),
    routerEsmEntry(require(packageJsonPath) as RouterPackageJson),
  );
  const file = path.join(directory, 'react-router-client.mjs');
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(
    file,
    `// Written by frontends/shell/build/react-router-client-only.ts.\nexport { ${ROUTER_CLIENT_EXPORTS.join(', ')} } from ${JSON.stringify(`${entry}?shared-client`)};\n`,
  );
  return file;
}

/**
 * react-router-dom (v7) re-exports react-router and adds `RouterProvider` and `HydratedRouter`
 * (react-router/dom), which need parts of react-router the shared module leaves out: the shell's
 * imports of react-router-dom get the client exports of the shared `react-router` instead.
 */
export function reactRouterClientOnly(): Plugin {
  return {
    name: 'crm:react-router-client-only',
    apply: 'build',
    enforce: 'pre',
    load: (id) =>
      ROUTER_DOM_ENTRY.test(id)
        ? `export { ${ROUTER_CLIENT_EXPORTS.join(', ')} } from 'react-router';\n`
        : null,
  };
}
