import { z } from 'zod';
import { DESK_PAYMENT_METHODS, type PaymentMethod } from '../payment-methods';
import { objectIdField } from './fields';
import { reportSummaryQuery } from './reports';

/**
 * Payments (docs/product/payments.md): online through the card gateway (Redsys, card and Bizum) or
 * recorded at the desk, refunds by the cancellation policy, simplified invoices. Every amount is an
 * integer number of cents.
 */

/** How the centre takes online payments (centre profile `payments.online`). */
export const ONLINE_PAYMENT_MODES = ['off', 'optional', 'required'] as const;
export type OnlinePaymentMode = (typeof ONLINE_PAYMENT_MODES)[number];

export {
  DESK_PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHOD_WORDS,
  PAYMENT_METHODS,
  type DeskPaymentMethod,
  type PaymentMethod,
} from '../payment-methods';

export const APPOINTMENT_PAYMENT_STATUSES = ['unpaid', 'pending', 'paid', 'refunded'] as const;
export type AppointmentPaymentStatus = (typeof APPOINTMENT_PAYMENT_STATUSES)[number];

/** The payments part of the centre profile; absent in profiles stored before it existed (defaults). */
export const centrePaymentsSchema = z.object({
  online: z
    .enum(ONLINE_PAYMENT_MODES, { error: 'El modo de pago en línea no es válido' })
    .default('optional'),
  /** VAT rate of the check-up in percent (medical check-ups are usually exempt: 0). */
  vatRatePercent: z
    .number({ error: 'El tipo de IVA debe ser un número' })
    .min(0, 'El tipo de IVA no puede ser negativo')
    .max(30, 'El tipo de IVA es demasiado alto')
    .default(0),
  /** Printed on invoices when the rate is 0. */
  exemptionText: z
    .string()
    .trim()
    .max(300, 'El texto de exención no puede superar los 300 caracteres')
    .default('Operación exenta de IVA (art. 20.Uno.3º de la Ley 37/1992)'),
});
export type CentrePayments = z.output<typeof centrePaymentsSchema>;
export const CENTRE_PAYMENTS_DEFAULTS: CentrePayments = centrePaymentsSchema.parse({});

const cents = (label: string) =>
  z
    .number({ error: `${label} debe ser un número entero de céntimos` })
    .int(`${label} debe ser un número entero de céntimos`)
    .min(1, `${label} debe ser mayor que cero`)
    .max(1_000_000, `${label} es demasiado alto`);

/** `POST /payments/checkout`. */
export const checkoutBody = z.strictObject({ appointmentId: objectIdField });
export type CheckoutBody = z.input<typeof checkoutBody>;

/** The signed form the browser posts to the payment page. */
export interface CheckoutForm {
  url: string;
  Ds_SignatureVersion: string;
  Ds_MerchantParameters: string;
  Ds_Signature: string;
}

/** `POST /payments/notify`: the gateway's server-to-server notification, form-encoded. */
export const paymentNotificationBody = z.object({
  Ds_SignatureVersion: z.string({ error: 'Falta la versión de firma' }).min(1).max(40),
  Ds_MerchantParameters: z.string({ error: 'Faltan los parámetros' }).min(1).max(8000),
  Ds_Signature: z.string({ error: 'Falta la firma' }).min(1).max(200),
});

/** `POST /payments/desk`. */
export const deskPaymentBody = z.strictObject({
  appointmentId: objectIdField,
  method: z.enum(DESK_PAYMENT_METHODS, { error: 'El método de pago no es válido' }),
  amountCents: cents('El importe'),
});
export type DeskPaymentBody = z.input<typeof deskPaymentBody>;

/** `POST /payments/:paymentId/refund`. */
export const refundBody = z.strictObject({
  reason: z
    .string({ error: 'El motivo es obligatorio' })
    .trim()
    .min(3, 'El motivo es obligatorio')
    .max(300, 'El motivo no puede superar los 300 caracteres'),
});

export const paymentAppointmentParam = z.strictObject({ appointmentId: objectIdField });

/** At most this many appointments in one `GET /payments/appointments?ids=`. */
export const PAYMENT_SUMMARIES_MAX_IDS = 100;
const IDS_MESSAGE = `Indique entre 1 y ${PAYMENT_SUMMARIES_MAX_IDS} identificadores de cita separados por comas`;

/** `GET /payments/appointments?ids=a,b,c` (DOCTOR, ADMIN): 1 to 100 appointment ids (repeats counted once). */
export const paymentSummariesQuery = z.strictObject({
  ids: z.string({ error: IDS_MESSAGE }).transform((text, ctx) => {
    const ids = [...new Set(text.split(',').map((id) => id.trim()))];
    if (
      ids.length === 0 ||
      ids.length > PAYMENT_SUMMARIES_MAX_IDS ||
      ids.some((id) => !/^[a-f0-9]{24}$/i.test(id))
    ) {
      ctx.addIssue({ code: 'custom', message: IDS_MESSAGE });
      return z.NEVER;
    }
    return ids;
  }),
});

/** One line of `GET /payments/appointments`: what the back office's lists show per appointment. */
export interface PaymentSummary {
  appointmentId: string;
  status: AppointmentPaymentStatus;
  /** The check-up's price. */
  amountCents: number;
  /** Money taken and not given back. */
  paidCents: number;
}

export interface PaymentSummaries {
  items: PaymentSummary[];
}
export const paymentIdParam = z.strictObject({
  paymentId: z.string().regex(/^[0-9a-f-]{36}$/, 'El pago no es válido'),
});
export const invoiceNumberParam = z.strictObject({
  number: z.string().regex(/^[A-Z]\d{4}-\d{6}$/, 'La factura no es válida'),
});

/**
 * `GET /payments/invoices/export?from=YYYY-MM-DD&to=YYYY-MM-DD` (ADMIN): the invoices issued on those
 * days at the centre, both included; the dashboard's period rules (at most 366 days, a leap year).
 */
export const invoiceExportQuery = reportSummaryQuery;
export type InvoiceExportQuery = z.infer<typeof invoiceExportQuery>;

export interface PaymentView {
  id: string;
  provider: 'redsys' | 'desk';
  method: PaymentMethod;
  amountCents: number;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed' | 'refunded';
  createdAt: string;
  paidAt?: string;
  refund?: { status: 'requested' | 'confirmed'; amountCents: number; reason: string; confirmedAt?: string };
}

/** `GET /payments/appointment/:appointmentId`. */
export interface AppointmentPayments {
  status: AppointmentPaymentStatus;
  amountCents: number;
  currency: string;
  online: OnlinePaymentMode;
  payments: PaymentView[];
  invoices: { number: string; kind: 'invoice' | 'rectifying'; totalCents: number; pdfUrl: string }[];
}

/** `GET /payments/invoices/verify`. */
export interface InvoiceChainReport {
  ok: boolean;
  checked: number;
  /** The first record whose stored hash or link does not match. */
  firstBroken?: { number: string; reason: 'hash' | 'link' | 'sequence' };
}
