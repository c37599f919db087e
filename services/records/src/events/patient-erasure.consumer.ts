import { userErased } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { RecordErasure } from '../data/record-erasure';

/** A patient erased their account: their records keep the clinical content under a pseudonym. */
export const patientErasureHandlers = (erasure: RecordErasure) =>
  [
    on(userErased, (event) => erasure.pseudonymise(event.data.userId, new Date(event.data.erasedAt))),
  ] as const;
