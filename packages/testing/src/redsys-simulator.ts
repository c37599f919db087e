import { createCipheriv, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long the simulator waits for the merchant's answer to a notification, and a test for a page. */
const NOTIFY_TIMEOUT_MS = 15_000;
const PAGE_TIMEOUT_MS = NOTIFY_TIMEOUT_MS + 10_000;

/**
 * A local stand-in for the Redsys card gateway (development, tests, `npm start`): the payment page
 * (test card accepted, card denied, Bizum, abandon), the signed server-to-server notification, the
 * redirect back, and the REST refund. It checks the merchant's signatures with its OWN implementation
 * of the protocol (Node's crypto), independent of the library the payments service signs with, so a
 * signing mistake there fails here.
 *
 * Protocol (Redsys "HMAC_SHA256_V1"): the order number, zero-padded to a multiple of 8 bytes, is
 * encrypted with 3DES-CBC (zero IV) under the terminal's key (base64 of 24 bytes): that is the
 * per-order key; the signature is HMAC-SHA256 of the base64 merchant parameters under it, in base64
 * (base64url in notifications and answers).
 */
export interface RedsysSimulatorOptions {
  secretKey: string;
  merchantCode: string;
  port?: number;
  host?: string;
}

export type SimulatedOutcome = 'card' | 'denied' | 'bizum' | 'abandon';

export interface SimulatedOrder {
  order: string;
  amountCents: number;
  status: 'open' | 'paid' | 'denied' | 'abandoned';
  refundsCents: number[];
  notifications: { status: number; outcome: SimulatedOutcome }[];
}

interface Session {
  params: Record<string, string>;
  order: string;
}

export interface RedsysSimulator {
  url: string;
  orders: Map<string, SimulatedOrder>;
  /** Signature failures seen (requests refused because our check disagreed). */
  refusedSignatures: number;
  /** Where notifications and redirects to an unresolvable public address (`http://crm.test`) really go. */
  routeTo(fromOrigin: string, toOrigin: string): void;
  /** The next `n` refund answers are lost after the refund is done (a crash or a cut connection). */
  loseRefundAnswers(n: number): void;
  /** What a browser does: posts the signed form, then presses a button. Returns where it is sent back. */
  pay(
    form: { url: string; Ds_SignatureVersion: string; Ds_MerchantParameters: string; Ds_Signature: string },
    outcome: SimulatedOutcome,
  ): Promise<{ status: number; location?: string; body: string }>;
  close(): Promise<void>;
}

const zeroPad = (text: string): Buffer => {
  const raw = Buffer.from(text, 'utf8');
  const size = Math.ceil(raw.length / 8) * 8 || 8;
  return Buffer.concat([raw, Buffer.alloc(size - raw.length)]);
};

/** 3DES-CBC, zero IV, no padding, of the order under the terminal key. */
export function redsysOrderKey(secretKey: string, order: string): Buffer {
  const cipher = createCipheriv('des-ede3-cbc', Buffer.from(secretKey, 'base64'), Buffer.alloc(8));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(zeroPad(order)), cipher.final()]);
}

export function redsysSignature(secretKey: string, order: string, merchantParameters: string): Buffer {
  return createHmac('sha256', redsysOrderKey(secretKey, order)).update(merchantParameters).digest();
}

const fromBase64Any = (text: string): Buffer =>
  Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');

const upperKeys = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).map(([key, value]) => [key.toUpperCase(), String(value)]));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export async function startRedsysSimulator(options: RedsysSimulatorOptions): Promise<RedsysSimulator> {
  const orders = new Map<string, SimulatedOrder>();
  const sessions = new Map<string, Session>();
  const routes = new Map<string, string>();
  let lostRefundAnswers = 0;

  const verify = (signed: {
    Ds_MerchantParameters?: string;
    Ds_Signature?: string;
    Ds_SignatureVersion?: string;
  }) => {
    if (
      signed.Ds_SignatureVersion !== 'HMAC_SHA256_V1' ||
      !signed.Ds_MerchantParameters ||
      !signed.Ds_Signature
    )
      return undefined;
    let params: Record<string, string>;
    try {
      params = upperKeys(
        JSON.parse(fromBase64Any(signed.Ds_MerchantParameters).toString('utf8')) as Record<string, unknown>,
      );
    } catch {
      return undefined;
    }
    const order = params.DS_MERCHANT_ORDER ?? '';
    if (!/^\d{4}[A-Za-z0-9]{0,8}$/.test(order)) return undefined;
    if (params.DS_MERCHANT_MERCHANTCODE !== options.merchantCode) return undefined;
    const expected = redsysSignature(options.secretKey, order, signed.Ds_MerchantParameters);
    const given = fromBase64Any(signed.Ds_Signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      simulator.refusedSignatures += 1;
      return undefined;
    }
    return params;
  };

  const sign = (params: Record<string, string>, order: string) => {
    const encoded = Buffer.from(JSON.stringify(params), 'utf8').toString('base64');
    return {
      Ds_SignatureVersion: 'HMAC_SHA256_V1',
      Ds_MerchantParameters: encoded,
      Ds_Signature: redsysSignature(options.secretKey, order, encoded).toString('base64url'),
    };
  };

  const rerouted = (address: string) => {
    const url = new URL(address);
    const target = routes.get(url.origin);
    return target ? `${target}${url.pathname}${url.search}` : address;
  };

  const notify = async (session: Session, outcome: SimulatedOutcome, record: SimulatedOrder) => {
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const params: Record<string, string> = {
      Ds_Date: encodeURIComponent(
        `${pad(now.getUTCDate())}/${pad(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`,
      ),
      Ds_Hour: encodeURIComponent(`${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}`),
      Ds_SecurePayment: '1',
      Ds_Amount: session.params.DS_MERCHANT_AMOUNT ?? '0',
      Ds_Currency: session.params.DS_MERCHANT_CURRENCY ?? '978',
      Ds_Order: session.order,
      Ds_MerchantCode: options.merchantCode,
      Ds_Terminal: session.params.DS_MERCHANT_TERMINAL ?? '1',
      Ds_Response: outcome === 'denied' ? '0190' : '0000',
      Ds_TransactionType: '0',
      Ds_MerchantData: '',
      Ds_AuthorisationCode: outcome === 'denied' ? '' : String(100000 + Math.floor(Math.random() * 899999)),
      Ds_ConsumerLanguage: '1',
      Ds_ProcessedPayMethod: outcome === 'bizum' ? '68' : '1',
    };
    const target = session.params.DS_MERCHANT_MERCHANTURL;
    if (!target) return;
    // Bounded, like the real gateway's: a merchant that does not answer is recorded as status 0.
    const response = await fetch(rerouted(target), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(sign(params, session.order)).toString(),
      signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
    }).catch(() => undefined);
    record.notifications.push({ status: response?.status ?? 0, outcome });
  };

  const page = (res: ServerResponse, status: number, title: string, body: string) => {
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}button{display:block;width:100%;margin:.5rem 0;padding:.8rem;font-size:1rem}</style></head>` +
        `<body><h1>${title}</h1>${body}</body></html>`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ status: 'ok', simulator: 'redsys' }));
    }
    if (req.method === 'POST' && url.pathname === '/sis/realizarPago') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const params = verify(form);
      if (!params)
        return page(res, 400, 'Error SIS0042', '<p>Error en el cálculo de la firma (SIS0042).</p>');
      const order = params.DS_MERCHANT_ORDER!;
      const known = orders.get(order);
      if (known && known.status !== 'open' && known.status !== 'abandoned')
        return page(res, 400, 'Error SIS0051', '<p>Pedido repetido (SIS0051).</p>');
      orders.set(
        order,
        known ?? {
          order,
          amountCents: Number(params.DS_MERCHANT_AMOUNT),
          status: 'open',
          refundsCents: [],
          notifications: [],
        },
      );
      const id = randomUUID();
      sessions.set(id, { params, order });
      const amount = (Number(params.DS_MERCHANT_AMOUNT) / 100).toFixed(2).replace('.', ',');
      const button = (outcome: SimulatedOutcome, label: string) =>
        `<form method="post" action="/sis/pagar"><input type="hidden" name="session" value="${id}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit">${label}</button></form>`;
      return page(
        res,
        200,
        'Pasarela de pago (simulador Redsys)',
        `<p>Pedido ${escapeHtml(order)} — Importe: <strong>${amount} €</strong></p><p>${escapeHtml(params.DS_MERCHANT_PRODUCTDESCRIPTION ?? '')}</p>` +
          button('card', 'Pagar con la tarjeta de prueba') +
          button('denied', 'Tarjeta denegada') +
          button('bizum', 'Pagar con Bizum') +
          button('abandon', 'Cancelar y volver al comercio'),
      );
    }
    if (req.method === 'POST' && url.pathname === '/sis/pagar') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const session = sessions.get(form.session ?? '');
      const outcome = form.outcome as SimulatedOutcome;
      if (!session || !['card', 'denied', 'bizum', 'abandon'].includes(outcome))
        return page(res, 400, 'Sesión caducada', '<p>La sesión de pago no existe.</p>');
      sessions.delete(form.session!);
      const record = orders.get(session.order)!;
      record.status = outcome === 'abandon' ? 'abandoned' : outcome === 'denied' ? 'denied' : 'paid';
      if (outcome !== 'abandon') await notify(session, outcome, record);
      const back =
        outcome === 'card' || outcome === 'bizum'
          ? session.params.DS_MERCHANT_URLOK
          : session.params.DS_MERCHANT_URLKO;
      res.writeHead(303, { Location: back ? rerouted(back) : '/' });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/sis/rest/trataPeticionREST') {
      const text = await readBody(req);
      let signed: Record<string, string> = {};
      try {
        signed = JSON.parse(text) as Record<string, string>;
      } catch {
        // Not JSON: refused below like a bad signature.
      }
      const params = verify(signed);
      const answer = (body: unknown) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (!params) return answer({ errorCode: 'SIS0042' });
      const order = params.DS_MERCHANT_ORDER!;
      const record = orders.get(order);
      if (params.DS_MERCHANT_TRANSACTIONTYPE !== '3') return answer({ errorCode: 'SIS0054' });
      if (!record || record.status !== 'paid') return answer({ errorCode: 'SIS0059' });
      const amount = Number(params.DS_MERCHANT_AMOUNT);
      const refunded = record.refundsCents.reduce((sum, cents) => sum + cents, 0);
      if (!Number.isSafeInteger(amount) || amount <= 0 || refunded + amount > record.amountCents)
        return answer({ errorCode: 'SIS0057' });
      record.refundsCents.push(amount);
      if (lostRefundAnswers > 0) {
        lostRefundAnswers -= 1;
        req.socket.destroy();
        return;
      }
      return answer(
        sign(
          {
            Ds_Amount: String(amount),
            Ds_Currency: params.DS_MERCHANT_CURRENCY ?? '978',
            Ds_Order: order,
            Ds_MerchantCode: options.merchantCode,
            Ds_Terminal: params.DS_MERCHANT_TERMINAL ?? '1',
            Ds_Response: '0900',
            Ds_AuthorisationCode: randomBytes(3).toString('hex'),
            Ds_TransactionType: '3',
            Ds_SecurePayment: '0',
            Ds_Language: '1',
            Ds_MerchantData: '',
          },
          order,
        ),
      );
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  const simulator: RedsysSimulator = {
    url: base,
    orders,
    refusedSignatures: 0,
    routeTo(fromOrigin, toOrigin) {
      routes.set(new URL(fromOrigin).origin, toOrigin.replace(/\/$/, ''));
    },
    loseRefundAnswers(n) {
      lostRefundAnswers = n;
    },
    async pay(form, outcome) {
      const { url, ...fields } = form;
      const pageResponse = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
      });
      const html = await pageResponse.text();
      const session = /name="session" value="([^"]+)"/.exec(html)?.[1];
      if (pageResponse.status !== 200 || !session) return { status: pageResponse.status, body: html };
      const choice = await fetch(`${base}/sis/pagar`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ session, outcome }).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
      });
      return {
        status: choice.status,
        location: choice.headers.get('location') ?? undefined,
        body: await choice.text(),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return simulator;
}
