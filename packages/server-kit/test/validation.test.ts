import { findOperatorKey } from '../src/validation';
import { toHttpError } from '../src/errors';
import { z } from 'zod';

describe('operator injection guard', () => {
  it.each([
    [{ email: { $ne: null } }, 'email.$ne'],
    [{ a: [{ b: { $gt: 1 } }] }, 'a.0.b.$gt'],
    [{ 'profile.rol': 'ADMIN' }, 'profile.rol'],
    [{ $where: 'sleep(1000)' }, '$where'],
  ])('finds the operator in %j', (input, path) => {
    expect(findOperatorKey(input)).toBe(path);
  });

  it('lets ordinary input through', () => {
    expect(findOperatorKey({ email: 'a@b.es', tags: ['x'], nested: { price: 3 } })).toBeUndefined();
  });
});

describe('error mapping', () => {
  it('turns zod issues into field errors', () => {
    const result = z.object({ email: z.email() }).safeParse({ email: 'nope' });
    const error = toHttpError(result.error);
    expect(error.status).toBe(400);
    expect(error.errors?.[0]?.field).toBe('email');
  });

  it('maps body parser failures to client errors', () => {
    expect(toHttpError(Object.assign(new Error('x'), { type: 'entity.too.large' })).status).toBe(413);
    expect(toHttpError(Object.assign(new Error('x'), { type: 'entity.parse.failed' })).status).toBe(400);
  });

  it('maps an unreachable database to 503 and anything unknown to a bare 500', () => {
    expect(toHttpError(Object.assign(new Error('x'), { name: 'MongoServerSelectionError' })).status).toBe(
      503,
    );
    const unknown = toHttpError(new Error('secret detail'));
    expect(unknown.status).toBe(500);
    expect(unknown.message).toBe('Internal server error');
  });
});
