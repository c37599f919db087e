/** Session token in browser local storage under "token", observable for React. */
export const TOKEN_KEY = 'token';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

let current: string | null = typeof window === 'undefined' ? null : read();

function emit(): void {
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  // Another tab signed in or out.
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== TOKEN_KEY) return;
    const next = read();
    if (next !== current) {
      current = next;
      emit();
    }
  });
}

export const tokenStore = {
  get: (): string | null => current,
  set(token: string): void {
    current = token;
    try {
      window.localStorage.setItem(TOKEN_KEY, token);
    } catch {
      /* private mode: the session lasts as long as the page */
    }
    emit();
  },
  clear(): void {
    if (current === null && read() === null) return;
    current = null;
    try {
      window.localStorage.removeItem(TOKEN_KEY);
    } catch {
      /* ignore */
    }
    emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
