import express from 'express';
import {
  checkoutBody,
  deskPaymentBody,
  invoiceNumberParam,
  paymentAppointmentParam,
  paymentIdParam,
  paymentNotificationBody,
  refundBody,
} from '@crm/contracts';
import { callerOf, forbidden, notFound, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { InvoiceService } from '../domain/invoices.service';
import type { PaymentsService } from '../domain/payments.service';
import { invoicePdf } from './invoice.pdf';

/** Redsys posts its notification form-encoded; nothing else here reads forms. */
const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });

/** `/payments*` (docs/product/payments.md). Roles come from the route table; objects are checked here. */
export function paymentsHandlers(payments: PaymentsService, invoices: InvoiceService) {
  return {
    'POST /payments/checkout': [
      validate('body', checkoutBody),
      async (req, res) => {
        res.json(await payments.checkout(callerOf(req), validated(res, 'body', checkoutBody).appointmentId));
      },
    ],
    'POST /payments/notify': [
      formBody,
      validate('body', paymentNotificationBody),
      async (_req, res) => {
        await payments.notify(validated(res, 'body', paymentNotificationBody));
        // Redsys only needs a 200; the body is for people reading logs.
        res.json({ message: 'OK' });
      },
    ],
    'GET /payments/appointment/:appointmentId': [
      validate('params', paymentAppointmentParam),
      async (req, res) => {
        const { appointmentId } = validated(res, 'params', paymentAppointmentParam);
        res.json(await payments.forAppointment(callerOf(req), appointmentId));
      },
    ],
    'POST /payments/desk': [
      validate('body', deskPaymentBody),
      async (req, res) => {
        const { payment, created } = await payments.desk(
          callerOf(req),
          validated(res, 'body', deskPaymentBody),
        );
        res.status(created ? 201 : 200).json(payment);
      },
    ],
    'POST /payments/:paymentId/refund': [
      validate('params', paymentIdParam),
      validate('body', refundBody),
      async (req, res) => {
        const { paymentId } = validated(res, 'params', paymentIdParam);
        res.json(
          await payments.refundByHand(callerOf(req), paymentId, validated(res, 'body', refundBody).reason),
        );
      },
    ],
    'GET /payments/invoices/verify': async (_req, res) => {
      res.json(await invoices.verify());
    },
    'GET /payments/invoices/:number/pdf': [
      validate('params', invoiceNumberParam),
      async (req, res) => {
        const caller = callerOf(req);
        const invoice = await invoices.byNumber(validated(res, 'params', invoiceNumberParam).number);
        if (!invoice) throw notFound('Factura no encontrada');
        if (caller.rol === 'PACIENT' && invoice.patientId !== caller.id) throw forbidden();
        const pdf = await invoicePdf(invoice);
        res
          .status(200)
          .type('application/pdf')
          .setHeader('Content-Disposition', `inline; filename="factura-${invoice.number}.pdf"`)
          .setHeader('Cache-Control', 'private, no-store')
          .send(pdf);
      },
    ],
  } satisfies RouteHandlers<'payments'>;
}
