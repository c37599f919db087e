/**
 * The shape of a stored document, its values ignored: the sorted paths of its fields, nested
 * fields as `a.b`, the fields of an array's object elements as `a[].b` (the union over its
 * elements; elements that are not objects add nothing, so `[]` and `[date]` are alike). Dates,
 * ObjectIds and other class instances (BSON values) are leaves. For tests that two writers of one
 * collection, e.g. a service and its bulk seed module, store the same documents; a raw document as
 * `collection.findOne` or a lean query returns it. No imports, so that any test can take it as
 * `@crm/testing/src/document-shape`.
 *
 * `omit`: paths left out with everything under them, for differences a test names on purpose
 * (say why where it does).
 */
export function documentShape(document: object, omit: readonly string[] = []): string[] {
  const paths = new Set<string>();
  const visit = (value: unknown, path: string): void => {
    if (omit.includes(path)) return;
    paths.add(path);
    if (Array.isArray(value)) {
      for (const element of value) if (isPlainObject(element)) fieldsOf(element, `${path}[]`);
    } else if (isPlainObject(value)) fieldsOf(value, path);
  };
  const fieldsOf = (object: Record<string, unknown>, path: string): void => {
    for (const [key, child] of Object.entries(object)) {
      // The driver does not store `undefined` (BSON has none), so it is no field here either.
      if (child !== undefined) visit(child, path ? `${path}.${key}` : key);
    }
  };
  fieldsOf(document as Record<string, unknown>, '');
  return [...paths].sort();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
