/**
 * One-time tokens travel in the path of e-mailed links (account confirmation, password reset and
 * invitation, a waiting-list offer, a kiosk code) and must reach neither traces nor logs (http-app.ts
 * re-exports it as redactUrl; it lives here so the SDK loads it before express). Query strings are
 * dropped: the route says enough.
 */
export function redactPath(url: string | undefined): string | undefined {
  return url
    ?.split('?')[0]
    ?.replace(
      /\/(confirmAccount|resetPassword|confirm-account|reset-password|offer|onboarding\/code)\/[^/]+/,
      '/$1/[redacted]',
    );
}

/** The URL attributes (old and stable conventions) the HTTP instrumentation sets from the path. */
export function redactedUrlAttributes(path: string | undefined, full?: string): Record<string, string> {
  const redacted = redactPath(path) ?? '';
  const attributes: Record<string, string> = { 'http.target': redacted, 'url.path': redacted };
  if (full) {
    const origin = /^[a-z]+:\/\/[^/]+/i.exec(full)?.[0] ?? '';
    attributes['http.url'] = `${origin}${redacted}`;
    attributes['url.full'] = `${origin}${redacted}`;
  }
  return attributes;
}
