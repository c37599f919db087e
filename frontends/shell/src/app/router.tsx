import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { LoadingScreen } from '@crm/web-kit';
import { RouteErrorBoundary } from '@/components/errors/RouteErrorScreen';
import { NotFound } from '@/components/errors/NotFound';
import { PublicLayout } from '@/components/layout/PublicLayout';
// The landing page is most visits' first page: it ships with the app instead of after it.
import LandingPage from '@/features/landing/components/LandingPage';
import { RequireRole } from './guards';
import { RemoteApp } from './remotes';

/** Lazy page with the full-screen "Loading..." placeholder (SPEC §2). */
function page(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Page = lazy(load);
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Page />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <PublicLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'dates', element: page(() => import('@/features/booking/components/BookingPage')) },
      { path: 'dates/offer/:token', element: page(() => import('@/features/waitlist/components/OfferPage')) },
      { path: 'faqs', element: page(() => import('@/features/faqs/components/FaqPage')) },
      { path: 'terms-and-conditions', element: page(() => import('@/features/legal/components/TermsPage')) },
      { path: 'login', element: page(() => import('@/features/auth/components/SignInPage')) },
      { path: 'signup', element: page(() => import('@/features/auth/components/SignUpPage')) },
      {
        path: 'forgot-password',
        element: page(() => import('@/features/auth/components/ForgotPasswordPage')),
      },
      { path: 'signOut', element: page(() => import('@/features/auth/components/SignOutPage')) },
      {
        path: 'reset-password/:token',
        element: page(() => import('@/features/auth/components/ResetPasswordPage')),
      },
      {
        path: 'confirm-account/:token',
        element: page(() => import('@/features/auth/components/ConfirmAccountPage')),
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
      { index: true, element: page(() => import('@/features/my-appointment/components/MyAppointmentPage')) },
      { path: 'accesos', element: page(() => import('@/features/access-log/components/MyAccessesPage')) },
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
    element: page(() => import('@/features/legal/components/PrivacyPolicyPage')),
  },
  { path: '*', element: <NotFound /> },
];

/**
 * The pages for the current address. The declarative router (not the data router: no loaders or
 * actions here) keeps react-router's shared bundle at half its size; see build/react-router-client-only.ts.
 */
export function AppRoutes() {
  return <RouteErrorBoundary>{useRoutes(routes)}</RouteErrorBoundary>;
}
