import { tableRouter, type Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { invoicePdf } from './api/invoice.pdf';
import { paymentsHandlers } from './api/payments.routes';
import type { PaymentsConfig } from './config';
import { CentreTermsClient } from './data/centre-terms.client';
import { MongoInvoiceStore } from './data/invoice.repository';
import { selectInvoiceSubmitter } from './data/invoice-submitters';
import { MongoAppointmentStore, MongoPaymentStore } from './data/payment.repository';
import { paymentsModels } from './data/payments.models';
import { RedsysProvider } from './data/redsys.provider';
import { InvoiceService } from './domain/invoices.service';
import type { PaymentProvider } from './domain/payment-provider';
import { PaymentsService } from './domain/payments.service';
import { appointmentEvents } from './events/appointments.consumer';

/**
 * Wires the payments service: payments, invoices and the appointments read model in its own
 * database, the Redsys provider, the appointments' events, the refund and invoice sweep, routes.
 */
export function createPaymentsService(config: PaymentsConfig, logger: Logger, provider?: PaymentProvider) {
  const runtime = createServiceRuntime('payments', config, logger);
  const models = paymentsModels(runtime.connection);
  const relay = runtime.outbox([models.Payment, models.Invoice]);
  const centre = new CentreTermsClient(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    cacheMs: config.PAYMENTS_CENTRE_CACHE_MS,
    logger,
  });
  const gateway =
    provider ??
    new RedsysProvider({
      merchantCode: config.REDSYS_MERCHANT_CODE,
      terminal: config.REDSYS_TERMINAL,
      secretKey: config.REDSYS_SECRET_KEY,
      url: config.REDSYS_URL,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    });
  const appointments = new MongoAppointmentStore(models);
  const invoices = new InvoiceService(
    new MongoInvoiceStore(models, runtime.kickOutbox, invoicePdf),
    undefined,
    selectInvoiceSubmitter(config),
  );
  const payments = new PaymentsService(
    new MongoPaymentStore(models, runtime.kickOutbox),
    appointments,
    centre,
    gateway,
    invoices,
    { publicUrl: config.PUBLIC_URL, refundRetryBaseMs: config.REFUND_RETRY_BASE_MS },
  );
  runtime.consume({
    purpose: 'appointments',
    events: appointmentEvents(appointments, payments, () => centre.invalidate()),
  });
  runtime.every({
    name: 'payments-sweep',
    intervalMs: config.PAYMENTS_SWEEP_MS,
    run: () => payments.sweep(),
  });

  const service = {
    app: runtime.httpApp((router) => {
      router.use(
        tableRouter('payments', paymentsHandlers(payments, invoices, runtime.audit), runtime.requireUser()),
      );
    }),
    models,
    relay,
    payments,
    invoices,
    ...runtime.startAndStop(),
  };
  return service satisfies ServiceHandle;
}

export type PaymentsApp = ReturnType<typeof createPaymentsService>;
