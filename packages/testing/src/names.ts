import { randomBytes } from 'node:crypto';

/**
 * A name unique to this test file's run, for databases, exchanges, queues and ids. No imports but
 * Node's, so that tests below the harness (the event bus's) can use it: `@crm/testing/src/names`.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

/** A unique, valid e-mail address, so that a test finds its own messages in the shared catcher. */
export const uniqueEmail = (label = 'user'): string => `${uniqueName(label).toLowerCase()}@example.test`;

/** A random, well-formed id in the shape of the product's ids (a MongoDB ObjectId's 24 hex digits). */
export const uniqueId = (): string => randomBytes(12).toString('hex');
