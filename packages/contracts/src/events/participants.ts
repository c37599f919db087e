/**
 * The deployables that talk over the event bus. Each connects to RabbitMQ as a broker user of
 * exactly this name, so the `user_id` the broker validates on a message names the deployable that
 * sent it (docs/operations.md, "Broker users").
 */
export const BUS_PARTICIPANTS = [
  'auth',
  'appointments',
  'records',
  'rooms',
  'config',
  'audit',
  'reporting',
  'notifications',
  'payments',
  'gateway',
] as const;

export type BusParticipant = (typeof BUS_PARTICIPANTS)[number];

export const isBusParticipant = (value: string): value is BusParticipant =>
  (BUS_PARTICIPANTS as readonly string[]).includes(value);
