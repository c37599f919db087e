import { Schema, type Connection } from 'mongoose';
import { retireIndexes } from '@crm/server-kit/service';
import { COUNTERS } from '../domain/facts';

const counters = Object.fromEntries(COUNTERS.map((name) => [name, { type: Number, default: 0 }]));

/**
 * `facts`: what happened, one document per (appointment, kind) — `<appointment id>:booked`,
 * `…:cancelled`, … — one per clinical record (`record:<id>`, its newest revision) and one per
 * payment taken or refunded (`payment:<id>:taken` / `…:refunded`). Appointment
 * facts are insert-only (a second copy of an event is a duplicate key, skipped); a record fact is
 * replaced only by a newer revision. Each carries its figures in `counts` (see domain/facts.ts).
 */
const factSchema = new Schema(
  {
    _id: { type: String },
    kind: { type: String, required: true },
    day: { type: String, required: true },
    appointmentId: { type: String, required: true },
    at: { type: Date, required: true },
    occurredAt: { type: Date, required: true },
    certificateType: { type: String },
    currency: { type: String },
    revision: { type: Number },
    /** Booked facts: the check-up price then (cents). Money facts: their cents and appointment's day. */
    priceCents: { type: Number },
    cents: { type: Number },
    appointmentDay: { type: String },
    /** The fact's figures, `{k: '<day>|<counter>', v}` (see domain/facts.ts `FactCount`). */
    counts: { type: [{ _id: false, k: String, v: Number }], default: [] },
    /** When this service stored it: the reconciliation recomputes the days of recent facts. */
    storedAt: { type: Date, required: true },
    /**
     * `storedAt`'s UTC day (YYYY-MM-DD): the reconciliation finds recent facts by this equality, one
     * query per day since its last run (FerretDB 1.24 hands equalities to PostgreSQL, not ranges:
     * a range on `storedAt` decoded every fact of the centre's history once a minute).
     */
    storedDay: { type: String },
  },
  { collection: 'facts', versionKey: false },
);
factSchema.index({ day: 1 });
factSchema.index({ storedDay: 1 });
factSchema.index({ appointmentDay: 1 });
/** Replaced by `storedDay` (the reconciliation's reads are equalities now): dropped at start-up. */
retireIndexes(factSchema, ['storedAt_1']);

/**
 * `days`: each day's totals, a pure function of that day's facts (recomputed with `$group`/`$sum`
 * whenever a fact of the day is stored, and again by the reconciliation), so the summary of a year
 * reads at most 366 small documents instead of grouping a year of facts at request time.
 */
const daySchema = new Schema(
  {
    _id: { type: String },
    ...counters,
    revenueByCertificate: { type: [{ _id: false, type: { type: String }, revenue: Number }], default: [] },
    currency: { type: String },
    /** Cents taken or refunded, by currency, flow and method (payments' facts). */
    money: {
      type: [{ _id: false, currency: String, flow: String, method: String, cents: Number }],
      default: [],
    },
    /** What the day's appointments still owe, in cents (absent: computed before it was counted). */
    pendingCents: { type: Number },
    computedAt: { type: Date, required: true },
  },
  { collection: 'days', versionKey: false },
);

export function reportingModels(connection: Connection) {
  return {
    Fact: connection.model('ReportingFact', factSchema),
    Day: connection.model('ReportingDay', daySchema),
  };
}

export type ReportingModels = ReturnType<typeof reportingModels>;
