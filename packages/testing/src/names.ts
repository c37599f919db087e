import { randomBytes } from 'node:crypto';

/**
 * A name unique to this test file's run, for databases, exchanges, queues and ids. No imports but
 * Node's, so that tests below the harness (the event bus's) can use it: `@crm/testing/src/names`.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}
