import { auditEntryRecorded, type AuditEntryData } from '@crm/contracts';
import { listenForMessages, mintToken, uniqueId } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import type { PaymentsApp } from '../src/app';
import { MongoInvoiceStore } from '../src/data/invoice.repository';
import type { CentreTerms } from '../src/domain/centre-terms';
import { InvoiceService } from '../src/domain/invoices.service';
import type { Payment } from '../src/domain/payment';

/**
 * `GET /payments/invoices/export` through the gateway: an ADMIN downloads the period's invoices as a
 * CSV for a Spanish spreadsheet (days at the centre, decimal commas, formulas neutralised), recorded in
 * the access trail; anyone else is refused and a bad period is a 400 naming its field.
 */
jest.setTimeout(60_000);

let stack: Stack;
const admin = mintToken({ id: uniqueId(), rol: 'ADMIN' });
const service = () => stack.components.payments!.handle as PaymentsApp;

const terms = (vatRatePercent: number): CentreTerms => ({
  priceCents: 1900,
  currency: 'EUR',
  online: 'optional',
  refundWindowHours: 24,
  issuer: { legalName: 'Centro de Pruebas S.L.', taxId: 'B00000000', address: 'Calle 1', brandName: 'CRM' },
  vatRatePercent,
  exemptionText: 'Operación exenta de IVA',
});

/** Issues an invoice (and, with `refundedAt`, its rectifying one) as if at those instants. */
async function issue(
  patientName: string,
  method: Payment['method'],
  amountCents: number,
  issuedAt: string,
  options: { vat?: number; refundedAt?: string } = {},
) {
  let now = new Date(issuedAt);
  const invoices = new InvoiceService(new MongoInvoiceStore(service().models, () => undefined), () => now);
  const patientId = uniqueId();
  const payment: Payment = {
    id: crypto.randomUUID(),
    key: uniqueId(),
    appointmentId: uniqueId(),
    patientId,
    provider: method === 'card' ? 'redsys' : 'desk',
    method,
    amountCents,
    currency: 'EUR',
    status: 'succeeded',
    createdAt: now,
    paidAt: now,
  };
  const appointment = {
    id: payment.appointmentId,
    patientId,
    patientName,
    patientEmail: `${patientId}@example.test`,
    date: now,
    status: 'attended' as const,
  };
  const invoice = await invoices.forPayment(payment, appointment, terms(options.vat ?? 0));
  let rectifying;
  if (options.refundedAt) {
    now = new Date(options.refundedAt);
    rectifying = await invoices.forRefund(
      { ...payment, invoiceNumber: invoice.number, status: 'refunded' },
      appointment,
      terms(options.vat ?? 0),
    );
  }
  return { invoice, rectifying, payment };
}

const download = (query: string, token = admin) =>
  fetch(`${stack.gatewayUrl}/api/v1/payments/invoices/export${query}`, {
    headers: { Authorization: `Bearer ${token}` },
  });

let issued: Awaited<ReturnType<typeof issue>>[];

beforeAll(async () => {
  stack = await startStack({ components: ['payments'] });
  // July 2031 at the centre is UTC+1: 23:30Z is already the next day there.
  issued = [
    await issue('Ana Pérez Núñez', 'cash', 1900, '2031-06-30T23:30:00.000Z'), // 1 July at the centre
    await issue('=HYPERLINK("http://evil","clic")', 'card', 1900, '2031-07-01T10:00:00.000Z', {
      refundedAt: '2031-07-01T23:30:00.000Z', // 2 July at the centre
    }),
    await issue('-2+3', 'bizum', 123450, '2031-07-03T09:00:00.000Z', { vat: 21 }),
    await issue('Fuera Del Periodo', 'transfer', 1900, '2031-07-03T23:30:00.000Z'), // 4 July
  ];
}, 90_000);

afterAll(async () => {
  await stack?.stop();
});

it("gives an ADMIN the period's invoices as a CSV for a Spanish spreadsheet, one row per invoice, and records it", async () => {
  const trail = await listenForMessages<{ data: AuditEntryData }>(
    stack.amqpUrl,
    stack.exchange,
    auditEntryRecorded.name,
  );
  const response = await download('?from=2031-07-01&to=2031-07-03');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe(
    'attachment; filename="facturas-2031-07-01-2031-07-03.csv"',
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM Excel needs to read UTF-8
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
  expect(text.endsWith('\r\n')).toBe(true);
  const [cash, card, bizum] = issued.map(({ invoice }) => invoice);
  const refund = issued[1]!.rectifying!;
  expect(text.split('\r\n').slice(0, -1)).toEqual([
    'numero;serie;fecha_expedicion;tipo;rectifica_a;id_cita;cliente;metodo_pago;base_imponible;tipo_iva;cuota_iva;total;moneda',
    `F2031-000001;F;01/07/2031;ordinaria;;${cash!.appointmentId};Ana Pérez Núñez;efectivo;19,00;0;0,00;19,00;EUR`,
    `F2031-000002;F;01/07/2031;ordinaria;;${card!.appointmentId};"'=HYPERLINK(""http://evil"",""clic"")";tarjeta;19,00;0;0,00;19,00;EUR`,
    `F2031-000003;F;03/07/2031;ordinaria;;${bizum!.appointmentId};'-2+3;Bizum;1020,25;21;214,25;1234,50;EUR`,
    `R2031-000001;R;02/07/2031;rectificativa;F2031-000002;${refund.appointmentId};"'=HYPERLINK(""http://evil"",""clic"")";tarjeta;-19,00;0;0,00;-19,00;EUR`,
  ]);

  const deadline = Date.now() + 30_000;
  const exported = () => trail.received.find((m) => m.body.data.action === 'invoice.export');
  while (!exported() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await trail.close();
  expect(exported()?.body.data).toMatchObject({
    action: 'invoice.export',
    actorRol: 'ADMIN',
    resource: 'invoice',
    resourceId: '2031-07-01/2031-07-03',
    outcome: 'success',
  });
  expect([...exported()!.body.data.patientIds].sort()).toEqual(
    [...new Set(issued.slice(0, 3).map(({ payment }) => payment.patientId))].sort(),
  );
});

it('answers an empty period with the header only', async () => {
  const response = await download('?from=2031-08-01&to=2031-08-31');
  expect(response.status).toBe(200);
  expect((await response.text()).replace(/^\uFEFF/, '').split('\r\n')).toEqual([
    expect.stringMatching(/^numero;serie;/),
    '',
  ]);
});

it('refuses a DOCTOR and a PACIENT (403) and a call without a token (401)', async () => {
  const query = '?from=2031-07-01&to=2031-07-03';
  expect((await download(query, mintToken({ id: uniqueId(), rol: 'DOCTOR' }))).status).toBe(403);
  expect((await download(query, mintToken({ id: uniqueId(), rol: 'PACIENT' }))).status).toBe(403);
  expect((await fetch(`${stack.gatewayUrl}/api/v1/payments/invoices/export${query}`)).status).toBe(401);
});

it.each([
  ['?from=2031-07-01', 'to'],
  ['?to=2031-07-01', 'from'],
  ['?from=2031-02-30&to=2031-03-01', 'from'],
  ['?from=01/07/2031&to=2031-07-03', 'from'],
  ['?from=2031-07-03&to=2031-07-01', 'from'],
  ['?from=2030-01-01&to=2031-01-02', 'to'], // 367 days
])('answers %s with 400 JSON naming the field %s', async (query, field) => {
  const response = await download(query);
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { errors: Array<{ field?: string; message: string }> };
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) expect(error).toEqual({ field, message: expect.any(String) });
});
