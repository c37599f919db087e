import { Writable } from 'node:stream';
import { createLogger } from '../src/logger';
import { runWithCorrelationId } from '../src/request-context';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger('test', 'info', stream) };
}

describe('logger', () => {
  it('never writes passwords, tokens or clinical metadata', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'canary-password',
        body: {
          password: 'canary-password-2',
          sessiontoken: 'canary-token',
          metadata: { notes: 'canary-record' },
        },
        req: { headers: { authorization: 'Bearer canary-bearer', cookie: 'sid=canary-cookie' } },
      },
      'something happened',
    );
    const output = lines.join('');
    expect(output).toContain('something happened');
    expect(output).not.toMatch(/canary/);
  });

  it('adds the correlation id of the current request to every line', () => {
    const { lines, logger } = capture();
    runWithCorrelationId('req-123', () => logger.info('inside'));
    expect(JSON.parse(lines[0])).toMatchObject({ correlationId: 'req-123', service: 'test', msg: 'inside' });
  });
});

describe('request URL in logs', () => {
  it('hides one-time tokens and query strings', () => {
    const { redactUrl } = jest.requireActual('../src/http-app') as typeof import('../src/http-app');
    expect(redactUrl('/auth/confirmAccount/abcDEF123?x=1')).toBe('/auth/confirmAccount/[redacted]');
    expect(redactUrl('/auth/resetPassword/abcDEF123')).toBe('/auth/resetPassword/[redacted]');
    expect(redactUrl('/dates/offer/abcDEF123')).toBe('/dates/offer/[redacted]');
    expect(redactUrl('/dates/offer/abcDEF123/claim')).toBe('/dates/offer/[redacted]/claim');
    expect(redactUrl('/users?search=ana')).toBe('/users');
  });
});
