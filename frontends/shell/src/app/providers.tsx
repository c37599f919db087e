import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { ApiError, SessionProvider, swrFetcher } from '@crm/web-kit';
import { CookieConsentLoader } from '@/components/cookie-consent/CookieConsentLoader';
import { flashNotice } from '@/lib/flash-notice';
import { PendingBooking } from './pending-booking';

// A message left by the page before a full reload (the erasure of an account).
flashNotice.show();

const swrOptions = {
  fetcher: swrFetcher,
  revalidateOnFocus: false,
  // A refused request is not retried in a loop; a server or network failure is, a few times.
  onErrorRetry: (
    error: unknown,
    _key: string,
    _config: unknown,
    revalidate: (opts: { retryCount: number }) => void,
    { retryCount }: { retryCount: number },
  ) => {
    if (error instanceof ApiError && !error.isServerFailure) return;
    if (retryCount >= 3) return;
    setTimeout(() => revalidate({ retryCount }), 2000 * (retryCount + 1));
  },
};

/** Data fetching, the session, the automatic booking after sign-in, and the cookie consent. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrOptions}>
      <SessionProvider>
        {children}
        <PendingBooking />
        <CookieConsentLoader />
      </SessionProvider>
    </SWRConfig>
  );
}
