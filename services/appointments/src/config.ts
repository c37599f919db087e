import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';
import { UNCONFIRMED_RELEASE_DEFAULTS } from '@crm/contracts';

export const appointmentsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4002),
  MONGO_DB: z.string().min(1).default('appointments'),
  /** Where to look up a patient the read model has not seen yet (event lag). */
  AUTH_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4001'),
  AUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** Where the centre profile's refund window is read (cancellations say whether they are refunded). */
  CONFIG_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4005'),
  /** How long the refund window is kept before it is read again (also dropped on a profile change). */
  CENTRE_CACHE_MS: z.coerce.number().int().min(0).default(300_000),
  /** How often interrupted ends and kiosk swaps are repaired (see README). */
  HOUSEKEEPING_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  /**
   * How often appointments stored before they carried their day are given it (2 000 a pass; once
   * none is left, a pass does nothing): the agenda reads by day from then on.
   */
  DAY_BACKFILL_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
  /** How often the days of the list of every appointment are counted (README, "Paging"). */
  DAY_COUNTS_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
  /** How often booked appointments 30 minutes past their end become noShow (see README, "No-shows"). */
  NO_SHOW_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** Web bookings of accounts still unconfirmed are released this long after booking… */
  UNCONFIRMED_HOLD_HOURS: z.coerce.number().positive().default(UNCONFIRMED_RELEASE_DEFAULTS.holdHours),
  /** …or this long before the slot, whichever comes first; looked for this often. */
  UNCONFIRMED_RELEASE_BEFORE_MINUTES: z.coerce
    .number()
    .positive()
    .default(UNCONFIRMED_RELEASE_DEFAULTS.beforeStartMinutes),
  /**
   * `opening` (default): the kiosk books walk-ins only within the opening hours of an open day;
   * `any`: whenever the admin has not closed the day (test environments, see slot-rules.ts).
   */
  WALK_IN_HOURS: z.enum(['opening', 'any']).default('opening'),
  UNCONFIRMED_RELEASE_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * Wrong booking codes the kiosk may try for one patient within `ONBOARDING_CODE_TTL_MINUTES`
   * (the auth service's one-time codes follow the same two numbers; docs/product/kiosk.md#proof).
   */
  ONBOARDING_CODE_MAX_TRIES: z.coerce.number().int().positive().default(5),
  ONBOARDING_CODE_TTL_MINUTES: z.coerce.number().positive().default(10),
  /** How long a freed slot offered to the waiting list is held for its patient… */
  WAITLIST_OFFER_MINUTES: z.coerce.number().positive().default(15),
  /** …and how often expired offers are passed on to the next in line. */
  WAITLIST_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * With the centre profile's `payments.online = required`, a patient's unpaid web booking holds its
   * slot this long (minutes; a fraction is allowed, for tests), then is released…
   */
  PAYMENT_HOLD_MINUTES: z.coerce.number().positive().default(15),
  /** …looked for this often. */
  PAYMENT_HOLD_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(15_000),
});

export type AppointmentsConfig = z.infer<typeof appointmentsEnvSchema>;

export const loadAppointmentsConfig = (env: NodeJS.ProcessEnv = process.env): AppointmentsConfig =>
  loadConfig(appointmentsEnvSchema, env);
