/**
 * Reading a unique-index violation. MongoDB says which index was hit (`keyPattern`, and the index name
 * in the message); FerretDB 1.24 says only "duplicate key error collection: …" on inserts, and answers
 * updates with code 1 and PostgreSQL's "duplicate key value violates unique constraint" message.
 */
export function isDuplicateKey(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 11000 || code === 11001 || (typeof message === 'string' && /duplicate key/i.test(message));
}

/**
 * Whether an unordered insert failed only on rows already there (each write error a duplicate key;
 * FerretDB wraps the error of a write in `err`).
 */
export function onlyDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
  return Array.isArray(writeErrors) && writeErrors.length > 0
    ? writeErrors.every(
        (writeError) => isDuplicateKey(writeError) || isDuplicateKey((writeError as { err?: unknown }).err),
      )
    : isDuplicateKey(error);
}

/** Which of `fields` the violated unique index covers, when the server says; undefined otherwise. */
export function violatedField<F extends string>(error: unknown, fields: readonly F[]): F | undefined {
  const { keyPattern, keyValue, message } = (error ?? {}) as {
    keyPattern?: object;
    keyValue?: object;
    message?: unknown;
  };
  const keys = Object.keys(keyPattern ?? keyValue ?? {});
  const fromKeys = fields.find((field) => keys.includes(field));
  if (fromKeys) return fromKeys;
  if (typeof message !== 'string') return undefined;
  const text = message.toLowerCase();
  return fields.find((field) => text.includes(field.toLowerCase()));
}
