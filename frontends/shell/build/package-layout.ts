/**
 * What the shell's build plugins know about the packaging of react-router and module federation: the
 * files they recognise by path and the names they look for. Kept here, apart from the plugins (which
 * run only inside Vite), so that build/upgrade-assumptions.test.ts can check each of them against the
 * installed versions.
 */

/** react-router-dom's ES module entry, which react-router-client-only.ts replaces. */
export const ROUTER_DOM_ENTRY = /[\\/]node_modules[\\/]react-router-dom[\\/]dist[\\/]index\.mjs$/;

/** The federation runtime's package.json, which slim-federation-runtime.ts cuts to name and version. */
export const RUNTIME_PACKAGE_JSON = /[\\/]node_modules[\\/]@module-federation[\\/]runtime[\\/]package\.json$/;

/** The file-name marker of the chunks that start the shared singletons (preload-shared.ts). */
export const LOAD_SHARE_MARKER = '__loadShare__';

/** The part of react-router's package.json that react-router-client-only.ts reads. */
export interface RouterPackageJson {
  exports?: { '.'?: { import?: { default?: string } } };
}

/** react-router's ES module entry, relative to its package (`exports['.'].import.default`). */
export function routerEsmEntry(packageJson: RouterPackageJson): string {
  const entry = packageJson.exports?.['.']?.import?.default;
  if (!entry) throw new Error("react-router's package.json has no exports['.'].import.default");
  return entry;
}
