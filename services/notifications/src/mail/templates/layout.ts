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

const BRAND = 'Centro de Reconocimiento Médico';

/**
 * The branded shell every e-mail shares: table layout and inline styles, because mail clients
 * ignore most CSS. `paragraphs` are plain text (escaped here); `action` is an optional button.
 */
export function brandedEmail(options: {
  subject: string;
  greetingName: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footnote?: string;
}): Email {
  const { subject, greetingName, paragraphs, action, footnote } = options;
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#0b5d8f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(action.label)}</a></p>
       <p style="margin:0 0 16px;font-size:13px;color:#555">Si el botón no funciona, copia este enlace en tu navegador:<br><span style="word-break:break-all">${escapeHtml(action.url)}</span></p>`
    : '';
  const html = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f2f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2b36">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">
<tr><td style="background:#0b5d8f;color:#ffffff;padding:20px 28px;border-radius:8px 8px 0 0;font-size:20px;font-weight:bold">${BRAND}</td></tr>
<tr><td style="padding:28px;font-size:15px;line-height:1.5">
<p style="margin:0 0 16px">Hola ${escapeHtml(greetingName)},</p>
${body}${button}
${footnote ? `<p style="margin:16px 0 0;font-size:13px;color:#555">${escapeHtml(footnote)}</p>` : ''}
</td></tr>
<tr><td style="padding:16px 28px;font-size:12px;color:#777;border-top:1px solid #e5e9ec">${BRAND} · Este es un mensaje automático, por favor no respondas a este correo.</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    `Hola ${greetingName},`,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(footnote ? [footnote, ''] : []),
    `-- ${BRAND}`,
  ].join('\n');
  return { subject, html, text };
}
