import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { MongoCodeTries } from '../../services/appointments/src/data/code-tries.repository';
import { closureNoticeModel } from '../../services/appointments/src/data/closure-notice.model';
import { MongoPaymentHolds } from '../../services/appointments/src/data/payment-hold.repository';
import { appointmentModels } from '../../services/appointments/src/data/appointment.model';
import { waitlistModels } from '../../services/appointments/src/data/waitlist.model';
import { auditModels } from '../../services/audit/src/data/audit.models';
import { MongoSigningKeyStore } from '../../services/auth/src/data/signing-key.store';
import { userModels } from '../../services/auth/src/data/user.model';
import { centreVersionModel } from '../../services/config/src/data/centre-version.model';
import { viewVersionModel } from '../../services/config/src/data/view-version.model';
import { PatientAccessStore } from '../../services/notifications/src/data/patient-access.store';
import { reminderStore } from '../../services/notifications/src/reminders/reminder.store';
import { paymentsModels } from '../../services/payments/src/data/payments.models';
import { recordModels } from '../../services/records/src/data/record.models';
import { reportingModels } from '../../services/reporting/src/data/reporting.models';
import { reservationModels } from '../../services/rooms/src/data/reservation.model';
import { roomModel } from '../../services/rooms/src/data/room.model';

const root = join(__dirname, '..', '..');

/** Every model each service registers on its database (no connection is opened: schemas only). */
const SERVICES: Record<string, (connection: Connection) => void> = {
  appointments: (c) => {
    const models = appointmentModels(c);
    waitlistModels(c);
    closureNoticeModel(c);
    new MongoCodeTries(c, { maxTries: 1, windowMs: 1 });
    new MongoPaymentHolds(c, models);
  },
  audit: (c) => void auditModels(c),
  auth: (c) => {
    userModels(c);
    new MongoSigningKeyStore(c, undefined as never);
  },
  config: (c) => {
    centreVersionModel(c);
    viewVersionModel(c);
  },
  notifications: (c) => {
    reminderStore(c);
    new PatientAccessStore(c);
  },
  payments: (c) => void paymentsModels(c),
  records: (c) => void recordModels(c),
  reporting: (c) => void reportingModels(c),
  rooms: (c) => {
    reservationModels(c);
    roomModel(c);
  },
};

/** `{ kind: 1, date: 1, _id: 1 }`, as the READMEs write an index's keys. */
const keysOf = (fields: Record<string, unknown>) =>
  `{ ${Object.entries(fields)
    .map(([key, order]) => `${/^[\w$]+$/.test(key) ? key : `'${key}'`}: ${String(order)}`)
    .join(', ')} }`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The section "Indexes" of a README: its table rows, `collection` | `keys` | … */
function indexRows(readme: string): Set<string> {
  const start = readme.indexOf('\n## Indexes');
  if (start < 0) return new Set();
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, collection, keys, options]) => `${collection} ${keys} ${options}`);
  return new Set(rows);
}

describe('the "Indexes" table of each service README', () => {
  for (const [service, register] of Object.entries(SERVICES)) {
    it(`lists every index the ${service} schemas declare, and only those`, () => {
      const connection = mongoose.createConnection();
      register(connection);
      const declared = Object.values(connection.models).flatMap((model) =>
        model.schema.indexes().map(([fields, options]) => {
          const flags = (['unique', 'sparse'] as const).filter((flag) => options?.[flag]).join(', ');
          return `\`${model.collection.collectionName}\` \`${keysOf(fields)}\` ${flags}`;
        }),
      );
      const documented = indexRows(readFileSync(join(root, 'services', service, 'README.md'), 'utf8'));
      expect(declared.filter((index) => !documented.has(index))).toEqual([]);
      expect([...documented].filter((row) => !declared.includes(row))).toEqual([]);

      // A model added without being registered above would escape the check.
      const registered = sourceFiles(join(root, 'services', service, 'src')).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/connection\.model(?:<[^>]*>)?\('(\w+)'/g)].map((m) => m[1]),
      );
      expect(registered.filter((name) => !connection.models[name!])).toEqual([]);
    });
  }
});
