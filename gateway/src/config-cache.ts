/**
 * Redis cache in front of the config service's versioned answers, invalidated by its events:
 *
 * | call                                   | who is answered from the cache | invalidated by             |
 * | -------------------------------------- | ------------------------------ | -------------------------- |
 * | `GET /api/v1/config/view?view=<name>`  | DOCTOR, ADMIN                  | `config.view.updated.v1`   |
 * | `GET /api/v1/config/centre`            | anyone (public)                | `config.centre.updated.v1` |
 *
 * Form configurations are read on every clinical-record screen, the centre profile on every page of
 * the site; both change rarely.
 *
 * Wiring (see the README section "Config cache"):
 *   const cache = createConfigCache({ redis, tokens, logger, ... });
 *   createGateway(config, { redis, routeMiddleware: [cache.routeMiddleware] });
 *   const stop = startConfigCacheInvalidation(cache, { amqpUrl, exchange, queuePrefix, logger });
 *
 * Rules:
 * - Runs on the proxy path after the gateway's JWT and session checks. A view configuration is
 *   answered from the cache only to DOCTOR and ADMIN callers (the roles the config service allows);
 *   anyone else passes through (`X-Cache: BYPASS`) and gets the service's own answer (403). The
 *   centre profile is public: everyone is answered from the cache.
 * - Only the plain call is cached (`?view=<name>` and nothing else; the centre without a query);
 *   only 200 JSON answers are stored.
 * - It serves from the cache only while it can hear invalidations: the subscription to the events
 *   is consuming and no Redis or broker reconnect happened since the last flush of its keys.
 *   Otherwise every request goes to the service (`BYPASS`): slower, never stale.
 * - An invalidation deletes the entry and raises its "minimum version"; an answer fetched before
 *   the update and stored after the invalidation is refused by that minimum (a Lua script compares
 *   and stores atomically), so no old version outlives its replacement.
 * - Redis slow or down: commands fail fast (the gateway's client has no offline queue and a command
 *   timeout) and the request goes to the service. Entries also expire after `ttlSeconds`.
 * - Headers: `X-Cache: HIT | MISS | BYPASS`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { STAFF_ROLES, VIEW_NAME_PATTERN, type Role } from '@crm/contracts';
import type { Subscription } from '@crm/event-bus/amqp';
import { bearerToken, type Logger, type TokenService } from '@crm/server-kit';
import { API_PREFIX, type Next, type RouteMiddleware } from './proxy-table';

/** Settings to add to the gateway's environment schema (`gatewayEnvSchema.extend(configCacheEnvSchema.shape)`). */
export const configCacheEnvSchema = z.object({
  AMQP_URL: z
    .string()
    .regex(/^amqps?:\/\//, 'must be an amqp:// URL')
    .default('amqp://guest:guest@127.0.0.1:5672'),
  EVENTS_EXCHANGE: z.string().min(1).default('crm.events'),
  /** The gateway's invalidation queue is `<QUEUE_PREFIX>.gateway.view-cache`. */
  QUEUE_PREFIX: z.string().min(1).default('crm'),
  /**
   * Safety net: an entry expires after this even if an invalidation were lost. The names say "view"
   * for history (deployments set them); they apply to every cached config answer.
   */
  VIEW_CONFIG_CACHE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /** Namespace of the cache keys in Redis. Every gateway sharing a Redis must use the same one. */
  VIEW_CONFIG_CACHE_PREFIX: z.string().min(1).default('cache:gateway:view-config:'),
});
export type ConfigCacheEnv = z.infer<typeof configCacheEnvSchema>;

export interface ConfigCacheOptions {
  /** The gateway's Redis client (no offline queue, short command timeout: see redis-client.ts). */
  redis: Redis;
  /** The gateway's token check, to read the caller's role (the token is verified and remembered by then). */
  tokens: TokenService;
  logger?: Logger;
  ttlSeconds?: number;
  keyPrefix?: string;
  /** Answers larger than this are passed through without being cached. Default 256 KiB. */
  maxBodyBytes?: number;
}

export type CacheOutcome = 'HIT' | 'MISS' | 'BYPASS';

/** The `view` of a plain `?view=<name>` query; undefined for anything else (not cached). */
export function cacheableView(url: string): string | undefined {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return undefined;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  let view: string | undefined;
  let count = 0;
  for (const [key, value] of params) {
    count++;
    if (key !== 'view' || count > 1) return undefined;
    view = value;
  }
  return view !== undefined && VIEW_NAME_PATTERN.test(view) ? view : undefined;
}

/** What the cache must know about one cached call of the config service. */
interface CachedCall {
  /** Service path (after /api/v1). */
  path: string;
  /** The id of the answer a request asks for; undefined when the request is not cached. */
  idOf(url: string): string | undefined;
  /** Callers answered from the cache; `public`: anyone, with or without a token. */
  audience: 'public' | readonly Role[];
  /** Is a 200 body of the service (with its `version`) the answer for `id`? */
  answers(body: Record<string, unknown>, id: string): boolean;
  /**
   * The key of the entry and of its minimum version, after the prefix. A view keeps the keys it
   * always had (`view:<name>`, `min-version:<name>`); view names cannot contain `@`.
   */
  entryKey(id: string): string;
  markerKey(id: string): string;
}

/** The one centre profile has this id. */
export const CURRENT_CENTRE = 'current';

const CACHED_CALLS = {
  view: {
    path: '/config/view',
    idOf: cacheableView,
    audience: STAFF_ROLES,
    answers: (body, id) => body.view === id,
    entryKey: (view) => `view:${view}`,
    markerKey: (view) => `min-version:${view}`,
  },
  centre: {
    path: '/config/centre',
    idOf: (url) => (url.includes('?') ? undefined : CURRENT_CENTRE),
    audience: 'public',
    answers: () => true,
    entryKey: (id) => `centre:${id}`,
    markerKey: (id) => `min-version:centre@${id}`,
  },
} as const satisfies Record<string, CachedCall>;

/** Which cached answer: `view` (a form configuration, by view name) or `centre` (id `current`). */
export type CachedKind = keyof typeof CACHED_CALLS;
const KINDS = Object.keys(CACHED_CALLS) as CachedKind[];
const KIND_BY_PATH = new Map<string, CachedKind>(KINDS.map((kind) => [CACHED_CALLS[kind].path, kind]));

/** Stores the body unless an invalidation announced a newer version than the body's. */
const STORE_SCRIPT = `
local minimum = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) < minimum then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1`;

/**
 * Raises the minimum version (never lowers it) and deletes the entry unless the entry holds that
 * version or a newer one already (a late event must not throw away a fresh answer).
 */
const INVALIDATE_SCRIPT = `
local minimum = tonumber(redis.call('GET', KEYS[2]) or '0')
local announced = tonumber(ARGV[1])
if announced > minimum then redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2]) end
local body = redis.call('GET', KEYS[1])
if not body then return 0 end
local ok, decoded = pcall(cjson.decode, body)
local held = ok and type(decoded) == 'table' and tonumber(decoded['version']) or nil
if held == nil or held < announced then redis.call('DEL', KEYS[1]) return 1 end
return 0`;

/** Version markers outlive entries by far; they only need to outlast answers in flight. */
const MARKER_TTL_SECONDS = 7 * 24 * 3600;

const cachedBody = z.object({ version: z.number().int().min(1) }).loose();

/** `/api/v1/config/centre/?x` → `/config/centre` (what the gateway matched the route middleware on). */
function servicePathOf(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).slice(API_PREFIX.length);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export class ConfigCache {
  /** The gateway's per-route hook for every cached call (`GET /config/view`, `GET /config/centre`). */
  readonly routeMiddleware: RouteMiddleware;
  private readonly redis: Redis;
  private readonly tokens: TokenService;
  private readonly logger: Logger | undefined;
  private readonly ttlSeconds: number;
  private readonly prefix: string;
  private readonly maxBodyBytes: number;
  private invalidation: Pick<Subscription, 'isConsuming'> | undefined;
  /** Set whenever something may have been missed (start, Redis or broker reconnect): flush first. */
  private needsFlush = true;
  private flushing = false;
  private failing = false;

  constructor(options: ConfigCacheOptions) {
    this.redis = options.redis;
    this.tokens = options.tokens;
    this.logger = options.logger;
    this.ttlSeconds = options.ttlSeconds ?? 300;
    this.prefix = options.keyPrefix ?? 'cache:gateway:view-config:';
    this.maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
    // Invalidations may have failed while Redis was away: whatever it still holds is suspect.
    this.redis.on('ready', () => {
      this.needsFlush = true;
    });
    this.routeMiddleware = {
      method: 'GET',
      path: KINDS.map((kind) => CACHED_CALLS[kind].path),
      handle: (req, res, next) => this.handle(req, res, next),
    };
  }

  entryKey(kind: CachedKind, id: string): string {
    return this.prefix + CACHED_CALLS[kind].entryKey(id);
  }

  private markerKey(kind: CachedKind, id: string): string {
    return this.prefix + CACHED_CALLS[kind].markerKey(id);
  }

  /** Lets the cache know whether it hears invalidations; without one attached it never serves. */
  attachInvalidation(subscription: Pick<Subscription, 'isConsuming'>): void {
    this.invalidation = subscription;
    this.needsFlush = true;
  }

  /** True when answers may come from Redis (see the rules at the top of the file). */
  isServing(): boolean {
    if (this.redis.status !== 'ready' || !this.invalidation?.isConsuming()) {
      // Whatever happens while we cannot hear or apply invalidations must be forgotten afterwards.
      if (!this.invalidation?.isConsuming()) this.needsFlush = true;
      return false;
    }
    if (this.needsFlush) void this.flush();
    return !this.needsFlush && !this.flushing;
  }

  /** Deletes every cached answer (not the version markers). */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    this.needsFlush = false;
    try {
      for (const kind of KINDS) {
        const stream = this.redis.scanStream({ match: this.entryKey(kind, '*'), count: 200 });
        for await (const keys of stream as AsyncIterable<string[]>) {
          if (keys.length > 0) await this.redis.del(...keys);
        }
      }
    } catch (error) {
      this.needsFlush = true;
      this.warn('flush', error);
    } finally {
      this.flushing = false;
    }
  }

  /** An update event: the cached answer `id` of `kind` is stale from `version` on. */
  async invalidate(kind: CachedKind, id: string, version: number): Promise<void> {
    await this.redis.eval(
      INVALIDATE_SCRIPT,
      2,
      this.entryKey(kind, id),
      this.markerKey(kind, id),
      String(version),
      String(MARKER_TTL_SECONDS),
    );
  }

  /** Stores an answer of the config service, unless a newer version was announced meanwhile. */
  async store(kind: CachedKind, id: string, body: string): Promise<boolean> {
    let parsed: z.infer<typeof cachedBody>;
    try {
      parsed = cachedBody.parse(JSON.parse(body));
    } catch {
      return false;
    }
    if (!CACHED_CALLS[kind].answers(parsed, id)) return false;
    const stored = await this.redis.eval(
      STORE_SCRIPT,
      2,
      this.entryKey(kind, id),
      this.markerKey(kind, id),
      body,
      String(parsed.version),
      String(this.ttlSeconds),
    );
    return stored === 1;
  }

  /** May this caller be answered from the cache? The audience of the call decides. */
  private mayRead(kind: CachedKind, req: IncomingMessage): boolean {
    const audience: CachedCall['audience'] = CACHED_CALLS[kind].audience;
    if (audience === 'public') return true;
    const token = bearerToken(req.headers.authorization);
    if (!token) return false;
    try {
      return audience.includes(this.tokens.verify(token).rol);
    } catch {
      return false;
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse, next: Next): void {
    const url = req.url ?? '';
    const kind = KIND_BY_PATH.get(servicePathOf(url));
    const id = kind && CACHED_CALLS[kind].idOf(url);
    if (!kind || id === undefined || !this.mayRead(kind, req) || !this.isServing())
      return this.pass(res, next, 'BYPASS');
    this.redis.get(this.entryKey(kind, id)).then(
      (body) => {
        this.recovered();
        if (body === null) return this.fetchAndStore(kind, id, res, next);
        if (req.destroyed) return;
        res.statusCode = 200;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Content-Length', Buffer.byteLength(body));
        res.setHeader('X-Cache', 'HIT');
        res.end(body);
      },
      (error: unknown) => {
        this.warn('read', error);
        this.pass(res, next, 'BYPASS');
      },
    );
  }

  private pass(res: ServerResponse, next: Next, outcome: CacheOutcome): void {
    res.setHeader('X-Cache', outcome);
    next();
  }

  /** Lets the request through to the service and keeps a copy of a 200 JSON answer. */
  private fetchAndStore(kind: CachedKind, id: string, res: ServerResponse, next: Next): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > this.maxBodyBytes)
        return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : undefined;
      if (!buffer) return;
      size += buffer.length;
      chunks.push(buffer);
    };
    type Writer = (...args: unknown[]) => boolean;
    type Ender = (...args: unknown[]) => ServerResponse;
    const write = res.write as unknown as Writer;
    const end = res.end as unknown as Ender;
    (res as unknown as { write: Writer }).write = function (this: ServerResponse, ...args: unknown[]) {
      collect(args[0], args[1]);
      return write.apply(this, args);
    };
    (res as unknown as { end: Ender }).end = function (this: ServerResponse, ...args: unknown[]) {
      collect(args[0], args[1]);
      return end.apply(this, args);
    };
    res.once('finish', () => {
      const type = String(res.getHeader('content-type') ?? '');
      if (
        res.statusCode !== 200 ||
        size > this.maxBodyBytes ||
        res.getHeader('content-encoding') ||
        !type.includes('application/json')
      )
        return;
      this.store(kind, id, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) =>
        this.warn('store', error),
      );
    });
    this.pass(res, next, 'MISS');
  }

  private warn(operation: string, error: unknown): void {
    if (!this.failing)
      this.logger?.warn(
        { operation, err: (error as Error).message },
        'config cache unavailable; answering from the service',
      );
    this.failing = true;
  }

  private recovered(): void {
    if (this.failing) this.logger?.info('config cache available again');
    this.failing = false;
  }
}

export const createConfigCache = (options: ConfigCacheOptions): ConfigCache => new ConfigCache(options);
