import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { Role, UserView } from '@crm/contracts';
import { IDLE_SESSION_MESSAGE } from '@crm/contracts/session-keys';
import { apiRequest, SESSION_REFUSED_EVENT } from '../api/client';
import { showError } from '../dialogs/dialogs';
import { tokenStore } from './token-store';

/** `GET /auth/currentUser` answer. */
export interface CurrentUser {
  id: string;
  rol: Role;
  message?: string;
  profile?: UserView;
}

export type SessionStatus = 'loading' | 'loggedIn' | 'loggedOut';

/** What `POST /auth/signIn` and `POST /auth/signUp` answer. */
export interface SessionAnswer {
  sessiontoken: string;
  id?: string;
  rol?: Role;
}

export interface Session {
  status: SessionStatus;
  user: CurrentUser | null;
  token: string | null;
  /** Stores the token of a sign-in or sign-up answer; the user is known at once when the answer names it. */
  signIn(answer: SessionAnswer): void;
  /** Forgets the token and every cached answer (the server call is the caller's business). */
  signOut(): void;
  /** Asks the server again who the user is. */
  refresh(): Promise<unknown>;
}

export const CURRENT_USER_PATH = '/auth/currentUser';
export const currentUserKey = (token: string) => [CURRENT_USER_PATH, token] as const;

const SessionContext = createContext<Session | null>(null);

/** The token, re-rendering on sign-in/out (also from another tab). */
export function useToken(): string | null {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.get, () => null);
}

const fetchCurrentUser = ([path]: readonly [string, string]) => apiRequest<CurrentUser>(path);

/**
 * The session (docs/product/booking.md#session): loading, then logged in (a user id and a valid token) or
 * logged out (no token, "TokenExpiredError" or HTTP 401 — the API client clears the token on a 401).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const token = useToken();
  const { mutate } = useSWRConfig();
  const { data, error, isLoading } = useSWR(token ? currentUserKey(token) : null, fetchCurrentUser, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    dedupingInterval: 10_000,
  });

  const expired = data?.message === 'TokenExpiredError';
  useEffect(() => {
    if (expired) tokenStore.clear();
  }, [expired]);

  // A staff session the gateway ended for inactivity: say so (the page itself goes to sign-in).
  useEffect(() => {
    const refused = (event: Event) => {
      if ((event as CustomEvent<{ message?: string }>).detail?.message === IDLE_SESSION_MESSAGE)
        void showError(
          'Sesión cerrada',
          'Su sesión se ha cerrado tras un tiempo sin actividad. Vuelva a iniciar sesión para continuar.',
        );
    };
    window.addEventListener(SESSION_REFUSED_EVENT, refused);
    return () => window.removeEventListener(SESSION_REFUSED_EVENT, refused);
  }, []);

  // Whatever was cached belongs to the previous user.
  const clearCache = useCallback(() => mutate(() => true, undefined, { revalidate: false }), [mutate]);
  // Only when a session ends: a visitor's page (no token from the start) has no previous user, and
  // clearing then would discard the public answers its pages are loading (SWR drops a request that
  // a mutation overtook), e.g. the booked slots of the calendar, which then offered taken slots.
  const previousToken = useRef(token);
  useEffect(() => {
    const ended = previousToken.current !== null && token === null;
    previousToken.current = token;
    if (ended) void clearCache();
  }, [token, clearCache]);

  const signIn = useCallback(
    (answer: SessionAnswer) => {
      void clearCache();
      if (answer.id && answer.rol) {
        void mutate(
          currentUserKey(answer.sessiontoken),
          { id: answer.id, rol: answer.rol },
          { revalidate: false },
        );
      }
      tokenStore.set(answer.sessiontoken);
    },
    [mutate, clearCache],
  );

  const signOut = useCallback(() => {
    tokenStore.clear();
    void clearCache();
  }, [clearCache]);

  const refresh = useCallback(
    () => (token ? mutate(currentUserKey(token)) : Promise.resolve()),
    [mutate, token],
  );

  const value = useMemo<Session>(() => {
    let status: SessionStatus;
    let user: CurrentUser | null = null;
    if (!token || expired) status = 'loggedOut';
    else if (data?.id) {
      status = 'loggedIn';
      user = data;
    } else if (error) status = 'loggedOut';
    else status = isLoading || !data ? 'loading' : 'loggedOut';
    return { status, user, token, signIn, signOut, refresh };
  }, [token, expired, data, error, isLoading, signIn, signOut, refresh]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession needs a <SessionProvider> above it');
  return session;
}
