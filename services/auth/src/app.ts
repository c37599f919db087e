import { Redis } from 'ioredis';
import { createServiceBus } from '@crm/event-bus';
import {
  connectMongo,
  createHttpApp,
  durationToSeconds,
  requireAuth,
  syncIndexes,
  TokenService,
  type Logger,
} from '@crm/server-kit';
import type { Role } from '@crm/contracts';
import { authRoutes } from './api/auth.routes';
import { usersRoutes } from './api/users.routes';
import type { AuthConfig } from './config';
import { RedisAttemptLimiter } from './data/redis-attempt-limiter';
import { SessionRevocationStore } from './data/session-revocations';
import { userModels } from './data/user.model';
import { MongoUserRepository } from './data/user.repository';
import { AccountService } from './domain/account.service';

/** Wires the auth service: database, event outbox, Redis, routes. `start()` begins background work. */
export function createAuthService(config: AuthConfig, logger: Logger) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const models = userModels(mongo.connection);
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
  });
  redis.on('error', () => undefined); // outages are handled where Redis is used

  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name: 'auth',
  });
  const { connection: amqp } = bus;
  const relay = bus.outboxRelay([models.User]);

  const ttlSeconds = durationToSeconds(config.JWT_TTL);
  const tokens = new TokenService(config.JWT_SECRET, ttlSeconds);
  const accounts = new AccountService(
    new MongoUserRepository(models, () => relay.kick()),
    new SessionRevocationStore(models, redis, ttlSeconds, logger),
    tokens,
    new RedisAttemptLimiter(redis),
    {
      signInMaxAttempts: config.SIGNIN_MAX_ATTEMPTS,
      signInMaxAttemptsPerClient: config.SIGNIN_MAX_ATTEMPTS_PER_CLIENT,
      forgotPasswordMaxAttempts: config.FORGOT_PASSWORD_MAX_ATTEMPTS,
      attemptWindowSeconds: config.ATTEMPT_WINDOW_SECONDS,
      confirmationTtlMs: config.CONFIRMATION_TTL_HOURS * 3600_000,
      resetTtlMs: config.RESET_TTL_MINUTES * 60_000,
    },
  );
  const requireUser = requireAuth(tokens, (user) => accounts.isSessionValid(user));

  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness],
    routes: (router) => {
      router.use(authRoutes(accounts, requireUser));
      router.use(usersRoutes(accounts, requireUser));
    },
  });

  const bootstrapAccounts = (
    [
      ['ADMIN', 'Administrador', config.BOOTSTRAP_ADMIN_EMAIL, config.BOOTSTRAP_ADMIN_PASSWORD],
      ['DOCTOR', 'Doctor', config.BOOTSTRAP_DOCTOR_EMAIL, config.BOOTSTRAP_DOCTOR_PASSWORD],
      ['SERVICE_ACCOUNT', 'Kiosko', config.BOOTSTRAP_KIOSK_EMAIL, config.BOOTSTRAP_KIOSK_PASSWORD],
    ] as const
  ).filter(([, , email, password]) => email && password);

  return {
    app,
    accounts,
    models,
    relay,
    async start() {
      amqp.start();
      redis.connect().catch(() => undefined);
      await mongo.ready;
      await syncIndexes(mongo.connection);
      for (const [rol, name, email, password] of bootstrapAccounts) {
        if (await accounts.ensureAccount({ rol: rol as Role, name, email: email!, password: password! })) {
          logger.info({ rol }, 'bootstrap account created');
        }
      }
      relay.start();
    },
    async stop() {
      await relay.stop();
      await amqp.close();
      redis.disconnect();
      await mongo.close();
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
