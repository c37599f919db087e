import { randomInt, randomUUID } from 'node:crypto';
import {
  paymentFailed,
  paymentSucceeded,
  refundIssued,
  type AppointmentPayments,
  type CheckoutForm,
  type DeskPaymentMethod,
  type EventContract,
  type EventData,
  type PaymentSummaries,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import {
  badRequest,
  conflict,
  correlationIdOrNew,
  forbidden,
  notFound,
  type AuthenticatedUser,
} from '@crm/server-kit';
import { paymentFacts } from '../events/payment.payloads';
import type { CentreTermsSource } from './centre-terms';
import type { InvoiceService } from './invoices.service';
import {
  appointmentPaymentStatus,
  keptCents,
  paymentView,
  refundBackoffMs,
  type KnownAppointment,
  type Payment,
  type Refund,
} from './payment';
import type { PaymentProvider } from './payment-provider';
import type { AppointmentStore, PaymentStore } from './payment-store';

export interface PaymentsSettings {
  publicUrl: string;
  refundRetryBaseMs: number;
  /** Two identical desk payments (same appointment, method, amount, person) this close are one. */
  deskRepeatWindowMs?: number;
}

const envelope = <C extends EventContract>(contract: C, data: EventData<C>) =>
  createEnvelope(contract, data as never, correlationIdOrNew());

/** Redsys order numbers: 12 digits (the gateway wants 4 digits first, at most 12 characters). */
const newOrder = (): string =>
  `${Date.now() % 10_000}`.padStart(4, '0') + `${randomInt(0, 1e8)}`.padStart(8, '0');

export class PaymentsService {
  constructor(
    private readonly payments: PaymentStore,
    private readonly appointments: AppointmentStore,
    private readonly centre: CentreTermsSource,
    private readonly provider: PaymentProvider,
    private readonly invoices: InvoiceService,
    private readonly settings: PaymentsSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `POST /payments/checkout`: the signed form for the patient's own booked appointment. */
  async checkout(caller: AuthenticatedUser, appointmentId: string): Promise<CheckoutForm> {
    const appointment = await this.ownAppointment(caller, appointmentId);
    if (appointment.status !== 'booked')
      throw conflict('Esta cita no admite pagos', [
        { field: 'appointmentId', message: 'Esta cita no admite pagos' },
      ]);
    const terms = await this.centre.current();
    if (terms.online === 'off') throw conflict('El pago en línea no está disponible');
    // A moved appointment's payments are the new one's (docs/product/payments.md#reschedules).
    const existing = await this.payments.forAppointment(await this.appointments.lineage(appointmentId));
    if (appointmentPaymentStatus(existing, terms.priceCents) === 'paid')
      throw conflict('La cita ya está pagada');
    const payment = await this.openAttempt(appointment, existing, terms.priceCents, terms.currency);
    const base = this.settings.publicUrl.replace(/\/$/, '');
    return this.provider.checkoutForm({
      order: payment.order!,
      amountCents: payment.amountCents,
      currency: payment.currency,
      description: 'Reconocimiento médico',
      notifyUrl: `${base}/api/v1/payments/notify`,
      okUrl: `${base}/user?payment=ok`,
      koUrl: `${base}/user?payment=ko`,
    });
  }

  /**
   * The open online attempt of the appointment, or a new one. Two clicks at once compute the same
   * key (`online:<appointment>:<attempts closed so far>`), so the unique key lets one insert win and
   * both get the same order.
   */
  private async openAttempt(
    appointment: KnownAppointment,
    existing: Payment[],
    priceCents: number,
    currency: string,
  ) {
    const online = existing.filter((payment) => payment.provider === 'redsys');
    const open = online.find((payment) => payment.status === 'pending');
    if (open) return open;
    const key = `online:${appointment.id}:${online.length}`;
    const payment: Payment = {
      id: randomUUID(),
      key,
      appointmentId: appointment.id,
      patientId: appointment.patientId,
      provider: 'redsys',
      method: 'card',
      amountCents: priceCents,
      currency,
      status: 'pending',
      order: newOrder(),
      createdAt: this.now(),
    };
    if ((await this.payments.insert(payment)) === 'inserted') return payment;
    const winner = await this.payments.byKey(key);
    if (!winner) throw conflict('Inténtelo de nuevo');
    return winner;
  }

  /**
   * `POST /payments/notify`: trusted only if its signature verifies with our key; the amount must
   * be the attempt's. A second delivery finds the attempt no longer pending and changes nothing.
   */
  async notify(body: Record<string, string>): Promise<'accepted' | 'ignored'> {
    const notification = this.provider.readNotification(body);
    if (!notification)
      throw badRequest('Firma no válida', [{ field: 'Ds_Signature', message: 'Firma no válida' }]);
    const payment = await this.payments.byOrder(notification.order);
    if (!payment) throw notFound('Pedido desconocido');
    if (notification.amountCents !== payment.amountCents)
      throw badRequest('El importe no coincide', [
        { field: 'Ds_MerchantParameters', message: 'El importe no coincide' },
      ]);
    const at = this.now();
    const facts = paymentFacts(payment, notification.method);
    if (notification.succeeded) {
      const changed = await this.payments.markSucceeded(
        payment.id,
        { paidAt: at, method: notification.method, responseCode: notification.responseCode },
        envelope(paymentSucceeded, { ...facts, paidAt: at.toISOString() }),
      );
      if (changed) {
        await this.invoiceQuietly({
          ...payment,
          status: 'succeeded',
          method: notification.method,
          paidAt: at,
        });
        // Paid after its unpaid slot was released: nothing is kept for it, the money goes back.
        if ((await this.appointments.byId(payment.appointmentId))?.releasedUnpaid)
          await this.refundReleased(payment.id);
      }
      return changed ? 'accepted' : 'ignored';
    }
    const changed = await this.payments.markFailed(
      payment.id,
      { failedAt: at, responseCode: notification.responseCode },
      envelope(paymentFailed, {
        ...facts,
        failedAt: at.toISOString(),
        responseCode: notification.responseCode,
      }),
    );
    return changed ? 'accepted' : 'ignored';
  }

  /**
   * `POST /payments/desk`: a payment taken at the centre. A repeat of the same payment by the same
   * person within a minute (a double click) is the same payment.
   */
  async desk(
    caller: AuthenticatedUser,
    input: { appointmentId: string; method: DeskPaymentMethod; amountCents: number },
  ) {
    const appointment = await this.appointments.byId(input.appointmentId);
    if (!appointment) throw notFound('Cita no encontrada');
    if (appointment.status === 'deleted') throw conflict('Esta cita no admite pagos');
    const terms = await this.centre.current();
    const at = this.now();
    const windowMs = this.settings.deskRepeatWindowMs ?? 60_000;
    const bucket = Math.floor(at.getTime() / windowMs);
    const keyOf = (slot: number) =>
      `desk:${appointment.id}:${input.method}:${input.amountCents}:${caller.id}:${slot}`;
    const previous =
      (await this.payments.byKey(keyOf(bucket))) ?? (await this.payments.byKey(keyOf(bucket - 1)));
    if (previous && at.getTime() - previous.createdAt.getTime() < windowMs)
      return { payment: paymentView(previous), created: false };
    const id = randomUUID();
    const payment: Payment = {
      id,
      key: keyOf(bucket),
      order: `desk-${id}`,
      appointmentId: appointment.id,
      patientId: appointment.patientId,
      provider: 'desk',
      method: input.method,
      amountCents: input.amountCents,
      currency: terms.currency,
      status: 'succeeded',
      createdAt: at,
      paidAt: at,
      recordedById: caller.id,
    };
    const event = envelope(paymentSucceeded, {
      ...paymentFacts(payment, input.method),
      paidAt: at.toISOString(),
    });
    if ((await this.payments.insert(payment, event)) === 'duplicate') {
      const winner = await this.payments.byKey(payment.key);
      if (winner) return { payment: paymentView(winner), created: false };
      throw conflict('Inténtelo de nuevo');
    }
    // Issued after the answer: invoices are numbered one at a time, and a burst of desk payments
    // must not wait for each other's (the sweep issues any that fail).
    void this.invoiceQuietly(payment);
    return { payment: paymentView(payment), created: true };
  }

  /** `GET /payments/appointment/:id`: the patient for their own, staff for any. */
  async forAppointment(caller: AuthenticatedUser, appointmentId: string): Promise<AppointmentPayments> {
    const appointment = await this.appointments.byId(appointmentId);
    // Known appointments are checked; one not learnt yet (its event is on its way) has nothing to show.
    if (caller.rol === 'PACIENT' && appointment && appointment.patientId !== caller.id) throw forbidden();
    // A moved appointment's payments and invoices are the new one's.
    const lineage = await this.appointments.lineage(appointmentId);
    const [payments, terms, invoices] = await Promise.all([
      this.payments.forAppointment(lineage),
      this.centre.current(),
      Promise.all(lineage.map((id) => this.invoices.forAppointment(id))).then((lists) =>
        lists.flat().sort((a, b) => a.number.localeCompare(b.number)),
      ),
    ]);
    if (
      !appointment &&
      payments.some((payment) => caller.rol === 'PACIENT' && payment.patientId !== caller.id)
    )
      throw forbidden();
    return {
      status: appointmentPaymentStatus(payments, terms.priceCents),
      amountCents: terms.priceCents,
      currency: terms.currency,
      online: terms.online,
      payments: payments.map(paymentView),
      invoices: invoices.map((invoice) => ({
        number: invoice.number,
        kind: invoice.kind,
        totalCents: invoice.totalCents,
        pdfUrl: `/api/v1/payments/invoices/${invoice.number}/pdf`,
      })),
    };
  }

  /**
   * `GET /payments/appointments?ids=` (DOCTOR, ADMIN): the state of each appointment (with the
   * payments of those it was moved from), in the order asked; one read of the payments for all.
   */
  async summaries(appointmentIds: string[]): Promise<PaymentSummaries> {
    const [lineages, terms] = await Promise.all([
      Promise.all(appointmentIds.map((id) => this.appointments.lineage(id))),
      this.centre.current(),
    ]);
    const all = await this.payments.forAppointment([...new Set(lineages.flat())]);
    return {
      items: appointmentIds.map((appointmentId, i) => {
        const ids = new Set(lineages[i]);
        const own = all.filter((payment) => ids.has(payment.appointmentId));
        return {
          appointmentId,
          status: appointmentPaymentStatus(own, terms.priceCents),
          amountCents: terms.priceCents,
          paidCents: keptCents(own),
        };
      }),
    };
  }

  /** `POST /payments/:id/refund` (ADMIN): the whole payment back, once. */
  async refundByHand(caller: AuthenticatedUser, paymentId: string, reason: string) {
    const payment = await this.payments.byId(paymentId);
    if (!payment) throw notFound('Pago no encontrado');
    if (payment.refund) throw conflict('Este pago ya se ha devuelto');
    if (payment.status !== 'succeeded') throw conflict('Solo se pueden devolver pagos cobrados');
    if (!(await this.requestRefund(payment, 'manual', reason, caller.id)))
      throw conflict('Este pago ya se ha devuelto');
    const after = await this.attemptRefund(paymentId);
    return paymentView(after ?? payment);
  }

  /**
   * A patient's cancellation inside the policy (`refundable: true`): every online payment of the
   * appointment is given back. A late cancellation, or one made by staff, refunds nothing by itself.
   */
  async appointmentCancelled(appointmentId: string, refundable: boolean, byPatient: boolean) {
    if (!refundable || !byPatient) return;
    const payments = await this.payments.forAppointment(await this.appointments.lineage(appointmentId));
    for (const payment of payments.filter((p) => p.provider === 'redsys' && p.status === 'succeeded')) {
      if (await this.requestRefund(payment, 'cancellation', 'Cancelación con derecho a reembolso')) {
        await this.attemptRefund(payment.id);
      }
    }
  }

  /**
   * The appointments service released the appointment's slot unpaid (its hold ended): an online
   * payment that succeeded meanwhile (it lost the race with the release) is given back, and so is
   * any that arrives later (`notify` sees the mark). Nothing resurrects the appointment.
   */
  async holdReleased(appointmentId: string) {
    const lineage = await this.appointments.lineage(appointmentId);
    await this.appointments.markReleasedUnpaid(lineage);
    const payments = await this.payments.forAppointment(lineage);
    for (const payment of payments.filter((p) => p.provider === 'redsys' && p.status === 'succeeded'))
      await this.refundReleased(payment.id);
  }

  private async refundReleased(paymentId: string) {
    const payment = await this.payments.byId(paymentId);
    if (!payment || payment.provider !== 'redsys' || payment.status !== 'succeeded') return;
    if (await this.requestRefund(payment, 'holdExpired', 'Pago recibido con la reserva ya liberada'))
      await this.attemptRefund(payment.id);
  }

  /** Retries refunds the gateway has not confirmed yet, and issues invoices still missing. */
  async sweep(): Promise<void> {
    for (const payment of await this.payments.dueRefunds(this.now(), 20))
      await this.attemptRefund(payment.id);
    for (const payment of await this.payments.missingInvoices(50)) await this.invoiceQuietly(payment);
  }

  private requestRefund(payment: Payment, cause: Refund['cause'], reason: string, byId?: string) {
    const at = this.now();
    return this.payments.requestRefund(payment.id, {
      status: 'requested',
      amountCents: payment.amountCents,
      cause,
      reason,
      requestedAt: at,
      attempts: 0,
      nextAttemptAt: at,
      ...(byId ? { byId } : {}),
    });
  }

  /**
   * One try at a requested refund. The request is stored before the gateway is called, so a crash
   * after the call is retried; the gateway then answers that nothing is left to refund, which
   * confirms it. A desk payment is given back at the desk: confirmed at once.
   */
  private async attemptRefund(paymentId: string): Promise<Payment | undefined> {
    const payment = await this.payments.byId(paymentId);
    if (!payment?.refund || payment.refund.status !== 'requested') return payment;
    const refund = payment.refund;
    try {
      if (payment.provider === 'redsys') {
        await this.provider.refund({
          order: payment.order!,
          amountCents: refund.amountCents,
          currency: payment.currency,
        });
      }
    } catch {
      const attempts = refund.attempts + 1;
      await this.payments.postponeRefund(
        payment.id,
        attempts,
        new Date(this.now().getTime() + refundBackoffMs(attempts, this.settings.refundRetryBaseMs)),
      );
      return this.payments.byId(paymentId);
    }
    const at = this.now();
    const event = envelope(refundIssued, {
      ...paymentFacts(payment, payment.method),
      refundedAt: at.toISOString(),
      refundCents: refund.amountCents,
      cause: refund.cause,
    });
    if (await this.payments.confirmRefund(payment.id, at, event)) {
      const confirmed = await this.payments.byId(paymentId);
      if (confirmed) await this.invoiceQuietly(confirmed);
    }
    return this.payments.byId(paymentId);
  }

  /** Issues what the payment still lacks; a failure is left to the sweep. */
  private async invoiceQuietly(payment: Payment): Promise<void> {
    try {
      const [appointment, terms] = await Promise.all([
        this.appointments.byId(payment.appointmentId),
        this.centre.current(),
      ]);
      if (!payment.invoiceNumber && (payment.status === 'succeeded' || payment.status === 'refunded')) {
        const invoice = await this.invoices.forPayment(payment, appointment, terms);
        await this.payments.setInvoice(payment.id, 'invoiceNumber', invoice.number);
        payment = { ...payment, invoiceNumber: invoice.number };
      }
      if (payment.refund?.status === 'confirmed' && !payment.rectifyingInvoiceNumber) {
        const invoice = await this.invoices.forRefund(payment, appointment, terms);
        await this.payments.setInvoice(payment.id, 'rectifyingInvoiceNumber', invoice.number);
      }
    } catch {
      // The sweep issues it later; the payment itself is stored.
    }
  }

  private async ownAppointment(caller: AuthenticatedUser, appointmentId: string) {
    const appointment = await this.appointments.byId(appointmentId);
    if (!appointment) throw notFound('Cita no encontrada');
    if (appointment.patientId !== caller.id) throw forbidden();
    return appointment;
  }
}
