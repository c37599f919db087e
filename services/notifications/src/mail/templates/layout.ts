import { formatPhone, type CentreProfileData } from '@crm/contracts';

/** Escapes text for HTML: names and dates come from users and must never become markup. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export interface Email {
  subject: string;
  html: string;
  text: string;
}

/** What an e-mail shows of the centre: the current centre profile (config service). */
export type MailCentre = Pick<
  CentreProfileData,
  'brandName' | 'subtitle' | 'address' | 'phone' | 'email' | 'prices'
>;

/** "+34 928 123 456" for the centre's stored phone. */
export const centrePhone = (centre: MailCentre): string => formatPhone(centre.phone);

/**
 * The branded shell every e-mail shares: table layout and inline styles, because mail clients
 * ignore most CSS; a viewport and a fluid 600 px column so that it reads on a phone. The brand,
 * address and phone come from the centre profile. `paragraphs` are plain text (escaped here);
 * `action` is an optional button. The texts address the patient as "usted", like the site.
 */
export function brandedEmail(
  centre: MailCentre,
  options: {
    subject: string;
    greetingName: string;
    paragraphs: string[];
    action?: { label: string; url: string };
    footnote?: string;
    /**
     * A code to show large after the paragraphs (the booking code, the kiosk's one-time code), with
     * an image by its content id (`cid:`) when the e-mail carries one (the booking code's QR code).
     */
    code?: { label: string; value: string; imageCid?: string };
  },
): Email {
  const { subject, greetingName, paragraphs, action, footnote, code } = options;
  const phone = centrePhone(centre);
  const contact = `${centre.address} · Tel. ${phone} · ${centre.email}`;
  const body =
    paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('') +
    (code ? codeBox(code) : '');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#0b5d8f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(action.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#555">Si el botón no funciona, copie este enlace en su navegador:<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : '';
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f2f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2b36">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:8px">
<tr><td style="background:#0b5d8f;color:#ffffff;padding:20px 24px;border-radius:8px 8px 0 0"><div style="font-size:20px;font-weight:bold">${escapeHtml(centre.brandName)}</div><div style="font-size:14px;margin-top:4px">${escapeHtml(centre.subtitle)}</div></td></tr>
<tr><td style="padding:24px;font-size:16px;line-height:1.5">
<p style="margin:0 0 16px">Hola ${escapeHtml(greetingName)}:</p>
${body}${button}
${footnote ? `<p style="margin:16px 0 0;font-size:13px;color:#555">${escapeHtml(footnote)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;line-height:1.5;color:#777;border-top:1px solid #e5e9ec">${escapeHtml(centre.brandName)} · ${escapeHtml(contact)}<br>Si responde a este correo, su mensaje llegará al centro.</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    `Hola ${greetingName}:`,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(code ? [`${code.label}: ${code.value}`, ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(footnote ? [footnote, ''] : []),
    `-- ${centre.brandName} · ${centre.subtitle}`,
    contact,
  ].join('\n');
  return { subject, html, text };
}

/** The code, large and spaced, in a framed box; its image (QR) below it when there is one. */
function codeBox(code: { label: string; value: string; imageCid?: string }): string {
  const image = code.imageCid
    ? `<div style="margin-top:12px"><img src="cid:${escapeHtml(code.imageCid)}" width="160" height="160" alt="Código QR de ${escapeHtml(code.value)}" style="display:inline-block;border:0"></div>`
    : '';
  return `<div style="margin:0 0 16px;padding:16px;border:2px solid #0b5d8f;border-radius:8px;text-align:center">
<div style="font-size:14px;color:#555">${escapeHtml(code.label)}</div>
<div style="font-family:'Courier New',Courier,monospace;font-size:32px;font-weight:bold;letter-spacing:6px;color:#1d2b36">${escapeHtml(code.value)}</div>${image}</div>`;
}
