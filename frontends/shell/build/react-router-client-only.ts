import type { Plugin } from 'vite';

/**
 * The client-side API of react-router (v7). The shell shares `react-router` as a federation
 * singleton, and a shared module cannot be tree-shaken (any remote may use any export), so sharing
 * the whole package would put its server and framework parts (request handlers, sessions, cookies,
 * RSC, streaming hydration) on every page: ~65 KB of gzipped JavaScript instead of ~36 KB.
 * Remotes get exactly these exports through `react-router` and `react-router-dom`.
 */
export const ROUTER_CLIENT_EXPORTS = [
  'Await',
  'BrowserRouter',
  'Form',
  'HashRouter',
  'IDLE_BLOCKER',
  'IDLE_FETCHER',
  'IDLE_NAVIGATION',
  'Link',
  'MemoryRouter',
  'NavLink',
  'Navigate',
  'NavigationType',
  'Outlet',
  'Route',
  'Router',
  'RouterProvider',
  'Routes',
  'ScrollRestoration',
  'UNSAFE_DataRouterContext',
  'UNSAFE_DataRouterStateContext',
  'UNSAFE_LocationContext',
  'UNSAFE_NavigationContext',
  'UNSAFE_RouteContext',
  'createBrowserRouter',
  'createHashRouter',
  'createMemoryRouter',
  'createPath',
  'createRoutesFromChildren',
  'createRoutesFromElements',
  'createSearchParams',
  'generatePath',
  'isRouteErrorResponse',
  'matchPath',
  'matchRoutes',
  'parsePath',
  'redirect',
  'resolvePath',
  'useActionData',
  'useAsyncError',
  'useAsyncValue',
  'useBeforeUnload',
  'useBlocker',
  'useFetcher',
  'useFetchers',
  'useFormAction',
  'useHref',
  'useInRouterContext',
  'useLinkClickHandler',
  'useLoaderData',
  'useLocation',
  'useMatch',
  'useMatches',
  'useNavigate',
  'useNavigation',
  'useNavigationType',
  'useOutlet',
  'useOutletContext',
  'useParams',
  'useResolvedPath',
  'useRevalidator',
  'useRouteError',
  'useRouteLoaderData',
  'useRoutes',
  'useSearchParams',
  'useSubmit',
] as const;

const ROUTER_ENTRY =
  /[\\/]node_modules[\\/]react-router[\\/]dist[\\/](development|production)[\\/]index\.mjs$/;
const ROUTER_DOM_ENTRY = /[\\/]node_modules[\\/]react-router-dom[\\/]dist[\\/]index\.mjs$/;
const FULL = '?crm-full';

/**
 * Replaces react-router's package entry, in production builds only, by a module that re-exports
 * the client-side API from the real entry; the bundler then drops everything else. The module keeps
 * its path and package, so Module Federation shares it as `react-router` with its real version.
 * react-router-dom likewise loses `HydratedRouter` (framework-mode hydration, unused by SPAs).
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
        return `export * from 'react-router';\nexport { RouterProvider } from 'react-router/dom';\n`;
      return null;
    },
  };
}
