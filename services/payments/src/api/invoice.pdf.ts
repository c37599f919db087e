import PDFDocument from 'pdfkit';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@crm/contracts';
import QRCode from 'qrcode';
import type { Invoice } from '../domain/invoice';

const euros = (cents: number, currency: string) =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency }).format(cents / 100);

/** The invoice as a one-page PDF (factura simplificada), with the tax agency's QR code. */
export async function invoicePdf(invoice: Invoice): Promise<Buffer> {
  const qr = await QRCode.toBuffer(invoice.qrUrl, { margin: 1, width: 140 });
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Factura ${invoice.number}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  doc.fontSize(9).text('QR tributario:', 420, 50).image(qr, 420, 62, { width: 110 });
  doc.fontSize(8).text('Factura verificable en la sede electrónica de la AEAT', 420, 176, { width: 120 });
  doc
    .fontSize(18)
    .text(invoice.kind === 'invoice' ? 'Factura simplificada' : 'Factura rectificativa', 50, 50);
  doc
    .fontSize(11)
    .moveDown()
    .text(invoice.issuer.legalName)
    .text(`NIF ${invoice.issuer.taxId}`)
    .text(invoice.issuer.address);
  doc.moveDown();
  doc.text(`Número: ${invoice.number}`);
  doc.text(
    `Fecha de expedición: ${invoice.issuedAt.toLocaleDateString('es-ES', { timeZone: 'Atlantic/Canary' })}`,
  );
  if (invoice.rectifies) doc.text(`Rectifica la factura ${invoice.rectifies} (devolución)`);
  if (invoice.patientName) doc.text(`Cliente: ${invoice.patientName}`);
  doc.moveDown(2);
  doc
    .fontSize(12)
    .text(invoice.description, 50, doc.y, { continued: true })
    .text(euros(invoice.totalCents, invoice.currency), { align: 'right' });
  doc.moveDown();
  doc.fontSize(11).text(`Base imponible: ${euros(invoice.baseCents, invoice.currency)}`);
  doc.text(`IVA (${invoice.vatRatePercent} %): ${euros(invoice.taxCents, invoice.currency)}`);
  if (invoice.exemptionText) doc.text(invoice.exemptionText);
  doc.fontSize(13).text(`Total: ${euros(invoice.totalCents, invoice.currency)}`);
  doc
    .fontSize(11)
    .text(`Forma de pago: ${PAYMENT_METHOD_LABELS[invoice.method as PaymentMethod] ?? invoice.method}`);
  doc
    .moveDown(2)
    .fontSize(7)
    .fillColor('#555')
    .text(`Huella: ${invoice.hash}`)
    .text(`Huella anterior: ${invoice.previousHash || '—'}`);
  doc.end();
  return done;
}
