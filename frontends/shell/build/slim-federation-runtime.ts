import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { RUNTIME_PACKAGE_JSON } from './package-layout.ts';

const require = createRequire(import.meta.url);

/**
 * The host's federation runtime plugin imports `@module-federation/runtime/package.json` whole for its
 * `version` (it tells remotes which runtime they share): the package's scripts, exports map and
 * repository would ride along in the shell's remoteEntry on every page (~0.8 KB gzipped). The build
 * gives it just the name and version.
 */
export function slimFederationRuntime(): Plugin {
  const { name, version } = require('@module-federation/runtime/package.json') as {
    name: string;
    version: string;
  };
  return {
    name: 'crm:slim-federation-runtime',
    apply: 'build',
    enforce: 'pre',
    load: (id) => (RUNTIME_PACKAGE_JSON.test(id) ? JSON.stringify({ name, version }) : null),
  };
}
