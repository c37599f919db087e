import type { AppointmentUser } from '@crm/contracts';

export type Patient = AppointmentUser;

/** How to ask the auth service about a patient: with the caller's own token, as themself or as staff. */
export interface PatientLookup {
  bearerToken: string;
  /** A patient asking about themself (`/auth/currentUser`), else staff or the kiosk (`/users/:id`). */
  self: boolean;
}

/** The read model of patients, fed by auth events and by lookups at request time. */
export interface PatientReadModel {
  find(id: string): Promise<Patient | undefined>;
  /**
   * Stores the patient as known at `asOf`, unless a newer version is stored already. True when
   * stored. `confirmed`: whether their e-mail is confirmed, when the news says (left as it was if not).
   */
  save(patient: Patient, asOf: Date, confirmed?: boolean): Promise<boolean>;
  /** Of these patients, those known to have an unconfirmed e-mail address. */
  unconfirmedAmong(ids: readonly string[]): Promise<Set<string>>;
}

/** The auth service, for patients the read model has not seen yet (event lag). */
export interface PatientSource {
  fetch(id: string, lookup: PatientLookup): Promise<Patient | undefined>;
}

/** Finds a patient in the read model, else asks the auth service and remembers the answer. */
export class PatientDirectory {
  constructor(
    private readonly readModel: Pick<PatientReadModel, 'find' | 'save'>,
    private readonly source: PatientSource,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The read model's copy only: for work done outside a request, with no token to ask auth with. */
  known(id: string): Promise<Patient | undefined> {
    return this.readModel.find(id);
  }

  async find(id: string, lookup: PatientLookup): Promise<Patient | undefined> {
    const known = await this.readModel.find(id);
    if (known) return known;
    const asOf = this.clock();
    const fetched = await this.source.fetch(id, lookup);
    if (fetched) await this.readModel.save(fetched, asOf);
    return fetched;
  }
}
