import { createServiceBus } from '@crm/event-bus';
import {
  connectMongo,
  createHttpApp,
  requireAuth,
  syncIndexes,
  TokenService,
  durationToSeconds,
  type Logger,
} from '@crm/server-kit';
import { roomCalendarRoutes } from './api/room-calendar.routes';
import { roomsRoutes } from './api/rooms.routes';
import type { RoomsConfig } from './config';
import { OrphanLockSweeper } from './data/orphan-lock.sweeper';
import { reservationModels } from './data/reservation.model';
import { MongoReservationRepository } from './data/reservation.repository';
import { roomModel } from './data/room.model';
import { MongoRoomRepository } from './data/room.repository';
import { SlotLocks } from './data/slot-locks';
import { CONSULTING_ROOMS } from './domain/room-catalogue';
import { ReservationService } from './domain/reservation.service';

/** Wires the rooms service: database, event outbox, slot-lock sweep, routes. `start()` begins background work. */
export function createRoomsService(config: RoomsConfig, logger: Logger) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const models = { Room: roomModel(mongo.connection), ...reservationModels(mongo.connection) };

  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name: 'rooms',
  });
  const { connection: amqp } = bus;
  const relay = bus.outboxRelay([models.Reservation, models.ReleasedReservation]);

  const rooms = new MongoRoomRepository(models.Room);
  const locks = new SlotLocks(models, logger);
  const reservations = new ReservationService(
    rooms,
    new MongoReservationRepository(models, locks, () => relay.kick()),
  );
  const sweeper = new OrphanLockSweeper(models, logger, {
    graceMs: config.ROOM_LOCK_GRACE_SECONDS * 1000,
    intervalMs: config.ROOM_LOCK_SWEEP_SECONDS * 1000,
  });
  // Signed-out sessions are refused by the gateway (Redis); here the token itself is verified.
  const requireUser = requireAuth(new TokenService(config.JWT_SECRET, durationToSeconds(config.JWT_TTL)));

  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness],
    routes: (router) => {
      router.use(roomsRoutes(reservations));
      router.use(roomCalendarRoutes(reservations, requireUser));
    },
  });

  return {
    app,
    models,
    relay,
    sweeper,
    async start() {
      amqp.start();
      await mongo.ready;
      await syncIndexes(mongo.connection);
      const added = await rooms.addMissing(CONSULTING_ROOMS);
      if (added > 0) logger.info({ added }, 'consulting rooms created');
      relay.start();
      sweeper.start();
    },
    async stop() {
      await sweeper.stop();
      await relay.stop();
      await amqp.close();
      await mongo.close();
    },
  };
}

export type RoomsService = ReturnType<typeof createRoomsService>;
