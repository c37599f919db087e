import * as contracts from '../src';
import {
  ANY_QUEUE_PREFIX,
  auditEntryRecorded,
  brokerDefinitions,
  brokerPermissions,
  BUS_PARTICIPANTS,
  EVENT_CONTRACTS,
  eventContractNamed,
  participantAmqpUrl,
  userErased,
} from '../src';

const layout = { exchange: 'crm.events', queuePrefixPattern: 'crm' };
const matches = (regex: string, text: string) => new RegExp(regex).test(text);

describe('the event registry', () => {
  it('holds every event of the contracts, each with a publisher, all of them deployables', () => {
    const exported = (Object.values(contracts) as unknown[]).filter(
      (value): value is { name: string } =>
        typeof value === 'object' && value !== null && 'publishers' in value && 'schema' in value,
    );
    expect(EVENT_CONTRACTS.map((c) => c.name).sort()).toEqual(exported.map((c) => c.name).sort());
    expect(new Set(EVENT_CONTRACTS.map((c) => c.name)).size).toBe(EVENT_CONTRACTS.length);
    for (const contract of EVENT_CONTRACTS) {
      expect(contract.publishers.length).toBeGreaterThan(0);
      for (const party of [...contract.publishers, ...contract.consumers])
        expect(BUS_PARTICIPANTS).toContain(party);
    }
    expect(eventContractNamed('auth.user.erased.v1')).toBe(userErased);
  });
});

describe('broker permissions derived from the contracts', () => {
  it('lets a deployable publish only its own events: notifications may send its reminders, nothing of auth or audit', () => {
    const { topic, write } = brokerPermissions('notifications', layout);
    expect(matches(topic.write, 'notifications.reminder.due.v1')).toBe(true);
    expect(matches(topic.write, auditEntryRecorded.name)).toBe(false);
    expect(matches(topic.write, userErased.name)).toBe(false);
    expect(matches(topic.write, 'notifications.reminder.due.v1x')).toBe(false);
    expect(matches(write, 'crm.events')).toBe(true);
  });

  it('lets the trail entries come only from the services that record accesses, and erasures only from auth', () => {
    const mayPublish = (name: string) =>
      BUS_PARTICIPANTS.filter((p) => matches(brokerPermissions(p, layout).topic.write, name));
    expect(mayPublish(auditEntryRecorded.name)).toEqual([
      'auth',
      'appointments',
      'records',
      'config',
      'audit',
      'reporting', // an ADMIN's redelivery or discard of a dead letter ("Estado del sistema")
      'payments',
    ]);
    expect(mayPublish(userErased.name)).toEqual(['auth']);
  });

  it('lets a deployable bind only the events it consumes, and the gateway write nothing to the events exchange', () => {
    const gateway = brokerPermissions('gateway', layout);
    expect(matches(gateway.topic.read, 'config.view.updated.v1')).toBe(true);
    expect(matches(gateway.topic.read, auditEntryRecorded.name)).toBe(false);
    expect(matches(gateway.write, 'crm.events')).toBe(false);
    expect(matches(gateway.read, 'crm.events')).toBe(true);
  });

  it('confines configure, write and read to the deployable’s own queues and exchanges, never the default exchange', () => {
    const records = brokerPermissions('records', { ...layout, queuePrefixPattern: ANY_QUEUE_PREFIX });
    for (const own of [
      'crm.records.listing',
      'crm.records.listing.retry',
      'stack_x1_ab.records.view-config.copies',
    ])
      for (const regex of [records.configure, records.write, records.read])
        expect(matches(regex, own)).toBe(true);
    for (const other of [
      'crm.audit.entries',
      'crm.audit.records.x',
      'amq.default',
      '',
      'crm.events',
      'crm.recordsx.a',
    ])
      expect(matches(records.configure, other)).toBe(false);
    expect(matches(records.write, 'amq.default')).toBe(false);
  });
});

describe('broker definitions', () => {
  it('creates one user per deployable with its permissions, the events exchange and the audit queue bound to it', () => {
    const definitions = brokerDefinitions({
      ...layout,
      queuePrefix: 'crm',
      password: (participant) => `pw-${participant}`,
      admin: { name: 'crm', password: 'admin-pw' },
    });
    expect(definitions.users.map((u) => u.name)).toEqual(['crm', ...BUS_PARTICIPANTS]);
    expect(definitions.users.find((u) => u.name === 'audit')).toEqual({
      name: 'audit',
      password: 'pw-audit',
      tags: [],
    });
    expect(definitions.topic_permissions).toHaveLength(BUS_PARTICIPANTS.length);
    expect(definitions.exchanges.map((e) => e.name)).toEqual(['crm.events']);
    expect(definitions.queues.map((q) => q.name)).toEqual(['crm.audit.entries']);
    expect(definitions.bindings).toEqual([
      expect.objectContaining({
        source: 'crm.events',
        destination: 'crm.audit.entries',
        routing_key: auditEntryRecorded.name,
      }),
    ]);
  });

  it('builds each deployable’s URL from the operator’s, user and password replaced', () => {
    expect(participantAmqpUrl('amqp://guest:guest@127.0.0.1:5672/crm?heartbeat=5', 'audit', 'a-b_c')).toBe(
      'amqp://audit:a-b_c@127.0.0.1:5672/crm?heartbeat=5',
    );
  });
});
