import { useEffect } from 'react';
import useSWR, { preload } from 'swr';
import type { CentreProfile } from '@crm/contracts';
import { API_BASE, apiRequest } from '../api/client';
import { CENTRE_PROFILE_URL, takeEarlyRequest } from './early-request';

/** `GET /config/centre`: public, cached at the gateway; the SWR key of the profile. */
export const CENTRE_PROFILE_PATH = CENTRE_PROFILE_URL.slice(API_BASE.length);

/**
 * The last profile this page received. It backs the hook's `fallbackData`, so the facts stay on
 * screen when something clears SWR's whole cache (the session does on sign-out, and once on start-up
 * for a visitor: a request in flight during that clear has its answer dropped by SWR).
 */
let lastProfile: CentreProfile | undefined;

/**
 * Fetches the profile without the session token (it is public, and one answer fits every visitor),
 * or takes the request the page started before the app (see early-request.ts).
 */
export const getCentreProfile = async (): Promise<CentreProfile> => {
  const profile =
    (await takeEarlyRequest()) ?? (await apiRequest<CentreProfile>(CENTRE_PROFILE_PATH, { auth: false }));
  lastProfile = profile;
  return profile;
};

/**
 * Starts the request before React renders (call it from an app's entry): the first `useCentreProfile`
 * takes this request instead of starting its own. index.html may also `<link rel="preload">` the
 * same URL, which this request then reuses.
 */
export function preloadCentreProfile(): void {
  preload(CENTRE_PROFILE_PATH, getCentreProfile).catch(() => {
    // The hook reports the failure (and SWR retries it).
  });
}

export type CentreProfileStatus = 'loading' | 'ready' | 'unavailable';

export interface CentreProfileState {
  /** The profile once loaded; undefined while loading or when it could not be loaded. */
  profile: CentreProfile | undefined;
  /** 'loading' (show a neutral placeholder), 'ready', or 'unavailable' (leave the fact out). */
  status: CentreProfileStatus;
}

/**
 * What the centre says about itself (brand, address, phone, hours, prices), read once per page load:
 * an ADMIN's change shows on the next load. Never a literal copy: while loading the caller shows a
 * placeholder, and when the call fails it leaves the fact out.
 */
export function useCentreProfile(): CentreProfileState {
  const { data, error, isLoading } = useSWR<CentreProfile>(CENTRE_PROFILE_PATH, getCentreProfile, {
    fallbackData: lastProfile,
    revalidateIfStale: false,
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
  });
  // A profile another part of the page set (e.g. after an ADMIN's PUT) is the one to fall back on.
  useEffect(() => {
    if (data) lastProfile = data;
  }, [data]);
  const profile = data ?? lastProfile;
  // Unavailable once a call failed (also while SWR retries it: no flicker) or when nothing is loading
  // and nothing came. Reading `isLoading` also matters: SWR re-renders only on the fields read, and
  // when it drops an answer (see lastProfile) the end of loading is the change that brings it in.
  const status: CentreProfileStatus = profile
    ? 'ready'
    : error !== undefined || !isLoading
      ? 'unavailable'
      : 'loading';
  return { profile, status };
}
