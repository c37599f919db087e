import type { Role } from '@crm/contracts';
import { hostileTokens } from '@crm/testing';
import type { Stack } from './stack';

export type CallerKind = 'anonymous' | Role;
/** The callers of every matrix, in the order of a row's statuses. */
export const CALLER_KINDS: readonly CallerKind[] = [
  'anonymous',
  'PACIENT',
  'DOCTOR',
  'ADMIN',
  'SERVICE_ACCOUNT',
];

type Method = 'get' | 'post' | 'put' | 'delete';
type Statuses = [anonymous: number, pacient: number, doctor: number, admin: number, service: number];
/** One call and the status each kind of caller gets (CALLER_KINDS order); writes send `body` or {}. */
export type MatrixRow = [method: Method, path: string, statuses: Statuses, body?: unknown];

/**
 * Every row × every kind of caller, each its own test: the expected status, always as JSON. The
 * rows send bodies and ids that change nothing, so the order of the cases does not matter.
 */
export function describeAuthorizationMatrix(
  title: string,
  rows: MatrixRow[],
  context: () => { stack: Stack; tokens: Record<Role, string> },
): void {
  const cases = rows.flatMap(([method, path, statuses, body]) =>
    CALLER_KINDS.map((caller, i) => {
      const label = `${method.toUpperCase()} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`;
      return [label, caller, method, path, statuses[i]!, body] as const;
    }),
  );
  describe(title, () => {
    it.each(cases)('%s as %s', async (_label, caller, method, path, status, body) => {
      const { stack, tokens } = context();
      const token = caller === 'anonymous' ? undefined : tokens[caller];
      const response =
        method === 'get' || method === 'delete'
          ? await stack.api[method](path, token)
          : await stack.api[method](path, body ?? {}, token);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
    });
  });
}

/**
 * The forged and stale tokens the gateway and every service refuse, sent by `send` as `user`'s:
 * tampered, alg none and without exp answer 401 Unauthorized; expired answers 401 TokenExpiredError.
 */
export function itRefusesHostileTokens(
  user: () => { id: string; rol: Role },
  send: (token: string) => Promise<{ status: number; body: unknown }>,
): void {
  it.each([
    ['tampered', () => hostileTokens.tampered(user())],
    ['alg none', () => hostileTokens.algNone(user())],
    ['without exp', () => hostileTokens.withoutExpiry(user())],
  ])('answers 401 Unauthorized to a %s token', async (_label, make) => {
    expect(await send(make())).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('answers 401 TokenExpiredError to an expired token', async () => {
    expect(await send(hostileTokens.expired(user()))).toMatchObject({
      status: 401,
      body: { message: 'TokenExpiredError' },
    });
  });
}
