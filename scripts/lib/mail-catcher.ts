/**
 * Fallback SMTP catcher, used by infra-up only when Mailpit cannot be built (no Go, the build
 * failed, or MAIL_CATCHER=node). smtp-server speaks SMTP and mailparser decodes MIME; this file only
 * keeps the last 2000 messages in memory and serves, in Mailpit's JSON shape, the part of its HTTP
 * API our tests use (routes in handle()): list and search (to:"a@b", cc:, bcc:, from:, subject:,
 * free text), one message with Text/HTML/Attachments, a part's content, the raw message, delete.
 * Run: node --import tsx scripts/lib/mail-catcher.ts --smtp 127.0.0.1:1025 --listen 127.0.0.1:8025
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { buffer, text } from 'node:stream/consumers';
import { simpleParser, type AddressObject, type Attachment, type EmailAddress } from 'mailparser';
import { SMTPServer } from 'smtp-server';

type Address = { Name: string; Address: string };
type StoredMail = Awaited<ReturnType<typeof parse>>;

const MAX_MESSAGES = 2000; // same bound as infra's `mailpit --max 2000`: memory stays flat on long runs
const store: StoredMail[] = []; // newest first
const MESSAGE_ROUTE = /^GET \/api\/v1\/message\/([^/]+)(?:\/(raw)|\/part\/([^/]+))?$/;

/** mailparser gives one object per header line, groups nested; Mailpit gives one flat list. */
function addresses(field: AddressObject | AddressObject[] | undefined): Address[] {
  const flat = (list: EmailAddress[]): EmailAddress[] => list.flatMap((a) => (a.group ? flat(a.group) : [a]));
  const objects = field === undefined ? [] : [field].flat();
  return objects.flatMap((o) => flat(o.value)).map((a) => ({ Name: a.name, Address: a.address ?? '' }));
}

function partInfo(a: Attachment): Record<string, unknown> {
  const { partId: PartID = '', filename: FileName = '', contentType: ContentType, size: Size } = a;
  return { PartID, FileName, ContentType, ContentID: (a.contentId ?? '').replace(/^<|>$/g, ''), Size };
}

/** Works out both JSON views of a message once, when it arrives: they never change afterwards. */
async function parse(raw: Buffer, envelopeTo: string[]) {
  const m = await simpleParser(raw);
  const [To, Cc] = [addresses(m.to), addresses(m.cc)];
  const From = addresses(m.from)[0] ?? { Name: '', Address: '' };
  // Envelope recipients missing from To/Cc were Bcc'd: Mailpit lists them as Bcc too.
  const shown = new Set([...To, ...Cc].map((a) => a.Address.toLowerCase()));
  const Bcc = envelopeTo.filter((a) => !shown.has(a.toLowerCase())).map((a) => ({ Name: '', Address: a }));
  const ID = randomBytes(16).toString('base64url');
  const MessageID = (m.messageId ?? '').replace(/^<|>$/g, '');
  const [ReplyTo, Subject, Size, Tags] = [addresses(m.replyTo), m.subject ?? '', raw.length, []];
  const head = { ID, MessageID, From, To, Cc, Bcc, ReplyTo, Subject, Size, Tags };
  const [Text, HTML, Created] = [m.text ?? '', m.html || '', new Date().toISOString()];
  // Mailpit lists parts embedded in the HTML (multipart/related) as Inline, the rest as Attachments.
  const Inline = m.attachments.filter((a) => a.related).map(partInfo);
  const Attachments = m.attachments.filter((a) => !a.related).map(partInfo);
  const Snippet = Text.replace(/\s+/g, ' ').trim().slice(0, 250);
  const sent = m.date?.toISOString() ?? Created;
  return {
    summary: { ...head, Created, Read: false, Attachments: Attachments.length, Snippet },
    details: { ...head, ReturnPath: From.Address, Date: sent, Text, HTML, Inline, Attachments },
    parts: m.attachments,
    raw,
  };
}

function keep(mail: StoredMail): StoredMail {
  store.unshift(mail);
  if (store.length > MAX_MESSAGES) store.length = MAX_MESSAGES;
  return mail;
}

/** Mailpit-like search: to:"a@b", from:x, subject:"y" and free-text terms, all of which must match. */
function matches({ details: d }: StoredMail, query: string): boolean {
  const list = (a: Address[]): string => a.map((x) => `${x.Name} <${x.Address}>`).join(', ');
  // Like Mailpit, to: searches the To header only.
  const f = { to: list(d.To), cc: list(d.Cc), bcc: list(d.Bcc), from: list([d.From]), subject: d.Subject };
  return [...query.matchAll(/(?:(\w+):)?(?:"([^"]*)"|(\S+))/g)].every(([term, field = '', quoted, bare]) => {
    const key = field.toLowerCase() as keyof typeof f;
    // An unknown prefix (e.g. "http:") is plain text, searched whole in the subject and body.
    const [haystack, needle] = Object.hasOwn(f, key)
      ? [f[key], quoted ?? bare]
      : [`${d.Subject}\n${d.Text}`, term.replace(/"/g, '')];
    return haystack.toLowerCase().includes(needle.toLowerCase());
  });
}

function page(list: StoredMail[], url: URL): Record<string, unknown> {
  const start = Math.max(0, Number(url.searchParams.get('start')) || 0);
  const limit = Math.max(1, Number(url.searchParams.get('limit')) || 50);
  const messages = list.slice(start, start + limit).map((m) => m.summary);
  const [total, count, n] = [store.length, messages.length, list.length];
  return { total, unread: total, count, messages_count: n, messages_unread: n, start, tags: [], messages };
}

/** Strings and buffers go out as they are (with `type`), anything else as JSON. */
function send(res: http.ServerResponse, status: number, body: object | string, type = 'text/plain'): void {
  const asIs = typeof body === 'string' || Buffer.isBuffer(body);
  res.writeHead(status, { 'content-type': asIs ? type : 'application/json' });
  res.end(asIs ? body : JSON.stringify(body));
}

function remove(drop: (m: StoredMail) => boolean, res: http.ServerResponse): void {
  store.splice(0, store.length, ...store.filter((m) => !drop(m)));
  send(res, 200, 'ok');
}

/** DELETE /api/v1/messages body: {"IDs": [...]}; none or empty means all, as in Mailpit. */
async function deleteMessages(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const ids = await text(req)
    .then((body) => (JSON.parse(body || '{}') as { IDs?: string[] }).IDs ?? [])
    .catch(() => null);
  if (!ids) return send(res, 400, { message: 'invalid JSON' });
  remove((m) => !ids.length || ids.includes(m.details.ID), res);
}

function getMessage(route: string, res: http.ServerResponse): void {
  const [, id, raw, partId] = MESSAGE_ROUTE.exec(route) ?? [];
  if (!id) return send(res, 404, { message: 'not found' });
  const mail = id === 'latest' ? store[0] : store.find((m) => m.details.ID === decodeURIComponent(id));
  const part = partId && mail?.parts.find((a) => a.partId === decodeURIComponent(partId));
  if (!mail || (partId && !part)) return send(res, 404, `${mail ? 'part' : 'message'} not found`);
  if (part) return send(res, 200, part.content, part.contentType);
  send(res, 200, raw ? mail.raw : mail.details);
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://catcher');
  const route = `${req.method} ${url.pathname.replace(/\/+$/, '')}`;
  const hit = (m: StoredMail): boolean => matches(m, url.searchParams.get('query') ?? '');
  if (/^GET \/(readyz|livez)$/.test(route)) return send(res, 200, 'ok');
  if (route === 'GET /api/v1/messages') return send(res, 200, page(store, url));
  if (route === 'GET /api/v1/search') return send(res, 200, page(store.filter(hit), url));
  if (route === 'GET /api/v1/info')
    return send(res, 200, { Version: 'mail-catcher', Messages: store.length });
  if (route === 'DELETE /api/v1/search') return remove(hit, res);
  if (route === 'DELETE /api/v1/messages') return deleteMessages(req, res);
  getMessage(route, res);
}

function createSmtp(): SMTPServer {
  return new SMTPServer({
    logger: false,
    // Mailpit without a certificate offers no STARTTLS; offering smtp-server's built-in self-signed
    // one would make clients upgrade and then reject it.
    disabledCommands: ['STARTTLS'],
    authOptional: true, // like Mailpit: mail without AUTH is accepted...
    allowInsecureAuth: true, // ...and AUTH over plain TCP too (`--smtp-auth-allow-insecure`)
    authMethods: ['PLAIN', 'LOGIN', 'CRAM-MD5'],
    // Any credentials are fine, like `--smtp-auth-accept-any`.
    onAuth: (auth, _session, done) => done(null, { user: auth.username ?? 'any' }),
    size: 50 * 1024 * 1024,
    closeTimeout: 1000, // stopping should not wait 30 s for idle clients
    onData: (stream, session, done) => {
      const rcpts = session.envelope.rcptTo.map((r) => r.address);
      void buffer(stream).then((raw) => {
        // smtp-server only flags an oversized message; refusing it is up to us.
        if (stream.sizeExceeded) return done(Object.assign(new Error('Too big'), { responseCode: 552 }));
        return parse(raw, rcpts).then((m) => done(null, `Ok: queued as ${keep(m).details.ID}`), done);
      }, done);
    },
  });
}

async function listen(server: net.Server, addr: string): Promise<number> {
  const i = addr.lastIndexOf(':');
  const host = addr.slice(0, i).replace(/^\[|\]$/g, '') || '127.0.0.1';
  await once(server.listen(Number(addr.slice(i + 1)), host), 'listening'); // rejects on 'error'
  return (server.address() as net.AddressInfo).port;
}

export type RunningCatcher = { smtpPort: number; httpPort: number; close(): Promise<void> };

/** Starts the catcher; port 0 picks free ports (see smtpPort/httpPort). */
export async function startMailCatcher(smtpAddr: string, httpAddr: string): Promise<RunningCatcher> {
  const smtp = createSmtp();
  // A client that drops mid-session is reported here; it must not bring the catcher down.
  smtp.on('error', (err) => console.error(`mail-catcher: SMTP: ${String(err)}`));
  const web = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  const [smtpPort, httpPort] = [await listen(smtp.server, smtpAddr), await listen(web, httpAddr)];
  const close = async (): Promise<void> => {
    web.closeAllConnections();
    await Promise.all([new Promise<void>((r) => smtp.close(r)), new Promise((r) => web.close(r))]);
  };
  return { smtpPort, httpPort, close };
}

// Nothing to flush on exit (all is in memory), so SIGTERM from infra-down keeps its default effect,
// and a failure to listen (port taken) is an unhandled rejection: it is printed and exits with 1.
if (require.main === module) {
  const arg = (name: string, fallback: string): string =>
    (process.argv.includes(name) && process.argv[process.argv.indexOf(name) + 1]) || fallback;
  const [smtpAddr, httpAddr] = [arg('--smtp', '127.0.0.1:1025'), arg('--listen', '127.0.0.1:8025')];
  void startMailCatcher(smtpAddr, httpAddr).then(() => {
    console.log(`mail-catcher: SMTP on ${smtpAddr}, Mailpit-compatible API on http://${httpAddr}`);
  });
}
