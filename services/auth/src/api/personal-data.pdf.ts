import PDFDocument from 'pdfkit';
import { CENTRE_TIME_ZONE, type PersonalDataExport } from '@crm/contracts';

const STATUS_LABELS: Record<string, string> = {
  booked: 'Reservada',
  checkedIn: 'Llegada registrada',
  attended: 'Atendida',
  noShow: 'No presentada',
  cancelled: 'Cancelada',
  deleted: 'Eliminada',
};

const when = new Intl.DateTimeFormat('es-ES', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: CENTRE_TIME_ZONE,
});
const at = (iso: string) => when.format(new Date(iso));

/**
 * "Descargar mis datos" as a readable PDF: the same content as the JSON export, in
 * Spanish, times in the centre's zone. Built in memory (a patient's data is a few pages).
 */
export function personalDataPdf(data: PersonalDataExport): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: 'Mis datos personales' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const heading = (text: string) =>
    doc.moveDown().font('Helvetica-Bold').fontSize(14).text(text).moveDown(0.3);
  const line = (label: string, value: string) =>
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${label}: `, { continued: true })
      .font('Helvetica')
      .text(value);

  doc.font('Helvetica-Bold').fontSize(18).text('Mis datos personales');
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`Copia generada el ${at(data.exportedAt)} (hora de Canarias).`);

  heading('Perfil');
  line('Nombre', data.profile.name);
  line('Correo electrónico', data.profile.email);
  line('Teléfono', data.profile.phone ?? '—');
  line('Cuenta creada', at(data.profile.createdAt));
  line('Correo confirmado', data.profile.confirmed ? 'Sí' : 'No');

  heading(`Citas (${data.appointments.length})`);
  if (data.appointments.length === 0) doc.font('Helvetica').fontSize(10).text('Ninguna.');
  for (const appointment of data.appointments)
    line(at(appointment.date), STATUS_LABELS[appointment.status] ?? appointment.status);

  heading(`Registros clínicos (${data.records.length})`);
  if (data.records.length === 0) doc.font('Helvetica').fontSize(10).text('Ninguno.');
  for (const record of data.records) {
    doc
      .moveDown(0.5)
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`Reconocimiento del ${at(record.date)} — ${record.doctor}`);
    for (const field of record.fields) line(field.label, field.value);
  }
  doc.end();
  return done;
}
