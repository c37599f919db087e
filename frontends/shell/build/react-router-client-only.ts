import type { Plugin } from 'vite';

/**
 * The declarative client-side API of react-router (v7): `<BrowserRouter>`, `<Routes>`, links and
 * hooks. The shell shares `react-router` as a federation singleton, and a shared module cannot be
 * tree-shaken (any remote may use any export), so sharing the whole package would put its server and
 * framework parts (request handlers, sessions, RSC, streaming hydration) and the data router
 * (`createBrowserRouter`, loaders, actions, fetchers) on every page: ~65 KB of gzipped JavaScript
 * instead of ~18 KB. Nothing in the front ends loads data through the router (SWR does), so the
 * shell renders with `<BrowserRouter>`; remotes get exactly these exports through `react-router`
 * and `react-router-dom`.
 */
export const ROUTER_CLIENT_EXPORTS = [
  'BrowserRouter',
  'HashRouter',
  'Link',
  'MemoryRouter',
  'NavLink',
  'Navigate',
  'NavigationType',
  'Outlet',
  'Route',
  'Router',
  'Routes',
  'UNSAFE_LocationContext',
  'UNSAFE_NavigationContext',
  'UNSAFE_RouteContext',
  'createPath',
  'createRoutesFromChildren',
  'createRoutesFromElements',
  'createSearchParams',
  'generatePath',
  'matchPath',
  'matchRoutes',
  'parsePath',
  'resolvePath',
  'useHref',
  'useInRouterContext',
  'useLinkClickHandler',
  'useLocation',
  'useMatch',
  'useNavigate',
  'useNavigationType',
  'useOutlet',
  'useOutletContext',
  'useParams',
  'useResolvedPath',
  'useRoutes',
  'useSearchParams',
] as const;

const ROUTER_ENTRY =
  /[\\/]node_modules[\\/]react-router[\\/]dist[\\/](development|production)[\\/]index\.mjs$/;
const ROUTER_DOM_ENTRY = /[\\/]node_modules[\\/]react-router-dom[\\/]dist[\\/]index\.mjs$/;
const FULL = '?crm-full';

/**
 * Replaces react-router's package entry, in production builds only, by a module that re-exports
 * the client-side API from the real entry; the bundler then drops everything else. The module keeps
 * its path and package, so Module Federation shares it as `react-router` with its real version.
 * react-router-dom likewise loses `RouterProvider` and `HydratedRouter` (react-router/dom).
 */
export function reactRouterClientOnly(): Plugin {
  return {
    name: 'crm:react-router-client-only',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (id.endsWith(FULL)) return null;
      if (ROUTER_ENTRY.test(id))
        return `export { ${ROUTER_CLIENT_EXPORTS.join(', ')} } from ${JSON.stringify(id + FULL)};\n`;
      if (ROUTER_DOM_ENTRY.test(id))
        return `export { ${ROUTER_CLIENT_EXPORTS.join(', ')} } from 'react-router';\n`;
      return null;
    },
  };
}
