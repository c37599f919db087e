import * as appointments from './appointments.events';
import * as audit from './audit.events';
import * as auth from './auth.events';
import * as config from './config.events';
import type { EventContract } from './envelope';
import * as notifications from './notifications.events';
import * as payments from './payments.events';
import * as records from './records.events';
import * as rooms from './rooms.events';

const isEventContract = (value: unknown): value is EventContract =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as EventContract).name === 'string' &&
  Array.isArray((value as EventContract).publishers) &&
  Array.isArray((value as EventContract).consumers) &&
  typeof (value as EventContract).schema?.safeParse === 'function';

/**
 * Every event of the product, read from the modules that define them (not a list of events: a new
 * event in one of them cannot be missing; a new module must be added here, which
 * test/broker-access.test.ts checks): the broker permissions are derived from it (broker-access.ts).
 */
export const EVENT_CONTRACTS: readonly EventContract[] = [
  appointments,
  audit,
  auth,
  config,
  notifications,
  payments,
  records,
  rooms,
]
  .flatMap((module) => Object.values(module).filter(isEventContract))
  .sort((a, b) => a.name.localeCompare(b.name));

const byName = new Map(EVENT_CONTRACTS.map((contract) => [contract.name, contract]));

/** The product's contract of an event name (routing key), if there is one. */
export const eventContractNamed = (name: string): EventContract | undefined => byName.get(name);
