import type { CheckoutForm } from '@crm/contracts';

/**
 * A card gateway the patient pays through (Redsys first; Stripe or PayPal could implement the same).
 * The domain never sees card data: the gateway's page takes it, and tells us the outcome.
 */
export interface PaymentProvider {
  readonly name: 'redsys';
  /** The signed form that sends the browser to the gateway's payment page. */
  checkoutForm(request: CheckoutRequest): CheckoutForm;
  /** The gateway's server-to-server notification, or `undefined` when its signature does not verify. */
  readNotification(body: Record<string, string>): ProviderNotification | undefined;
  /**
   * Gives the whole payment back. Resolves `refunded`, or `alreadyRefunded` when the gateway says
   * there is nothing left to refund (a retry after a refund whose answer was lost); rejects when the
   * outcome is unknown (network, gateway down): the caller retries later.
   */
  refund(request: {
    order: string;
    amountCents: number;
    currency: string;
  }): Promise<'refunded' | 'alreadyRefunded'>;
}

export interface CheckoutRequest {
  /** The gateway's order number: unique per attempt, 4 digits then up to 8 more characters. */
  order: string;
  amountCents: number;
  currency: string;
  description: string;
  notifyUrl: string;
  okUrl: string;
  koUrl: string;
}

export interface ProviderNotification {
  order: string;
  amountCents: number;
  /** The gateway accepted the payment (Redsys: Ds_Response 0000–0099). */
  succeeded: boolean;
  responseCode: string;
  method: 'card' | 'bizum';
  authorisationCode?: string;
}

/** ISO 4217 numeric codes the gateway uses. */
export const CURRENCY_NUMBERS: Record<string, string> = { EUR: '978' };
