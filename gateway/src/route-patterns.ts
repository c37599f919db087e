/** `/dates/id/:id` → a RegExp: `:name` is one non-empty segment, the rest literal. */
function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // An optional trailing slash, because the services' routers treat "/rooms/" like "/rooms".
  return new RegExp(`^${body}/?$`);
}

/**
 * Service-path patterns (after /api/v1) compiled once and looked up by method; the first match in
 * the given order answers its value. HEAD is treated like GET, as Express does. Case-sensitive.
 */
export function routeMatcher<T>(
  routes: readonly { method: string; pattern: string; value: T }[],
): (method: string, servicePath: string) => T | undefined {
  const byMethod = new Map<string, Array<[RegExp, T]>>();
  for (const route of routes) {
    const list = byMethod.get(route.method) ?? [];
    list.push([patternToRegExp(route.pattern), route.value]);
    byMethod.set(route.method, list);
  }
  return (method, servicePath) => {
    for (const [pattern, value] of byMethod.get(method === 'HEAD' ? 'GET' : method) ?? [])
      if (pattern.test(servicePath)) return value;
    return undefined;
  };
}
