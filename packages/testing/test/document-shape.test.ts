import { Types } from 'mongoose';
import { documentShape } from '../src/document-shape';

describe('documentShape', () => {
  it('lists every field path, nested ones and those of array elements, values ignored', () => {
    const stored = {
      _id: new Types.ObjectId(),
      name: 'Lucía',
      user: { id: 'u1', phone: '34612345678' },
      dates: [new Date(), new Date()],
      outbox: [
        { id: 'e1', data: { a: 1 } },
        { id: 'e2', traceparent: 't' },
      ],
      at: new Date(),
      dueAt: null,
    };
    expect(documentShape(stored)).toEqual([
      '_id',
      'at',
      'dates',
      'dueAt',
      'name',
      'outbox',
      'outbox[].data',
      'outbox[].data.a',
      'outbox[].id',
      'outbox[].traceparent',
      'user',
      'user.id',
      'user.phone',
    ]);
  });

  it('tells documents apart by their fields only: an empty array is like a full one, a missing field is not', () => {
    expect(documentShape({ dates: [] })).toEqual(documentShape({ dates: [new Date()] }));
    expect(documentShape({ a: 1, b: { c: 'x' } })).toEqual(documentShape({ b: { c: 'y' }, a: 2 }));
    expect(documentShape({ a: 1, b: { c: 'x' } })).not.toEqual(documentShape({ a: 1, b: {} }));
  });

  it('leaves out the paths named in `omit`, with everything under them', () => {
    expect(
      documentShape({ a: 1, outbox: [{ id: 'e' }], outboxPending: true }, ['outbox', 'outboxPending']),
    ).toEqual(['a']);
    expect(documentShape({ user: { id: 'u', phone: '3461' } }, ['user.phone'])).toEqual(['user', 'user.id']);
  });
});
