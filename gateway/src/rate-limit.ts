import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import {
  ipKeyGenerator,
  MemoryStore,
  rateLimit,
  type ClientRateLimitInfo,
  type IncrementResponse,
  type Options,
  type Store,
} from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { tooManyAttemptsMessage } from '@crm/contracts';
import type { Logger } from '@crm/server-kit';
import type { GatewayConfig } from './config';
import { clientIp } from './client-address';
import { sendJson } from './json-response';
import type { Middleware, Next } from './proxy-table';
import { LocalFirstRedisStore, type OutageListener } from './local-first-store';
import { isRedisReady } from './redis-client';

/** Logs "fell back to memory" once per outage and "back on redis" once when it returns. */
class OutageNotice implements OutageListener {
  private down = false;
  constructor(private readonly logger: Logger) {}
  fellBack(reason: string): void {
    if (!this.down) this.logger.warn({ reason }, 'rate limits counted in memory while redis is unavailable');
    this.down = true;
  }
  recovered(): void {
    if (this.down) this.logger.info('rate limits counted in redis again');
    this.down = false;
  }
}

/**
 * A rate-limit store that counts in Redis (shared by every gateway replica) and, whenever Redis is
 * not connected or a command fails, counts in process memory instead: limits keep applying during
 * an outage (never fail open), and the next request after Redis returns counts in Redis again.
 * Counts do not migrate between the two; a client gains at most one window's worth on a switch.
 */
export class RedisWithMemoryFallbackStore implements Store {
  readonly localKeys = false;
  private readonly redisStore: RedisStore;
  private readonly memoryStore = new MemoryStore();

  constructor(
    private readonly redis: Redis,
    readonly prefix: string,
    private readonly notice: OutageNotice,
  ) {
    this.redisStore = new RedisStore({
      prefix,
      sendCommand: (command: string, ...args: string[]) =>
        redis.call(command, ...args) as Promise<RedisReply>,
    });
    // RedisStore loads its Lua scripts at construction and reloads them on demand; when Redis is not
    // up yet those first loads reject, and nobody awaits them until the first request.
    this.redisStore.incrementScriptSha.catch(() => undefined);
    this.redisStore.getScriptSha.catch(() => undefined);
  }

  init(options: Options): void {
    this.redisStore.init(options);
    this.memoryStore.init(options);
  }

  private async either<T>(onRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (!isRedisReady(this.redis)) {
      this.notice.fellBack('not connected');
      return inMemory();
    }
    try {
      const result = await onRedis();
      this.notice.recovered();
      return result;
    } catch (error) {
      this.notice.fellBack((error as Error).message);
      return inMemory();
    }
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.either(
      () => this.redisStore.increment(key),
      () => this.memoryStore.increment(key),
    );
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either(
      () => this.redisStore.get(key),
      () => this.memoryStore.get(key),
    );
  }

  decrement(key: string): Promise<void> {
    return this.either(
      () => this.redisStore.decrement(key),
      () => this.memoryStore.decrement(key),
    );
  }

  async resetKey(key: string): Promise<void> {
    await Promise.allSettled([this.redisStore.resetKey(key), this.memoryStore.resetKey(key)]);
  }

  shutdown(): void {
    this.memoryStore.shutdown();
  }
}

/** Seconds until the client may try again: the Retry-After header, else the whole window. */
export function retryAfterSeconds(header: number | string | string[] | undefined, windowMs: number): number {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : Math.ceil(windowMs / 1000);
}

/**
 * Routes with their own, stricter budget per client (credential stuffing, mail bombing). Matched
 * case-insensitively and with an optional trailing slash, like the services' routers match them,
 * so that "/auth/SIGNIN" cannot be used to get around the budget.
 */
const AUTH_LIMITED_ROUTES: ReadonlyMap<string, string> = new Map([
  ['post /auth/signin', 'signIn'],
  // The second step counts like the first: only failures, per client address.
  ['post /auth/signin/mfa', 'signIn'],
  ['post /auth/signup', 'signUp'],
  ['post /auth/forgotpassword', 'forgotPassword'],
  ['post /auth/resendconfirmation', 'resendConfirmation'],
]);

/** The name of the stricter limit that applies to this service path, if any. */
export function authLimitedRoute(method: string, servicePath: string): string | undefined {
  if (method !== 'POST' || servicePath.length > 26) return undefined; // cheap exit for everything else
  const path = servicePath.length > 1 && servicePath.endsWith('/') ? servicePath.slice(0, -1) : servicePath;
  return AUTH_LIMITED_ROUTES.get(`post ${path.toLowerCase()}`);
}

const ROUTE_NAME = Symbol('gateway.authLimitedRoute');
type WithRouteName = IncomingMessage & { [ROUTE_NAME]?: string };

export interface RateLimiters {
  /** Every /api request, per client address. */
  global: Middleware;
  /** The sign-in family, per client address and route (sign-in: failures only). */
  auth: (routeName: string) => Middleware;
  close: () => void;
}

export function createRateLimiters(
  config: GatewayConfig,
  redis: Redis,
  logger: Logger,
  /** Told the name of each limit that refused a request (metrics). */
  onRefused: (limit: string) => void = () => undefined,
): RateLimiters {
  const notice = new OutageNotice(logger);
  const stores: Array<{ shutdown(): void }> = [];
  const clientKey = (req: IncomingMessage) => ipKeyGenerator(clientIp(req, config.TRUST_PROXY_HOPS));

  const limiter = (
    name: string,
    store: Store & { shutdown(): void },
    windowMs: number,
    limit: number,
    keyOf: (req: IncomingMessage) => string,
    countOnlyFailures = false,
  ) => {
    stores.push(store);
    const middleware = rateLimit({
      windowMs,
      limit,
      store,
      // An answer below 400 (a successful sign-in) gives its count back once it is sent.
      skipSuccessfulRequests: countOnlyFailures,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      keyGenerator: (req) => keyOf(req as unknown as IncomingMessage),
      // Our own answer: JSON like every other error, in Spanish with the minutes to wait, taken from
      // the Retry-After header the library sets before calling this.
      handler: (_req, res) => {
        logger.debug('rate limit reached');
        onRefused(name);
        const response = res as unknown as ServerResponse;
        sendJson(response, 429, {
          message: tooManyAttemptsMessage(retryAfterSeconds(response.getHeader('Retry-After'), windowMs)),
        });
      },
      logger: {
        warn: (err: unknown, message?: string) => logger.warn({ err }, message ?? 'rate limiter warning'),
        error: (err: unknown, message?: string) => logger.error({ err }, message ?? 'rate limiter error'),
      },
      validate: { trustProxy: false, xForwardedForHeader: false, forwardedHeader: false, ip: false },
    });
    // express-rate-limit only reads headers, method and the key we give it; a plain node request is fine.
    return middleware as unknown as (req: IncomingMessage, res: ServerResponse, next: Next) => void;
  };

  const prefix = config.RATE_LIMIT_REDIS_PREFIX;
  const shared = (name: string) => new RedisWithMemoryFallbackStore(redis, `${prefix}${name}:`, notice);
  // Every request passes the global limit: it decides in memory and shares through Redis behind
  // the request. The stricter sign-in family is rare and counts every hit in Redis at once.
  const global = limiter(
    'global',
    new LocalFirstRedisStore(redis, `${prefix}global:`, config.RATE_LIMIT_SYNC_MS, notice),
    config.RATE_LIMIT_WINDOW_MS,
    config.RATE_LIMIT_MAX,
    clientKey,
  );
  const auth = limiter(
    'auth',
    shared('auth'),
    config.RATE_LIMIT_AUTH_WINDOW_MS,
    config.RATE_LIMIT_AUTH_MAX,
    (req) => `${(req as WithRouteName)[ROUTE_NAME]}:${clientKey(req)}`,
  );
  const signInFailures = limiter(
    'signin-failures',
    shared('signin-failures'),
    config.RATE_LIMIT_AUTH_WINDOW_MS,
    config.RATE_LIMIT_SIGNIN_FAILURES_MAX,
    clientKey,
    true,
  );

  return {
    global,
    auth: (routeName) => (req, res, next) => {
      if (routeName === 'signIn') return signInFailures(req, res, next);
      (req as WithRouteName)[ROUTE_NAME] = routeName;
      auth(req, res, next);
    },
    close: () => stores.forEach((store) => store.shutdown()),
  };
}
