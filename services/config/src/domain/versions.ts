import { conflict } from '@crm/server-kit';

/** Concurrent writers of one versioned document each get their own version; after this many collisions, 409. */
export const MAX_VERSION_ATTEMPTS = 5;

/**
 * Appends the next version of an append-only, versioned document (a view's form, the centre profile):
 * reads the current version number, tries to insert the next one, and tries again with a fresh number
 * when a concurrent writer took it (the insert resolves undefined: its unique id already exists).
 */
export async function appendNextVersion<T>(
  currentVersion: () => Promise<number | undefined>,
  insert: (version: number) => Promise<T | undefined>,
): Promise<T> {
  for (let attempt = 0; attempt < MAX_VERSION_ATTEMPTS; attempt++) {
    const stored = await insert(((await currentVersion()) ?? 0) + 1);
    if (stored !== undefined) return stored;
  }
  throw conflict('La configuración se está modificando a la vez desde otro sitio; inténtelo de nuevo');
}
