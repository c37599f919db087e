/**
 * Authenticator codes as the staff's phone app makes them (otplib, as the auth service checks them).
 * The server accepts each 30-second step once per account, so a code is never given twice: the next
 * one waits for (or looks one step ahead to) a fresh step.
 */
import { authenticator } from 'otplib';
import { sleep } from '@crm/testing';

const STEP_MS = 30_000;
const lastStepUsed = new Map<string, number>();

/** A code of a step this process has not used yet for the secret: now's, else the next one's. */
export async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / STEP_MS);
    const last = lastStepUsed.get(secret) ?? -1;
    // The server accepts one step either side of its own.
    const step = Math.max(now, last + 1);
    if (step <= now + 1) {
      lastStepUsed.set(secret, step);
      return authenticator.clone({ epoch: step * STEP_MS }).generate(secret);
    }
    await sleep(STEP_MS - (Date.now() % STEP_MS) + 50);
  }
}
