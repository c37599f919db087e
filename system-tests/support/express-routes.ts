/**
 * Lists the routes an Express 5 app really serves, by walking its router stack (nested routers
 * included), so the system tests can compare them with the declared route/policy table.
 */
interface RouteLike {
  path: string | string[];
  methods: Record<string, boolean>;
}
interface LayerLike {
  route?: RouteLike;
  rawPath?: string | RegExp | Array<string | RegExp>;
  handle?: { stack?: LayerLike[] };
}

export interface ServedRoute {
  method: string;
  path: string;
}

function walk(stack: LayerLike[], prefix: string, out: ServedRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') out.push({ method: 'ALL', path: prefix + path });
          else out.push({ method: method.toUpperCase(), path: prefix + path });
        }
      }
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      if (layer.rawPath !== undefined && typeof layer.rawPath !== 'string') {
        throw new Error('a router mounted on a non-string path cannot be listed');
      }
      walk(layer.handle.stack, prefix + mount, out);
    }
  }
}

/** `app` is an Express application (its lazily created `router` holds the stack). */
export function servedRoutes(app: unknown): ServedRoute[] {
  const router = (app as { router?: { stack: LayerLike[] } }).router;
  if (!router) throw new Error('not an Express 5 application');
  const out: ServedRoute[] = [];
  walk(router.stack, '', out);
  return out;
}
