import type { Invoice } from './invoice';

/**
 * Where an invoice record stands with the tax agency (VERI*FACTU). `not-configured`: no submission
 * is set up; the record is kept, chained and fingerprinted, ready to be sent once one is. A real
 * adapter would start records at `pending` and move them to `accepted` / `rejected` (with the
 * agency's code) as it sends them.
 */
export type SubmissionStatus = 'not-configured' | 'pending' | 'accepted' | 'rejected';

export interface InvoiceSubmission {
  status: SubmissionStatus;
  /** When the agency answered (accepted or rejected). */
  at?: Date;
  /** The agency's error code of a rejected record. */
  code?: string;
}

/**
 * The port to the tax agency: what state a new record starts in (stored with it, never waiting on
 * the network) and how records are sent. The records are insert-only: a submission's state lives
 * beside the record, outside what its fingerprint covers.
 */
export interface InvoiceSubmitter {
  /** `off`, or the agency environment it sends to. */
  readonly mode: string;
  /** The state stored with every new record. */
  initial(): InvoiceSubmission;
  /** Sends records (an issue record, `RegistroAlta`, for each invoice and rectifying invoice). */
  submit(records: readonly Invoice[]): Promise<InvoiceSubmission[]>;
}

/** `VERIFACTU_MODE=off`: nothing is sent; every record says so and stays ready. */
export const notConfiguredSubmitter: InvoiceSubmitter = {
  mode: 'off',
  initial: () => ({ status: 'not-configured' }),
  submit: async (records) => records.map(() => ({ status: 'not-configured' as const })),
};
