import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { MailCatcher } from '../../packages/testing/src/mail-catcher';
import { startMailCatcher, type RunningCatcher } from './mail-catcher';

// Ports are picked free (port 0), never 1025/8025 where a real Mailpit may be running.
const CALENDAR = 'BEGIN:VCALENDAR\r\nSUMMARY:Revisión médica\r\nEND:VCALENDAR\r\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const LONG = `Hola Pepé, confirma: http://127.0.0.1:8080/confirm?token=${'abc'.repeat(40)}`;

interface Message {
  ID: string;
  From: { Name: string; Address: string };
  To: Array<{ Name: string; Address: string }>;
  Bcc: Array<{ Name: string; Address: string }>;
  Subject: string;
  Text: string;
  HTML: string;
  Attachments: Array<{ PartID: string; FileName: string; ContentType: string }>;
  Inline: Array<{ PartID: string; ContentID: string }>;
}

describe('mail catcher over SMTP and HTTP', () => {
  let catcher: RunningCatcher;
  let api: string;
  const getJson = async <T>(url: string): Promise<T> => (await (await fetch(`${api}${url}`)).json()) as T;
  const search = async (query: string): Promise<string[]> =>
    (
      await getJson<{ messages: Array<{ ID: string }> }>(`/search?query=${encodeURIComponent(query)}`)
    ).messages.map((m) => m.ID);

  beforeAll(async () => {
    catcher = await startMailCatcher('127.0.0.1:0', '127.0.0.1:0');
    api = `http://127.0.0.1:${catcher.httpPort}/api/v1`;
  });
  afterAll(() => catcher.close());
  beforeEach(() => fetch(`${api}/messages`, { method: 'DELETE' }));

  function send(auth?: { user: string; pass: string }): Promise<{ response: string }> {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.smtpPort, auth });
    return transport.sendMail({
      from: '"Centro de Reconocimiento Médico" <citas@example.test>',
      to: '"Núñez, Pepe" <pepe@x.test>, ana@x.test',
      bcc: 'hidden@x.test',
      subject: 'Confirma tu cuenta ✓',
      text: LONG,
      html: '<p>Hola Pepé</p><img src="cid:logo@crm">',
      attachments: [
        // As services/notifications sends it.
        {
          filename: 'cita ñ.ics',
          content: CALENDAR,
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo@crm' },
      ],
    });
  }

  it('accepts any login, decodes the message and serves it in Mailpit JSON', async () => {
    const { response } = await send({ user: 'anyone', pass: 'anything' });
    // Read it the way the services' tests do (packages/testing), then check the rest of the shape.
    const reader = new MailCatcher(`http://127.0.0.1:${catcher.httpPort}`);
    const [caught] = await reader.waitForMessagesTo('pepe@x.test');
    const id = caught.ID;
    expect(response).toContain(`queued as ${id}`);
    expect(await reader.attachment(id, caught.Attachments[0].PartID)).toBe(CALENDAR);

    const message = await getJson<Message>(`/message/${id}`);
    expect(message.From).toEqual({ Name: 'Centro de Reconocimiento Médico', Address: 'citas@example.test' });
    expect(message.To).toEqual([
      { Name: 'Núñez, Pepe', Address: 'pepe@x.test' },
      { Name: '', Address: 'ana@x.test' },
    ]);
    expect(message.Bcc).toEqual([{ Name: '', Address: 'hidden@x.test' }]);
    expect(message.Subject).toBe('Confirma tu cuenta ✓');
    expect(message.Text.trim()).toBe(LONG); // quoted-printable soft line breaks undone
    expect(message.HTML).toContain('<p>Hola Pepé</p>');
    expect(message.Attachments).toEqual([
      expect.objectContaining({ FileName: 'cita ñ.ics', ContentType: 'text/calendar' }),
    ]);
    expect(message.Inline).toEqual([expect.objectContaining({ ContentID: 'logo@crm' })]);
    expect((await getJson<Message>('/message/latest')).ID).toBe(id);

    const part = await fetch(`${api}/message/${id}/part/${message.Attachments[0].PartID}`);
    expect(part.headers.get('content-type')).toContain('text/calendar');
    expect(await part.text()).toBe(CALENDAR);
    const inline = await fetch(`${api}/message/${id}/part/${message.Inline[0].PartID}`);
    expect(Buffer.from(await inline.arrayBuffer())).toEqual(PNG);
    expect(await (await fetch(`${api}/message/${id}/raw`)).text()).toMatch(/^Subject: =\?UTF-8\?/m);
    expect((await fetch(`${api}/message/nope`)).status).toBe(404);
  });

  it('needs no login, searches like Mailpit and deletes by ID, by search or all', async () => {
    await send();
    await send({ user: 'u', pass: 'p' });
    expect(await search('to:"pepe@x.test"')).toHaveLength(2);
    expect(await search('to:"hidden@x.test"')).toEqual([]); // like Mailpit, to: is the To header only
    expect(await search('bcc:hidden@x.test from:"citas@example.test" subject:confirma')).toHaveLength(2);
    expect(await search('confirm?token pepé')).toHaveLength(2);
    expect(await search('other')).toEqual([]);

    const [newest, oldest] = await search('');
    await fetch(`${api}/messages`, { method: 'DELETE', body: JSON.stringify({ IDs: [newest] }) });
    expect(await search('')).toEqual([oldest]);
    expect((await fetch(`${api}/messages`, { method: 'DELETE', body: '{' })).status).toBe(400);
    await fetch(`${api}/search?query=${encodeURIComponent('to:"pepe@x.test"')}`, { method: 'DELETE' });
    expect((await getJson<{ total: number }>('/messages')).total).toBe(0);
  });
});

describe('mail catcher command line (as infra.ts starts it)', () => {
  function freePort(): Promise<number> {
    return new Promise((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
  }

  it('listens on --smtp and --listen, and ends on SIGTERM', async () => {
    const [smtpPort, httpPort] = [await freePort(), await freePort()];
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(__dirname, 'mail-catcher.ts'),
        '--smtp',
        `127.0.0.1:${smtpPort}`,
        '--listen',
        `127.0.0.1:${httpPort}`,
      ],
      { cwd: path.join(__dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    try {
      // The "listening" line, or an early exit (which then fails the sendMail below).
      await Promise.race([new Promise((resolve) => child.stdout.once('data', resolve)), exited]);
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, secure: false });
      await transport.sendMail({ from: 'a@x.test', to: 'b@x.test', subject: 'cli', text: 'hi' });
      const list = await fetch(`http://127.0.0.1:${httpPort}/api/v1/messages`);
      expect(((await list.json()) as { total: number }).total).toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe('SIGTERM');
  });
});
