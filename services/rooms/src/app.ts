import { tableRouter, type Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { roomCalendarHandlers } from './api/room-calendar.routes';
import { roomsHandlers } from './api/rooms.routes';
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
  const runtime = createServiceRuntime('rooms', config, logger);
  const models = { Room: roomModel(runtime.connection), ...reservationModels(runtime.connection) };
  const relay = runtime.outbox([models.Reservation, models.ReleasedReservation]);

  const rooms = new MongoRoomRepository(models.Room);
  const locks = new SlotLocks(models, logger);
  const reservations = new ReservationService(
    rooms,
    new MongoReservationRepository(models, locks, runtime.kickOutbox),
  );
  const sweeper = new OrphanLockSweeper(models, logger, {
    graceMs: config.ROOM_LOCK_GRACE_SECONDS * 1000,
    intervalMs: config.ROOM_LOCK_SWEEP_SECONDS * 1000,
  });
  const requireUser = runtime.requireUser();

  const service = {
    app: runtime.httpApp((router) => {
      router.use(
        tableRouter(
          'rooms',
          { ...roomsHandlers(reservations), ...roomCalendarHandlers(reservations) },
          requireUser,
        ),
      );
    }),
    models,
    relay,
    sweeper,
    ...runtime.startAndStop({
      seed: async () => {
        const added = await rooms.addMissing(CONSULTING_ROOMS);
        if (added > 0) logger.info({ added }, 'consulting rooms created');
      },
      afterStart: () => sweeper.start(),
      beforeStop: () => sweeper.stop(),
    }),
  };
  return service satisfies ServiceHandle;
}

export type RoomsService = ReturnType<typeof createRoomsService>;
