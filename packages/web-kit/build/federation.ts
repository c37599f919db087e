/**
 * The module-federation settings every front end must agree on (frontends/shell/README.md, "Contract
 * for the remotes"). Imported by relative path from the apps' Vite configs, which Vite bundles, so no
 * build step is needed. Plain objects only: each app still constructs its own plugins.
 */

/** The version @crm/web-kit is shared under (its package.json). */
export const WEB_KIT_VERSION = '0.1.0';

/**
 * The singletons: one React, one router, one SWR cache and one @crm/web-kit (session, dialog queue)
 * per page, whichever app loaded them first. `react-router-dom` is not among them: in v7 it only
 * re-exports `react-router` (which is shared, and holds the router's contexts), so each app keeps its
 * own few lines of it instead of a shared chunk of its own on every page.
 */
export const SHARED_SINGLETONS = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-router': { singleton: true, requiredVersion: '^7.0.0' },
  swr: { singleton: true, requiredVersion: '^2.0.0' },
  '@crm/web-kit': { singleton: true, requiredVersion: `^${WEB_KIT_VERSION}`, version: WEB_KIT_VERSION },
};

/** Options of `federation()` for a remote served at /mf/<name>/remoteEntry.js exposing `./App`. */
export function remoteFederationOptions(name: string, appModule: string) {
  return {
    name,
    filename: 'remoteEntry.js',
    exposes: { './App': appModule },
    // 'loaded-first' everywhere, or "/" downloads the remotes' entries
    // (docs/adr/0006-federation-shared-singletons.md).
    shareStrategy: 'loaded-first' as const,
    shared: SHARED_SINGLETONS,
    dts: false,
    // The host provides the federation runtime once for every app.
    experiments: { externalRuntime: true },
  };
}

/**
 * Output chunking of a remote: `@crm/web-kit/forms` (and the phone formatting its fields use) is
 * bundled into each remote, and left to itself the bundler puts it into chunks of its own, one
 * static import after another (App → fields → phone): one more round trip each before the remote
 * can render on a slow connection. One chunk for all of it keeps the request chain short.
 */
export const REMOTE_CODE_SPLITTING = {
  groups: [
    {
      name: 'web-kit-forms',
      test: /[\\/]packages[\\/](web-kit[\\/]src[\\/](forms[\\/]|ui[\\/]fields\.|ui[\\/]Modal\.|phone[\\/])|contracts[\\/]src[\\/]phone\.)/,
    },
  ],
};
