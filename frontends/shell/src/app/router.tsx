import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, useRoutes } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { LoadingScreen } from '@crm/web-kit';
import { RouteErrorBoundary } from '@/components/errors/RouteErrorScreen';
import { NotFound } from '@/components/errors/NotFound';
import { PublicLayout } from '@/components/layout/PublicLayout';
// The landing page is most visits' first page: it ships with the app instead of after it.
import LandingPage from '@/features/landing/components/LandingPage';
import { RequireRole } from './guards';
import { RemoteApp } from './remotes';

type PageModule = { default: ComponentType };

/**
 * A lazy page with the full-screen "Loading..." placeholder (docs/product/README.md#loading), and its
 * `preload` in the route's handle. Once its code is loaded, the page renders without suspending: React.lazy
 * takes the module from a thenable that answers at once, so a page preloaded before the first render (see
 * `preloadPage`) never shows the placeholder.
 */
function page(load: () => Promise<PageModule>): Pick<RouteObject, 'element' | 'handle'> {
  let loaded: PageModule | undefined;
  let loading: Promise<PageModule> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined; // a failed download is tried again on the next visit
        throw error;
      },
    ));
  const Page = lazy(() =>
    loaded
      ? ({ then: (resolve: (m: PageModule) => void) => resolve(loaded!) } as Promise<PageModule>)
      : preload(),
  );
  return {
    element: (
      <Suspense fallback={<LoadingScreen />}>
        <Page />
      </Suspense>
    ),
    handle: { preload },
  };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <PublicLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'dates', ...page(() => import('@/features/booking/components/BookingPage')) },
      { path: 'dates/offer/:token', ...page(() => import('@/features/waitlist/components/OfferPage')) },
      { path: 'faqs', ...page(() => import('@/features/faqs/components/FaqPage')) },
      { path: 'terms-and-conditions', ...page(() => import('@/features/legal/components/TermsPage')) },
      { path: 'login', ...page(() => import('@/features/auth/components/SignInPage')) },
      { path: 'signup', ...page(() => import('@/features/auth/components/SignUpPage')) },
      {
        path: 'forgot-password',
        ...page(() => import('@/features/auth/components/ForgotPasswordPage')),
      },
      { path: 'signOut', ...page(() => import('@/features/auth/components/SignOutPage')) },
      {
        path: 'reset-password/:token',
        ...page(() => import('@/features/auth/components/ResetPasswordPage')),
      },
      {
        path: 'confirm-account/:token',
        ...page(() => import('@/features/auth/components/ConfirmAccountPage')),
      },
    ],
  },
  {
    // Patient area: the same header and footer, only for patients.
    path: '/user',
    element: (
      <RequireRole roles={['PACIENT']}>
        <PublicLayout />
      </RequireRole>
    ),
    children: [
      { index: true, ...page(() => import('@/features/my-appointment/components/MyAppointmentPage')) },
      { path: 'accesos', ...page(() => import('@/features/access-log/components/MyAccessesPage')) },
    ],
  },
  {
    path: '/doctor/*',
    element: (
      <RequireRole roles={['DOCTOR', 'ADMIN']}>
        <RemoteApp name="backoffice" />
      </RequireRole>
    ),
  },
  {
    path: '/onboarding/*',
    element: (
      <RequireRole roles={['SERVICE_ACCOUNT']}>
        <RemoteApp name="kiosk" />
      </RequireRole>
    ),
  },
  {
    path: '/privacy-policy',
    ...page(() => import('@/features/legal/components/PrivacyPolicyPage')),
  },
  { path: '*', element: <NotFound /> },
];

/**
 * Loads the code of the lazy page at this address, if it is one, so that the app's first render
 * shows it (main.tsx waits for this; "/dates" keeps its pre-rendered first screen meanwhile).
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const route = matchRoutes(routes, pathname)?.at(-1)?.route;
  const preload = (route?.handle as { preload?: () => Promise<unknown> } | undefined)?.preload;
  return preload ? preload().catch(() => undefined) : Promise.resolve();
}

/**
 * The pages for the current address. The declarative router (not the data router: no loaders or
 * actions here) keeps react-router's shared bundle at half its size; see build/react-router-client-only.ts.
 */
export function AppRoutes() {
  return <RouteErrorBoundary>{useRoutes(routes)}</RouteErrorBoundary>;
}
