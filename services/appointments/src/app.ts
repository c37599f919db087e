import { createServiceBus, MongoProcessedEventStore, type Subscription } from '@crm/event-bus';
import {
  connectMongo,
  createHttpApp,
  durationToSeconds,
  requireAuth,
  syncIndexes,
  TokenService,
  type Logger,
} from '@crm/server-kit';
import { bookingRoutes } from './api/booking.routes';
import { datesReadRoutes } from './api/dates-read.routes';
import type { AppointmentsConfig } from './config';
import { appointmentModels } from './data/appointment.model';
import { MongoAppointmentRepository } from './data/appointment.repository';
import { AuthServiceClient } from './data/auth-client';
import { MongoPatientReadModel } from './data/patient.repository';
import { BookingService } from './domain/booking.service';
import { PatientDirectory } from './domain/patient';
import { patientSnapshotHandlers } from './events/patient-snapshot.consumer';

/** Wires the appointments service: database, outbox relay, patients read model, routes. */
export function createAppointmentsService(config: AppointmentsConfig, logger: Logger) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const models = appointmentModels(mongo.connection);

  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name: 'appointments',
  });
  const { connection: amqp, consumer } = bus;
  const relay = bus.outboxRelay([models.Appointment]);

  const appointments = new MongoAppointmentRepository(models, () => relay.kick());
  const patients = new MongoPatientReadModel(models);
  const bookings = new BookingService(
    appointments,
    new PatientDirectory(patients, new AuthServiceClient(config.AUTH_SERVICE_URL, config.AUTH_TIMEOUT_MS)),
  );
  const requireUser = requireAuth(new TokenService(config.JWT_SECRET, durationToSeconds(config.JWT_TTL)));

  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness],
    routes: (router) => {
      router.use(datesReadRoutes(bookings, requireUser));
      router.use(bookingRoutes(bookings, requireUser));
    },
  });

  let patientsFeed: Subscription | undefined;
  let housekeepingTimer: NodeJS.Timeout | undefined;
  const housekeeping = () =>
    bookings.housekeeping().then(
      (result) => {
        if (result.released + result.repaired > 0) logger.info(result, 'appointments housekeeping');
      },
      (error: Error) =>
        logger.warn({ err: error.message }, 'appointments housekeeping failed; retried later'),
    );

  return {
    app,
    models,
    relay,
    async start() {
      amqp.start();
      await mongo.ready;
      await syncIndexes(mongo.connection);
      patientsFeed = consumer.subscribe({
        queue: `${config.QUEUE_PREFIX}.appointments.patients`,
        events: patientSnapshotHandlers(patients, appointments),
        idempotency: new MongoProcessedEventStore(mongo.connection),
      });
      relay.start();
      await housekeeping();
      housekeepingTimer = setInterval(() => void housekeeping(), config.HOUSEKEEPING_INTERVAL_MS);
      housekeepingTimer.unref();
    },
    /** Resolves once the patients feed is bound to the exchange (tests wait for it). */
    async consuming(timeoutMs?: number) {
      await patientsFeed?.ready(timeoutMs);
    },
    async stop() {
      clearInterval(housekeepingTimer);
      await relay.stop();
      await consumer.close();
      await amqp.close();
      await mongo.close();
    },
  };
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
