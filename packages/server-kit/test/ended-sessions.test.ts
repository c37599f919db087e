import mongoose, { type Connection } from 'mongoose';
import { createEnvelope } from '@crm/event-bus';
import { sessionEnded, type EventData } from '@crm/contracts';
import { infrastructure, uniqueName } from '@crm/testing';
import type { AuthenticatedUser } from '../src/auth';
import { createEndedSessions } from '../src/service/ended-sessions';

let connection: Connection;

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('ended_sessions') })
    .asPromise();
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

const session = (id: string, tokenId: string, issuedAt: number): AuthenticatedUser => ({
  id,
  rol: 'DOCTOR',
  tokenId,
  issuedAt,
  expiresAt: issuedAt + 3600,
});
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

/** Delivers one `auth.session.ended.v1` to a replica's handler, as its consumer would. */
async function deliver(
  replica: ReturnType<typeof createEndedSessions>,
  data: EventData<typeof sessionEnded>,
) {
  const [binding] = replica.events;
  await binding[1](createEnvelope(sessionEnded, data, 'test') as never, {} as never);
}

describe('ended sessions, as every service keeps them', () => {
  const now = Math.floor(Date.now() / 1000);
  let first: ReturnType<typeof createEndedSessions>;
  let second: ReturnType<typeof createEndedSessions>;
  beforeAll(() => {
    [first, second] = [createEndedSessions(connection), createEndedSessions(connection)];
  });

  it('refuses a signed-out token, and every token of a user issued before its "valid after"', async () => {
    await deliver(first, { tokenId: 'signed-out', until: inAnHour() });
    await deliver(first, { userId: 'reset-user', validAfter: now, until: inAnHour() });
    expect(first.isSessionValid(session('someone', 'signed-out', now - 10))).toBe(false);
    expect(first.isSessionValid(session('someone', 'another-token', now - 10))).toBe(true);
    expect(first.isSessionValid(session('reset-user', 'old', now - 1))).toBe(false);
    expect(first.isSessionValid(session('reset-user', 'new', now))).toBe(true);
  });

  it('tells the other replicas through the database on their next look, and stores a redelivery once', async () => {
    expect(second.isSessionValid(session('someone', 'signed-out', now - 10))).toBe(true);
    await second.refresh.run();
    expect(second.isSessionValid(session('someone', 'signed-out', now - 10))).toBe(false);
    expect(second.isSessionValid(session('reset-user', 'old', now - 1))).toBe(false);
    await deliver(second, { tokenId: 'signed-out', until: inAnHour() });
    expect(await first.model.countDocuments({ tokenId: 'signed-out' })).toBe(1);
  });

  it('forgets facts once no token they concern can still be valid', async () => {
    const third = createEndedSessions(connection);
    await deliver(third, { tokenId: 'long-gone', until: new Date(Date.now() - 1000).toISOString() });
    await third.refresh.run();
    expect(third.isSessionValid(session('someone', 'long-gone', now - 7200))).toBe(true);
    expect(await third.model.countDocuments({ tokenId: 'long-gone' })).toBe(0);
  });
});
