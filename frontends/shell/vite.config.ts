import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { inlineEntryCss } from './build/inline-entry-css.ts';
import { preloadSharedStartUp } from './build/preload-shared.ts';
import { prerenderFirstScreens } from './build/prerender-first-screens.ts';
import { routeFlag } from './build/route-flag.ts';
import { reactRouterClientModule, reactRouterClientOnly } from './build/react-router-client-only.ts';
import { slimFederationRuntime } from './build/slim-federation-runtime.ts';
import { SHARED_SINGLETONS } from '../../packages/web-kit/build/federation.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const routerVersion: string = require('react-router/package.json').version;

/**
 * The shell is the federation host (docs/adr/0006-federation-shared-singletons.md): it loads `backoffice`
 * under /doctor/* and `kiosk` under /onboarding from /mf/<name>/remoteEntry.js, only when those routes are
 * visited. React, the router, SWR and @crm/web-kit are singletons so that the remotes use the host's
 * instances (one session, one router, one dialog queue per page).
 */
export default defineConfig(({ command }) => ({
  base: '/',
  resolve: {
    alias: { '@': path.resolve(here, 'src') },
  },
  plugins: [
    // The shared react-router is its client-side API only (see build/react-router-client-only.ts).
    reactRouterClientOnly(),
    // The federation runtime's version without the rest of its package.json.
    slimFederationRuntime(),
    // The shared singletons' code, preloaded from index.html (see build/preload-shared.ts).
    preloadSharedStartUp(),
    // The entry's stylesheet inside index.html (see build/inline-entry-css.ts).
    inlineEntryCss(),
    // The first screens of "/" and "/dates" as static HTML (see build/prerender-first-screens.ts).
    prerenderFirstScreens(),
    // The inline route flag, which completes those screens and starts the shell (see build/route-flag.ts).
    routeFlag(),
    react(),
    federation({
      name: 'shell',
      remotes: {
        backoffice: {
          type: 'module',
          name: 'backoffice',
          entry: '/mf/backoffice/remoteEntry.js',
          entryGlobalName: 'backoffice',
          shareScope: 'default',
        },
        kiosk: {
          type: 'module',
          name: 'kiosk',
          entry: '/mf/kiosk/remoteEntry.js',
          entryGlobalName: 'kiosk',
          shareScope: 'default',
        },
      },
      shareStrategy: 'loaded-first',
      // The shared react-router is cut to its client API (in builds), offered under the installed version.
      shared: {
        ...SHARED_SINGLETONS,
        'react-router': {
          ...SHARED_SINGLETONS['react-router'],
          version: routerVersion,
          ...(command === 'build'
            ? { import: reactRouterClientModule(path.resolve(here, 'node_modules/.crm-build')) }
            : {}),
        },
      },
      // Remotes are loaded from their remoteEntry.js, never from a manifest: no snapshot support needed.
      disableSnapshot: true,
      dts: false,
      experiments: { provideExternalRuntime: true },
    }),
  ],
  // `npm run dev -w @crm/shell`: the API of a running product (npm start) on the same origin.
  server: { proxy: { '/api': process.env.API_URL ?? 'http://127.0.0.1:8080' } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Every browser the centre supports has <link rel="modulepreload"> (Safari since 17); an older one
    // only loads the preloaded chunks later, when they are imported.
    modulePreload: { polyfill: false },
  },
}));
