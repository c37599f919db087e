import type { DeployableMetrics } from '@crm/server-kit';
import type { MongoAppointmentRepository } from './appointment.repository';
import type { MongoOfferHolds } from './offer-hold.repository';

const NAME = 'crm_bookings_total';
const HELP =
  'Appointments booked (stored with their booked event), by channel (patient, staff, kiosk, waitlist)';

/**
 * Counts every appointment written as booked (`crm_bookings_total{channel}`): through the
 * repository's `book` (patient, staff and kiosk) and a claimed waiting-list offer (`waitlist`). The alert
 * "bookings without booking e-mails" compares it with the e-mail worker's
 * `crm_emails_sent_total{event="appointments.appointment.booked.v1"}`.
 */
export function countBookings(repository: MongoAppointmentRepository, metrics: DeployableMetrics) {
  const bookings = metrics.counter(NAME, HELP, ['channel']);
  const book = repository.book.bind(repository);
  repository.book = async (...args) => {
    const booked = await book(...args);
    bookings.inc({ channel: booked.channel });
    return booked;
  };
  return repository;
}

export function countOfferClaims(offers: MongoOfferHolds, metrics: DeployableMetrics) {
  const bookings = metrics.counter(NAME, HELP, ['channel']);
  const claim = offers.claim.bind(offers);
  offers.claim = async (...args) => {
    const claimed = await claim(...args);
    if (typeof claimed === 'object') bookings.inc({ channel: 'waitlist' });
    return claimed;
  };
  return offers;
}
