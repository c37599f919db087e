/**
 * The payment methods and their Spanish names. No dependencies (no zod), so a front end can import
 * this module cheaply from `@crm/contracts/payment-methods`.
 */
export const DESK_PAYMENT_METHODS = ['card', 'cash', 'bizum', 'transfer'] as const;
export type DeskPaymentMethod = (typeof DESK_PAYMENT_METHODS)[number];

export const PAYMENT_METHODS = ['card', 'cash', 'bizum', 'transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** A payment method's name as screens, lists and invoices show it. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Tarjeta',
  cash: 'Efectivo',
  bizum: 'Bizum',
  transfer: 'Transferencia',
};

/** The same inside a sentence or a spreadsheet cell: lower case, but Bizum is a name. */
export const PAYMENT_METHOD_WORDS: Record<PaymentMethod, string> = {
  card: 'tarjeta',
  cash: 'efectivo',
  bizum: 'Bizum',
  transfer: 'transferencia',
};
