/**
 * What the compose checks are pointed at, and how each check reports: one printed line per step
 * and a result the orchestration can tabulate.
 */

export type StaffName = 'admin' | 'doctor' | 'kiosk';

export interface ComposeTarget {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080. */
  gatewayUrl: string;
  /** Mailpit's HTTP API base, e.g. http://127.0.0.1:8025. */
  mailApiUrl: string;
  /** The bootstrap staff passwords (compose: the secrets volume's BOOTSTRAP_*_PASSWORD). */
  staffPasswords: Record<StaffName, string>;
  /** Defaults: admin@crm.local, doctor@crm.local, kiosk@crm.local. */
  staffEmails?: Record<StaffName, string>;
  /**
   * Authenticator secrets of staff who have a second factor. Filled in by the checks when a sign-in
   * makes them enrol (MFA_REQUIRED_ROLES), so later sign-ins with the same target object pass it.
   */
  totpSecrets?: Partial<Record<StaffName, string>>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

export const DEFAULT_STAFF_EMAILS: Record<StaffName, string> = {
  admin: 'admin@crm.local',
  doctor: 'doctor@crm.local',
  kiosk: 'kiosk@crm.local',
};

export const staffEmail = (t: ComposeTarget, who: StaffName): string =>
  (t.staffEmails ?? DEFAULT_STAFF_EMAILS)[who];

/**
 * Runs one step, prints `✓ name — detail (ms)` or `✗ name — error (ms)`, and adds its result to
 * `results`. A failed step throws on, with the step's name in the message.
 */
export async function step<T>(
  results: CheckResult[],
  name: string,
  run: () => Promise<{ value: T; detail: string }>,
): Promise<T> {
  const started = Date.now();
  try {
    const { value, detail } = await run();
    const result = { name, ok: true, detail, ms: Date.now() - started };
    results.push(result);
    console.log(`✓ ${name} — ${detail} (${result.ms} ms)`);
    return value;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const result = { name, ok: false, detail, ms: Date.now() - started };
    results.push(result);
    console.log(`✗ ${name} — ${detail} (${result.ms} ms)`);
    throw new Error(`${name}: ${detail}`, { cause: error });
  }
}
