import { createRedsysAPI, GatewayError, isResponseCodeOk, type RedsysAPI } from 'redsys-easy';
import type { CheckoutForm } from '@crm/contracts';
import {
  CURRENCY_NUMBERS,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderNotification,
} from '../domain/payment-provider';

export interface RedsysSettings {
  merchantCode: string;
  terminal: string;
  secretKey: string;
  /** Base of the gateway (production `https://sis.redsys.es`, the simulator locally). */
  url: string;
  timeoutMs: number;
}

/** Redsys's "Bizum" payment method code (`Ds_ProcessedPayMethod`) and the request's `z`. */
const BIZUM_PROCESSED = '68';
/** "El importe a devolver supera el permitido": nothing left to refund. */
const NOTHING_LEFT_TO_REFUND = ['SIS0057', '9057'];

/**
 * Redsys through `redsys-easy` (signature: HMAC-SHA256 of the merchant parameters with the order
 * number encrypted by 3DES under the terminal's key; REST `trataPeticion` for refunds).
 */
export class RedsysProvider implements PaymentProvider {
  readonly name = 'redsys' as const;
  private readonly api: RedsysAPI;

  constructor(private readonly settings: RedsysSettings) {
    const base = settings.url.replace(/\/$/, '');
    this.api = createRedsysAPI({
      secretKey: settings.secretKey,
      urls: {
        redirect: `${base}/sis/realizarPago`,
        restTrataPeticion: `${base}/sis/rest/trataPeticionREST`,
        restIniciaPeticion: `${base}/sis/rest/iniciaPeticionREST`,
      },
      fetch: ((input: string, init: Record<string, unknown>) =>
        fetch(input, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) })) as never,
    });
  }

  checkoutForm(request: CheckoutRequest): CheckoutForm {
    const form = this.api.createRedirectForm({
      DS_MERCHANT_MERCHANTCODE: this.settings.merchantCode,
      DS_MERCHANT_TERMINAL: this.settings.terminal,
      DS_MERCHANT_TRANSACTIONTYPE: '0',
      DS_MERCHANT_ORDER: request.order,
      DS_MERCHANT_AMOUNT: String(request.amountCents),
      DS_MERCHANT_CURRENCY: currencyNumber(request.currency) as never,
      DS_MERCHANT_PRODUCTDESCRIPTION: request.description,
      DS_MERCHANT_MERCHANTURL: request.notifyUrl,
      DS_MERCHANT_URLOK: request.okUrl,
      DS_MERCHANT_URLKO: request.koUrl,
      DS_MERCHANT_CONSUMERLANGUAGE: '001' as never,
    });
    return { url: form.url, ...form.body };
  }

  readNotification(body: Record<string, string>): ProviderNotification | undefined {
    let params: Record<string, unknown>;
    try {
      params = this.api.processRedirectNotification({
        Ds_SignatureVersion: body.Ds_SignatureVersion ?? '',
        Ds_MerchantParameters: body.Ds_MerchantParameters ?? '',
        Ds_Signature: body.Ds_Signature ?? '',
      }) as unknown as Record<string, unknown>;
    } catch {
      return undefined;
    }
    if (String(params.Ds_MerchantCode) !== this.settings.merchantCode) return undefined;
    const responseCode = String(params.Ds_Response ?? '');
    const amount = Number(params.Ds_Amount);
    if (!/^\d+$/.test(responseCode) || !Number.isSafeInteger(amount)) return undefined;
    return {
      order: String(params.Ds_Order),
      amountCents: amount,
      succeeded: isResponseCodeOk(responseCode),
      responseCode,
      method: String(params.Ds_ProcessedPayMethod ?? '') === BIZUM_PROCESSED ? 'bizum' : 'card',
      ...(params.Ds_AuthorisationCode
        ? { authorisationCode: String(params.Ds_AuthorisationCode).trim() }
        : {}),
    };
  }

  async refund(request: { order: string; amountCents: number; currency: string }) {
    try {
      const answer = await this.api.restTrataPeticion({
        DS_MERCHANT_MERCHANTCODE: this.settings.merchantCode,
        DS_MERCHANT_TERMINAL: this.settings.terminal,
        DS_MERCHANT_TRANSACTIONTYPE: '3',
        DS_MERCHANT_ORDER: request.order,
        DS_MERCHANT_AMOUNT: String(request.amountCents),
        DS_MERCHANT_CURRENCY: currencyNumber(request.currency) as never,
      });
      const code = String(answer.Ds_Response ?? '');
      // Refunds are confirmed with 0900.
      if (code === '0900' || isResponseCodeOk(code)) return 'refunded' as const;
      throw new Error(`refund answered ${code}`);
    } catch (error) {
      if (error instanceof GatewayError && NOTHING_LEFT_TO_REFUND.includes(String(error.code)))
        return 'alreadyRefunded' as const;
      throw error;
    }
  }
}

function currencyNumber(currency: string): string {
  const number = CURRENCY_NUMBERS[currency];
  if (!number) throw new Error(`currency ${currency} is not supported by the gateway`);
  return number;
}
