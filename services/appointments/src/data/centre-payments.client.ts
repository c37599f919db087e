import { centrePaymentsSchema, type OnlinePaymentMode } from '@crm/contracts';
import { CentreProfileValue, type Logger } from '@crm/server-kit';

/**
 * The centre profile's `payments.online`, cached and dropped on `config.centre.updated.v1`. When the
 * config service cannot answer, the last value read is kept (else `optional`: no slot is held on a
 * guess).
 */
export class CentrePaymentModeClient {
  private readonly source: CentreProfileValue<OnlinePaymentMode>;

  constructor(baseUrl: string, options: { timeoutMs: number; cacheMs: number; logger?: Logger }) {
    this.source = new CentreProfileValue({
      ...options,
      baseUrl,
      retryAfterMs: 5_000,
      fallback: 'optional',
      what: 'online payment mode',
      read: (body) => centrePaymentsSchema.parse(body.payments ?? {}).online,
    });
  }

  mode(): Promise<OnlinePaymentMode> {
    return this.source.get();
  }

  invalidate(): void {
    this.source.invalidate();
  }
}
