import { randomUUID } from 'node:crypto';
import {
  appointmentBooked,
  appointmentCancelled,
  appointmentDeleted,
  appointmentRescheduled,
  CENTRE_PROFILE_SEED,
  type CentreProfileData,
} from '@crm/contracts';
import { createEnvelope, type HandlerContext } from '@crm/event-bus';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { appointmentMailHandlers } from '../src/events/appointment-mail.consumer';
import { buildIcs, escapeIcsText, foldLine } from '../src/mail/ics';
import type { Mailer, OutgoingMail } from '../src/mail/mailer';
import { BOOKING_CODE_QR_CID, formatAppointmentDate } from '../src/mail/templates/appointment.templates';

/**
 * Whether a PNG shows the QR code of `text`: each module of the symbol the library encodes for the
 * text (at the error correction the e-mails use) is dark exactly where the picture is dark.
 */
function pictureEncodes(png: Buffer, text: string): boolean {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const image = PNG.sync.read(png);
  const margin = 2;
  const scale = image.width / (modules.size + 2 * margin);
  for (let row = 0; row < modules.size; row++)
    for (let col = 0; col < modules.size; col++) {
      const x = Math.floor((col + margin + 0.5) * scale);
      const y = Math.floor((row + margin + 0.5) * scale);
      const dark = image.data[(y * image.width + x) * 4]! < 128;
      if (dark !== Boolean(modules.get(row, col))) return false;
    }
  return true;
}

const unfold = (ics: string) => ics.replace(/\r\n /g, '');

describe('appointment dates in e-mails (es-ES, 24 h, Atlantic/Canary)', () => {
  it.each([
    ['2026-11-23T09:15:00Z', 'lunes, 23 de noviembre de 2026, 09:15'],
    ['2027-06-14T08:15:00Z', 'lunes, 14 de junio de 2027, 09:15'],
    ['2027-03-26T18:45:00Z', 'viernes, 26 de marzo de 2027, 18:45'],
    ['2027-03-29T18:45:00Z', 'lunes, 29 de marzo de 2027, 19:45'],
  ])('formats %s as "%s"', (instant, text) => {
    expect(formatAppointmentDate(new Date(instant))).toBe(text);
  });
});

describe('calendar file', () => {
  const entry = {
    uid: 'appointment-abc@crm.events',
    start: new Date('2026-11-23T09:15:00Z'),
    durationMinutes: 15,
    summary: 'Cita en Reconocimientos Triana',
    description: 'Reconocimiento médico; traiga su DNI, gafas o lentillas\ny el permiso actual.',
    location: 'Avenida de Prueba 7, 35010 Villa de Ensayo',
    organizer: { name: 'Reconocimientos Triana', email: 'citas@example.test' },
    stamp: new Date('2026-11-22T04:00:00.123Z'),
    method: 'PUBLISH' as const,
    sequence: 0,
  };

  it('uses CRLF line endings only, and no line longer than 75 octets', () => {
    const ics = buildIcs(entry);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line, 'utf8') <= 75)).toBe(true);
  });

  it('publishes a 15-minute event in UTC with a stable UID, the centre and the escaped texts', () => {
    const lines = unfold(buildIcs(entry)).split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'METHOD:PUBLISH',
        'BEGIN:VEVENT',
        'UID:appointment-abc@crm.events',
        'DTSTAMP:20261122T040000Z',
        'DTSTART:20261123T091500Z',
        'DTEND:20261123T093000Z',
        'STATUS:CONFIRMED',
        'SEQUENCE:0',
        'LOCATION:Avenida de Prueba 7\\, 35010 Villa de Ensayo',
        'DESCRIPTION:Reconocimiento médico\\; traiga su DNI\\, gafas o lentillas\\ny el permiso actual.',
        'ORGANIZER;CN="Reconocimientos Triana":mailto:citas@example.test',
        'END:VEVENT',
        'END:VCALENDAR',
      ]),
    );
  });

  it('cancels with the same UID and a higher sequence', () => {
    const lines = unfold(buildIcs({ ...entry, method: 'CANCEL', sequence: 1 })).split('\r\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'METHOD:CANCEL',
        'UID:appointment-abc@crm.events',
        'STATUS:CANCELLED',
        'SEQUENCE:1',
      ]),
    );
  });

  it('folds without splitting a multi-byte character', () => {
    const folded = foldLine(`SUMMARY:${'ñ'.repeat(100)}`);
    expect(folded.split('\r\n ').join('')).toBe(`SUMMARY:${'ñ'.repeat(100)}`);
    expect(
      folded.split('\r\n').every((line) => Buffer.byteLength(line) <= 75 && !line.includes('\uFFFD')),
    ).toBe(true);
    expect(escapeIcsText('a\\b')).toBe('a\\\\b');
  });
});

describe('appointment e-mails', () => {
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = { send: async (mail) => void sent.push(mail), close: () => undefined };
  /** The profile as the worker read it from the config service. */
  const centre: CentreProfileData = {
    ...CENTRE_PROFILE_SEED,
    brandName: 'Clínica Vegueta',
    senderName: 'Citas Clínica Vegueta',
    address: 'Calle Obispo Codina 3, 35001 Las Palmas de Gran Canaria',
  };
  const handlers = new Map<string, (event: never, context: HandlerContext) => unknown>(
    appointmentMailHandlers(mailer, 'http://crm.test', {
      current: async () => centre,
    }).map(([contract, handler]) => [
      contract.name,
      handler as (event: never, context: HandlerContext) => unknown,
    ]),
  );
  const context: HandlerContext = { queue: 'q', attempt: 1, redelivered: false };
  const data = (rol: 'PACIENT' | 'DOCTOR' | 'ADMIN') => ({
    id: 'a1',
    date: '2026-11-23T09:15:00.000Z',
    pacientId: 'p1',
    user: { id: 'p1', name: 'Lucía <b>Hernández</b>', email: 'lucia@example.test' },
    channel: 'patient' as const,
    by: { id: rol === 'PACIENT' ? 'p1' : 's1', rol },
  });
  beforeEach(() => (sent.length = 0));

  it('confirms a booking to the patient, from the profile and with its calendar file, the event id as message id', async () => {
    const event = createEnvelope(appointmentBooked, data('PACIENT'), randomUUID());
    await handlers.get(appointmentBooked.name)!(event as never, context);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail).toMatchObject({
      to: 'lucia@example.test',
      senderName: 'Citas Clínica Vegueta',
      subject: 'Cita confirmada: lunes, 23 de noviembre de 2026, 09:15',
      messageId: `<${event.id}@crm.events>`,
    });
    expect(mail!.text).toContain(
      'Lugar: Clínica Vegueta, Calle Obispo Codina 3, 35001 Las Palmas de Gran Canaria.',
    );
    expect(mail!.html).toContain('Lucía &lt;b&gt;Hernández&lt;/b&gt;');
    expect(mail!.html).toContain('http://crm.test/user');
    expect(mail!.attachments).toEqual([
      {
        filename: 'cita.ics',
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: expect.stringContaining('UID:appointment-a1@crm.events'),
      },
    ]);
    const ics = unfold(String(mail!.attachments![0]!.content)).split('\r\n');
    expect(ics).toEqual(
      expect.arrayContaining([
        `ORGANIZER;CN="Citas Clínica Vegueta":mailto:${centre.email}`,
        'LOCATION:Calle Obispo Codina 3\\, 35001 Las Palmas de Gran Canaria',
        'SUMMARY:Cita en Clínica Vegueta',
      ]),
    );
  });

  it('prints the booking code with its QR code, an inline image, in the confirmation and in a move', async () => {
    const booked = createEnvelope(appointmentBooked, { ...data('PACIENT'), bookingCode: 'KXR4T7' }, 'b');
    const moved = createEnvelope(
      appointmentRescheduled,
      {
        ...data('PACIENT'),
        id: 'a2',
        bookingCode: 'MW93PA',
        previous: { id: 'a1', date: '2026-11-22T09:15:00.000Z' },
        calendar: { uid: 'a1', sequence: 1 },
      },
      'm',
    );
    await handlers.get(appointmentBooked.name)!(booked as never, context);
    await handlers.get(appointmentRescheduled.name)!(moved as never, context);
    for (const [mail, code] of [
      [sent[0]!, 'KXR4T7'],
      [sent[1]!, 'MW93PA'],
    ] as const) {
      expect(mail.text).toContain(`Código de su cita: ${code}`);
      expect(mail.text).toContain('Al llegar, escriba en el quiosco de la entrada su correo electrónico');
      expect(mail.html).toContain(code);
      expect(mail.html).toContain(`src="cid:${BOOKING_CODE_QR_CID}"`);
      const qr = mail.attachments!.find((file) => file.cid === BOOKING_CODE_QR_CID)!;
      expect(qr).toMatchObject({ contentType: 'image/png', filename: 'codigo-cita.png' });
      expect(pictureEncodes(qr.content as Buffer, code)).toBe(true);
      expect(pictureEncodes(qr.content as Buffer, code === 'KXR4T7' ? 'MW93PA' : 'KXR4T7')).toBe(false);
      expect(mail.attachments!.some((file) => file.filename === 'cita.ics')).toBe(true);
    }
    expect(sent[1]!.text).toContain('Es un código nuevo: el de la cita anterior ya no sirve.');
  });

  it('shows no code box when an event has no booking code (written before codes existed)', async () => {
    await handlers.get(appointmentBooked.name)!(
      createEnvelope(appointmentBooked, data('PACIENT'), 'b') as never,
      context,
    );
    expect(sent[0]!.text).not.toContain('Código de su cita');
    expect(sent[0]!.html).not.toContain('cid:');
    expect(sent[0]!.attachments).toHaveLength(1);
  });

  it('words a cancellation by the patient and by the centre differently', async () => {
    await handlers.get(appointmentCancelled.name)!(
      createEnvelope(appointmentCancelled, data('PACIENT'), 'c') as never,
      context,
    );
    await handlers.get(appointmentCancelled.name)!(
      createEnvelope(appointmentCancelled, data('DOCTOR'), 'c') as never,
      context,
    );
    expect(sent.map((m) => m.subject)).toEqual([
      'Cita cancelada: lunes, 23 de noviembre de 2026, 09:15',
      'Cita cancelada: lunes, 23 de noviembre de 2026, 09:15',
    ]);
    expect(sent[0]!.text).toContain('como nos ha pedido');
    expect(sent[1]!.text).toContain('El centro ha cancelado su cita');
    expect(sent.map((m) => m.senderName)).toEqual(['Citas Clínica Vegueta', 'Citas Clínica Vegueta']);
    expect(sent[1]!.attachments![0]!.content).toContain('METHOD:CANCEL');
  });

  it('tells a kiosk walk-in only that they are registered: no calendar file, no "Si no puede acudir"', async () => {
    const walkIn = {
      ...data('DOCTOR'),
      by: { id: 'k1', rol: 'SERVICE_ACCOUNT' as const },
      channel: 'kiosk' as const,
    };
    await handlers.get(appointmentBooked.name)!(
      createEnvelope(appointmentBooked, walkIn, 'w') as never,
      context,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Registrado en el centro');
    expect(sent[0]!.text).toContain('para ser atendido hoy a partir de las 09:15');
    expect(sent[0]!.text).not.toContain('Si no puede acudir');
    expect(sent[0]!.subject).not.toContain('Cita confirmada');
    expect(sent[0]!.attachments).toBeUndefined();
  });

  it('words the later appointment given up at the kiosk ("be seen now") as brought forward, not cancelled by the centre', async () => {
    const swapped = {
      ...data('PACIENT'),
      by: { id: 'k1', rol: 'SERVICE_ACCOUNT' as const },
      replacedBy: 'w1',
    };
    await handlers.get(appointmentCancelled.name)!(
      createEnvelope(appointmentCancelled, swapped, 'c') as never,
      context,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Cita adelantada: lunes, 23 de noviembre de 2026, 09:15');
    expect(sent[0]!.text).toContain('Como ha elegido en el centro ser atendido ahora');
    expect(sent[0]!.text).not.toContain('El centro ha cancelado');
    expect(sent[0]!.attachments![0]!.content).toContain('METHOD:CANCEL');
  });

  it('tells the patient when the centre deleted the appointment', async () => {
    await handlers.get(appointmentDeleted.name)!(
      createEnvelope(appointmentDeleted, data('ADMIN'), 'c') as never,
      context,
    );
    expect(sent[0]).toMatchObject({
      subject: 'Cita anulada: lunes, 23 de noviembre de 2026, 09:15',
      to: 'lucia@example.test',
    });
  });

  it("moves the calendar entry on a reschedule (same UID, the event's sequence), and sends nothing for the cancellation it made", async () => {
    const moved = {
      ...data('PACIENT'),
      id: 'a2',
      date: '2026-11-24T10:00:00.000Z',
      previous: { id: 'a1', date: '2026-11-23T09:15:00.000Z' },
      calendar: { uid: 'a1', sequence: 1 },
    };
    await handlers.get(appointmentCancelled.name)!(
      createEnvelope(appointmentCancelled, { ...data('PACIENT'), rescheduledTo: 'a2' }, 'c') as never,
      context,
    );
    await handlers.get(appointmentRescheduled.name)!(
      createEnvelope(appointmentRescheduled, moved, 'c') as never,
      context,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Cita cambiada: martes, 24 de noviembre de 2026, 10:00');
    expect(sent[0]!.text).toContain('en lugar del lunes, 23 de noviembre de 2026, 09:15');
    const ics = unfold(String(sent[0]!.attachments![0]!.content)).split('\r\n');
    expect(ics).toEqual(
      expect.arrayContaining([
        'METHOD:PUBLISH',
        'UID:appointment-a1@crm.events',
        'SEQUENCE:1',
        'DTSTART:20261124T100000Z',
      ]),
    );
    // The moved appointment cancelled later: the same entry, one sequence more.
    await handlers.get(appointmentCancelled.name)!(
      createEnvelope(appointmentCancelled, { ...moved, calendar: { uid: 'a1', sequence: 1 } }, 'c') as never,
      context,
    );
    const cancelIcs = unfold(String(sent[1]!.attachments![0]!.content)).split('\r\n');
    expect(cancelIcs).toEqual(
      expect.arrayContaining(['METHOD:CANCEL', 'UID:appointment-a1@crm.events', 'SEQUENCE:2']),
    );
  });

  it("says whether a cancellation is refunded, with the profile's window", async () => {
    for (const refundable of [true, false])
      await handlers.get(appointmentCancelled.name)!(
        createEnvelope(appointmentCancelled, { ...data('PACIENT'), refundable }, 'c') as never,
        context,
      );
    const hours = centre.prices.refundWindowHours;
    expect(sent[0]!.text).toContain(
      `Como ha cancelado con más de ${hours} horas de antelación, le devolveremos el importe pagado.`,
    );
    expect(sent[1]!.text).toContain(
      `Como faltaban menos de ${hours} horas para la cita, el importe pagado no se devuelve.`,
    );
  });
});
