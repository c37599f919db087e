import { z } from 'zod';
import type { CentreClosures } from '../centre-calendar';
import { minutesToClock, OPENING_SESSIONS, OPENING_WEEKDAYS } from '../centre-hours';
import { normalizePhone } from '../phone';
import { centrePaymentsSchema } from './payments';

/**
 * The centre profile: what the centre says about itself (brand, address, phone, hours, prices).
 * Owned by the config service (`GET /config/centre`, public; `PUT /config/centre`, ADMIN, each PUT
 * a new version). Every page, e-mail, `.ics` and the clinical form's default prices read it from
 * there; the only literal copy of these facts in the tree is the seed (`CENTRE_PROFILE_SEED`).
 */

const money = (label: string) =>
  z
    .number({ error: `${label}: debe ser un número` })
    .finite(`${label}: debe ser un número`)
    .min(0, `${label}: no puede ser negativo`)
    .max(100000, `${label}: es demasiado alto`);

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} es obligatorio` })
    .trim()
    .min(1, `${label} es obligatorio`)
    .max(max, `${label} no puede superar los ${max} caracteres`);

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'La hora debe tener el formato HH:mm');

/** One opening period on the given ISO weekdays (1 = Monday … 7 = Sunday). */
export const openingPeriodSchema = z
  .object({
    days: z.array(z.number().int().min(1).max(7)).min(1, 'Indique al menos un día').max(7),
    from: timeOfDay,
    to: timeOfDay,
  })
  .refine((period) => period.from < period.to, {
    message: 'La hora de cierre debe ser posterior a la de apertura',
    path: ['to'],
  });

const calendarDay = z
  .string({ error: 'La fecha es obligatoria' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato AAAA-MM-DD')
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, 'La fecha no es válida');

/**
 * The centre's closures (see `centre-calendar.ts`): local holidays, closed periods, shortened days.
 * The national and Canary Islands holidays are computed, never stored.
 */
export const centreClosuresBody = z.object({
  localHolidays: z
    .array(z.object({ date: calendarDay, name: text('El nombre del festivo', 100) }))
    .max(60, 'Demasiados festivos locales')
    .default([]),
  closures: z
    .array(
      z
        .object({ from: calendarDay, to: calendarDay, reason: text('El motivo del cierre', 200) })
        .refine((period) => period.from <= period.to, {
          message: 'La fecha final no puede ser anterior a la inicial',
          path: ['to'],
        }),
    )
    .max(200, 'Demasiados cierres')
    .default([]),
  shortenedDays: z
    .array(
      z.object({
        date: calendarDay,
        closesAt: timeOfDay,
        reason: z.string().trim().max(200, 'El motivo no puede superar los 200 caracteres').optional(),
      }),
    )
    .max(200, 'Demasiadas jornadas reducidas')
    .default([]),
}) satisfies z.ZodType<CentreClosures, unknown>;
export type CentreClosuresBody = z.input<typeof centreClosuresBody>;

const CLOSURE_KEYS = ['localHolidays', 'closures', 'shortenedDays'] as const;

/**
 * `PUT /config/centre/closures`: the closures as a whole, replacing the stored ones. A body that
 * names none of the three lists (empty, or not JSON at all) is refused rather than read as
 * "no closures", which would reopen every closed day.
 */
export const centreClosuresPutBody = z
  .custom<Record<string, unknown>>(
    (body) =>
      typeof body === 'object' && body !== null && CLOSURE_KEYS.some((key) => key in (body as object)),
    { message: 'Envíe los festivos locales, los cierres o las jornadas reducidas' },
  )
  .pipe(centreClosuresBody);

/**
 * Official DGT fee by validity of the renewed driving licence, in years
 * (docs/product/centre-profile.md#prices).
 */
export const DGT_FEE_VALIDITIES = ['10', '4', '3', '2', '1'] as const;

export const centrePricesSchema = z.object({
  /** The medical check-up, taxes included. */
  checkUp: money('El precio del reconocimiento'),
  /** Driving-licence renewals only: the centre's DGT management fee. */
  dgtManagementFee: money('La gestión DGT'),
  /** An extra report. */
  extraReportSupplement: money('El suplemento por informe adicional'),
  /** Driving-licence renewals only: the official DGT fee by validity in years. */
  dgtFees: z.object({
    '10': money('La tasa DGT (10 años)'),
    '4': money('La tasa DGT (4 años)'),
    '3': money('La tasa DGT (3 años)'),
    '2': money('La tasa DGT (2 años)'),
    '1': money('La tasa DGT (1 año)'),
  }),
  currency: z.string().regex(/^[A-Z]{3}$/, 'La moneda debe ser un código ISO de 3 letras'),
  /** A cancellation more than this many hours before the start is refunded. */
  refundWindowHours: z
    .number({ error: 'La ventana de reembolso debe ser un número' })
    .int('La ventana de reembolso debe ser un número entero de horas')
    .min(0, 'La ventana de reembolso no puede ser negativa')
    .max(24 * 30, 'La ventana de reembolso es demasiado larga'),
});

/** The body of `PUT /config/centre` (and the profile part of the GET answer). */
export const centreProfileBody = z.object({
  brandName: text('El nombre comercial', 100),
  subtitle: text('El subtítulo', 100),
  /** Street and number, postal code and town: shown as is and used for maps and the `.ics` LOCATION. */
  address: text('La dirección', 200),
  mapsUrl: z.url({ protocol: /^https$/, error: 'El enlace al mapa debe ser una URL https' }).max(500),
  /** Stored as digits with the country code (`34928123456`), like every phone of the product. */
  phone: z.string({ error: 'El teléfono es obligatorio' }).transform((value, ctx) => {
    const phone = normalizePhone(value);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: 'El teléfono no es válido' });
      return z.NEVER;
    }
    return phone;
  }),
  email: z.email({ error: 'El correo electrónico de contacto no es válido' }).max(254),
  /** The display name of the e-mails' sender (the address itself is the operator's `MAIL_FROM`). */
  senderName: text('El nombre del remitente', 100),
  /** Legal identification for the terms page. */
  legalName: text('La razón social', 150),
  taxId: text('El NIF', 20),
  registry: text('El registro mercantil', 200),
  openingHours: z.array(openingPeriodSchema).min(1, 'Indique al menos un horario').max(14),
  prices: centrePricesSchema,
  /**
   * Optional in a `PUT /config/centre`: absent, the stored closures are kept (they have their own
   * editor and call, `PUT /config/centre/closures`). Always present in the answer.
   */
  closures: centreClosuresBody.optional(),
  /**
   * Online payment and invoicing settings (docs/product/payments.md). Optional in a
   * `PUT /config/centre` (absent, the stored ones are kept); absent in older versions: defaults.
   */
  payments: centrePaymentsSchema.optional(),
});
/** The closures of a profile (absent in versions stored before they existed: none). */
export const closuresOf = (profile: { closures?: CentreClosures | undefined }): CentreClosures =>
  profile.closures ?? { localHolidays: [], closures: [], shortenedDays: [] };
export type CentreProfileBody = z.input<typeof centreProfileBody>;
export type CentreProfileData = z.output<typeof centreProfileBody>;

/** `GET /config/centre` and `PUT /config/centre` answer. */
export interface CentreProfile extends CentreProfileData {
  version: number;
  updatedAt: string;
}

/**
 * The seed of the profile (version 1), the current values of the site. The one check-up price is
 * 19 € taxes included: the FAQ, landing and booking page said 19 €, the terms 20 €; the worked example
 * (19 + 24.58 + 10 = 53.58) only adds up with 19 (docs/product/centre-profile.md#prices).
 */
export const CENTRE_PROFILE_SEED: CentreProfileData = {
  brandName: 'Reconocimientos Triana',
  subtitle: 'Centro de Reconocimiento Médico',
  address: 'Calle Mayor de Triana 24, 35002 Las Palmas de Gran Canaria',
  mapsUrl:
    'https://www.google.com/maps/search/?api=1&query=Calle%20Mayor%20de%20Triana%2024%2C%2035002%20Las%20Palmas%20de%20Gran%20Canaria',
  phone: '34928123456',
  email: 'citas@reconocimientostriana.es',
  senderName: 'Reconocimientos Triana',
  legalName: 'Reconocimientos Triana, S.L.',
  taxId: 'B00000000',
  registry: 'Registro Mercantil de Las Palmas',
  openingHours: OPENING_SESSIONS.map(([from, to]) => ({
    days: [...OPENING_WEEKDAYS],
    from: minutesToClock(from),
    to: minutesToClock(to),
  })),
  prices: {
    checkUp: 19,
    dgtManagementFee: 10,
    extraReportSupplement: 10,
    dgtFees: { '10': 24.58, '4': 19.67, '3': 14.75, '2': 9.83, '1': 4.92 },
    currency: 'EUR',
    refundWindowHours: 24,
  },
  closures: { localHolidays: [], closures: [], shortenedDays: [] },
};

/** The answer of `GET /config/centre`, for a client that checks what it reads (the e-mail worker). */
export const centreProfileSchema = centreProfileBody.extend({
  version: z.number().int().min(1),
  updatedAt: z.string().min(1),
});
