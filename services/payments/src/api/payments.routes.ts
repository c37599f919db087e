import express from 'express';
import {
  checkoutBody,
  deskPaymentBody,
  invoiceExportQuery,
  invoiceNumberParam,
  paymentAppointmentParam,
  paymentIdParam,
  paymentNotificationBody,
  paymentSummariesQuery,
  refundBody,
} from '@crm/contracts';
import {
  callerOf,
  CSV_BOM,
  forbidden,
  notFound,
  validate,
  validated,
  type RouteHandlers,
} from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { InvoiceService } from '../domain/invoices.service';
import type { PaymentsService } from '../domain/payments.service';
import { invoicePdf } from './invoice.pdf';
import { INVOICE_CSV_HEADER, invoiceCsvLine } from './invoices.csv';

/** Redsys posts its notification form-encoded; nothing else here reads forms. */
const formBody = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });

/** `/payments*` (docs/product/payments.md). Roles come from the route table; objects are checked here. */
export function paymentsHandlers(payments: PaymentsService, invoices: InvoiceService, trail: AuditTrail) {
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
    'GET /payments/appointments': [
      validate('query', paymentSummariesQuery),
      async (_req, res) => {
        const { ids } = validated(res, 'query', paymentSummariesQuery);
        res.json(await payments.summaries(ids));
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
    'GET /payments/invoices/export': [
      validate('query', invoiceExportQuery),
      async (req, res) => {
        const { from, to } = validated(res, 'query', invoiceExportQuery);
        const rows = await invoices.issuedOn(from, to);
        // Recorded before a byte leaves, like the trail's own export: the file names patients.
        await trail.recordRequest(req, {
          action: 'invoice.export',
          resource: 'invoice',
          resourceId: `${from}/${to}`,
          patientIds: rows.map((invoice) => invoice.patientId),
          outcome: 'success',
        });
        res
          .status(200)
          .setHeader('Content-Type', 'text/csv; charset=utf-8')
          .setHeader('Content-Disposition', `attachment; filename="facturas-${from}-${to}.csv"`)
          .setHeader('Cache-Control', 'private, no-store')
          .send(CSV_BOM + INVOICE_CSV_HEADER + rows.map(invoiceCsvLine).join(''));
      },
    ],
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
