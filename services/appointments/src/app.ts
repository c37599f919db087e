import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { configCentreUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import { CentreRefundWindow, tableRouter, type Logger } from '@crm/server-kit';
import { bookingHandlers } from './api/booking.routes';
import { datesReadHandlers } from './api/dates-read.routes';
import { lifecycleHandlers } from './api/lifecycle.routes';
import { waitlistHandlers } from './api/waitlist.routes';
import type { AppointmentsConfig } from './config';
import { appointmentModels } from './data/appointment.model';
import { MongoAppointmentRepository } from './data/appointment.repository';
import { AuthServiceClient } from './data/auth-client';
import { MongoCodeTries } from './data/code-tries.repository';
import { MongoPatientReadModel } from './data/patient.repository';
import { MongoOfferHolds } from './data/offer-hold.repository';
import { countBookings, countOfferClaims } from './data/booking-metrics';
import { CentrePaymentModeClient } from './data/centre-payments.client';
import { MongoPaymentHolds } from './data/payment-hold.repository';
import { PaymentHoldRelease } from './domain/payment-hold';
import { paymentHoldHandlers } from './events/payment-hold.consumer';
import { PatientErasure } from './data/patient-erasure';
import { MongoSlotHolds } from './data/slot-hold.repository';
import { waitlistModels } from './data/waitlist.model';
import { MongoWaitlistRepository } from './data/waitlist.repository';
import { MongoTransitionRepository } from './data/transition.repository';
import { CentreClosuresClient } from './data/centre-closures.client';
import { closureNoticeModel, MongoClosureNotices } from './data/closure-notice.model';
import { DayClosedNotifier } from './domain/closure-notices';
import { BookingService } from './domain/booking.service';
import { KioskProof } from './domain/kiosk-proof';
import { LifecycleService } from './domain/lifecycle.service';
import { RescheduleService } from './domain/reschedule.service';
import { UnconfirmedRelease } from './domain/unconfirmed-release';
import { WaitlistService } from './domain/waitlist.service';
import { PatientDirectory } from './domain/patient';
import { patientErasureHandlers } from './events/patient-erasure.consumer';
import { patientSnapshotHandlers } from './events/patient-snapshot.consumer';
import { recordAttendedHandlers } from './events/record-attended.consumer';
import { waitlistHandlers as waitlistEventHandlers } from './events/waitlist.consumer';

/**
 * Wires the appointments service: database, outbox relay, patients read model, the records feed,
 * routes (staff and kiosk accesses recorded in the runtime's access trail), the no-show sweep and
 * housekeeping.
 */
export function createAppointmentsService(config: AppointmentsConfig, logger: Logger) {
  const runtime = createServiceRuntime('appointments', config, logger);
  const models = appointmentModels(runtime.connection);
  const waitlistStore = waitlistModels(runtime.connection);
  const ClosureNotice = closureNoticeModel(runtime.connection);
  const relay = runtime.outbox([models.Appointment, waitlistStore.WaitlistOffer, ClosureNotice]);

  // Metrics: every booking counted (crm_bookings_total{channel}).
  const appointments = countBookings(
    new MongoAppointmentRepository(models, runtime.kickOutbox),
    runtime.metrics,
  );
  const transitions = new MongoTransitionRepository(models, runtime.kickOutbox);
  const patients = new MongoPatientReadModel(models);
  const authService = new AuthServiceClient(config.AUTH_SERVICE_URL, config.AUTH_TIMEOUT_MS);
  const directory = new PatientDirectory(patients, authService);
  const kioskTries = {
    maxTries: config.ONBOARDING_CODE_MAX_TRIES,
    windowMs: config.ONBOARDING_CODE_TTL_MINUTES * 60_000,
  };
  const proof = new KioskProof(
    appointments,
    authService,
    new MongoCodeTries(runtime.connection, kioskTries),
    patients,
    kioskTries,
  );
  const refundWindow = new CentreRefundWindow(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.AUTH_TIMEOUT_MS,
    cacheMs: config.CENTRE_CACHE_MS,
    logger,
  });
  const calendar = new CentreClosuresClient(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.AUTH_TIMEOUT_MS,
    cacheMs: config.CENTRE_CACHE_MS,
    logger,
  });
  const paymentMode = new CentrePaymentModeClient(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.AUTH_TIMEOUT_MS,
    cacheMs: config.CENTRE_CACHE_MS,
    logger,
  });
  const clock = () => new Date();
  const lifecycle = new LifecycleService(appointments, transitions, undefined, refundWindow);
  const paymentHolds = new MongoPaymentHolds(runtime.connection, models);
  const paymentHoldAt = (at: () => Date = clock) =>
    new PaymentHoldRelease(
      paymentHolds,
      appointments,
      new LifecycleService(appointments, transitions, at, refundWindow),
      { mode: () => paymentMode.mode(), holdMs: config.PAYMENT_HOLD_MINUTES * 60_000 },
      at,
    );
  const paymentHold = paymentHoldAt();
  const bookings = new BookingService(
    appointments,
    transitions,
    lifecycle,
    directory,
    clock,
    calendar,
    config.WALK_IN_HOURS,
    paymentHold,
  );
  const moves = new RescheduleService(
    appointments,
    new MongoSlotHolds(models, runtime.kickOutbox),
    lifecycle,
    clock,
    calendar,
  );
  const dayClosed = new DayClosedNotifier(
    appointments,
    calendar,
    new MongoClosureNotices(ClosureNotice, runtime.kickOutbox),
  );
  const waitlistAt = (at: () => Date = clock) =>
    new WaitlistService(
      new MongoWaitlistRepository(waitlistStore, runtime.kickOutbox),
      countOfferClaims(new MongoOfferHolds(models, runtime.kickOutbox), runtime.metrics),
      appointments,
      directory,
      moves,
      { offerMs: config.WAITLIST_OFFER_MINUTES * 60_000 },
      at,
      calendar,
    );
  const waitlist = waitlistAt();
  const requireUser = runtime.requireUser();

  runtime.consume({ purpose: 'patients', events: patientSnapshotHandlers(patients, appointments) });
  runtime.consume({ purpose: 'records', events: recordAttendedHandlers(lifecycle, logger) });
  runtime.consume({ purpose: 'waitlist', events: waitlistEventHandlers(waitlist) });
  runtime.consume({
    purpose: 'erasure',
    events: patientErasureHandlers(appointments, lifecycle, waitlist, new PatientErasure(models), logger),
  });
  runtime.every({
    name: 'waiting list offers',
    intervalMs: config.WAITLIST_SWEEP_INTERVAL_MS,
    run: async () => {
      const result = await waitlist.sweep();
      if (result.expired > 0) logger.info(result, 'waiting list offers expired');
    },
  });
  runtime.consume({
    purpose: 'centre',
    events: [
      on(configCentreUpdated, async () => {
        refundWindow.invalidate();
        calendar.invalidate();
        paymentMode.invalidate();
        // Patients whose appointment now falls on a closed day are told (once each).
        const told = await dayClosed.closuresChanged();
        if (told > 0) logger.info({ told }, 'patients told their appointment day closed');
      }),
    ],
  });
  runtime.every({
    name: 'appointments no-show sweep',
    intervalMs: config.NO_SHOW_SWEEP_INTERVAL_MS,
    run: async () => {
      const result = await lifecycle.sweep();
      if (result.noShow + result.attended > 0) logger.info(result, 'appointments no-show sweep');
    },
  });
  const release = new UnconfirmedRelease(transitions, patients, lifecycle, {
    holdMs: config.UNCONFIRMED_HOLD_HOURS * 3_600_000,
    beforeStartMs: config.UNCONFIRMED_RELEASE_BEFORE_MINUTES * 60_000,
  });
  runtime.every({
    name: 'unconfirmed accounts release',
    intervalMs: config.UNCONFIRMED_RELEASE_INTERVAL_MS,
    run: async () => {
      const released = await release.sweep();
      if (released > 0) logger.info({ released }, 'slots of unconfirmed accounts released');
    },
  });
  runtime.consume({ purpose: 'payments', events: paymentHoldHandlers(paymentHold) });
  runtime.every({
    name: 'unpaid holds release',
    intervalMs: config.PAYMENT_HOLD_SWEEP_INTERVAL_MS,
    run: async () => {
      const released = await paymentHold.sweep();
      if (released > 0) logger.info({ released }, 'unpaid slot holds released');
    },
  });
  runtime.every({
    name: 'appointment backfills',
    intervalMs: config.DAY_BACKFILL_INTERVAL_MS,
    run: async () => {
      const filled = await appointments.fillMissingDays();
      if (filled > 0) logger.info({ filled }, 'appointments given their day');
      const keyed = await appointments.searchKeys.fill();
      if (keyed > 0) logger.info({ keyed }, 'appointments given their search keys');
    },
  });
  runtime.every({
    name: 'appointment list days',
    intervalMs: config.DAY_COUNTS_INTERVAL_MS,
    run: () => appointments.days.pages.settle(),
  });
  runtime.every({
    name: 'appointments housekeeping',
    intervalMs: config.HOUSEKEEPING_INTERVAL_MS,
    run: async () => {
      const result = { ...(await bookings.housekeeping()), holds: await moves.finishStaleHolds() };
      if (result.repaired + result.replaced + result.holds > 0)
        logger.info(result, 'appointments housekeeping');
    },
  });

  const service = {
    app: runtime.httpApp((router) => {
      const handlers = {
        ...datesReadHandlers(bookings, runtime.audit),
        ...lifecycleHandlers(lifecycle, bookings, proof, runtime.audit),
        ...bookingHandlers(bookings, moves, proof, runtime.audit),
        ...waitlistHandlers(waitlist),
      };
      router.use(tableRouter('appointments', handlers, requireUser));
    }),
    models,
    relay,
    /** The release of unconfirmed accounts' slots (tests run it, as a second replica would). */
    release,
    /** The slot hold of unpaid bookings; `paymentHoldAt` runs it on another clock (tests). */
    paymentHold,
    paymentHoldAt,
    paymentHolds,
    /** Reschedules (tests finish the holds a crash would leave, as housekeeping does). */
    moves,
    /** The waiting list (tests run its sweep, as a second replica would). */
    waitlist,
    /** The same waiting list on another clock (tests look at it as it will be later). */
    waitlistAt,
    /** The kiosk's proof checks (docs/product/kiosk.md#proof). */
    proof,
    /** The lifecycle (tests run the sweep with it, as a second replica would). */
    lifecycle,
    /** The repositories (tests write fixtures in the past through them, which no call can). */
    repositories: { appointments, transitions, patients },
    ...runtime.startAndStop({
      seed: async () => {
        // Every live appointment has a booking code, those booked before codes existed included.
        const given = await appointments.assignMissingCodes();
        if (given > 0) logger.info({ given }, 'booking codes given to earlier appointments');
      },
    }),
  };
  return service satisfies ServiceHandle;
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
