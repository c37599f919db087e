/**
 * Authenticator codes (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits, base32 secret), as the
 * staff's phone app makes them. The server accepts each step once per account, so a code is never
 * given twice: the next one waits for (or looks one step ahead to) a fresh step.
 */
import { createHmac } from 'node:crypto';

const STEP_MS = 30_000;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Bytes(secret: string): Buffer {
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error('the authenticator secret is not base32');
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

export function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Bytes(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

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
      return totpAt(secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, STEP_MS - (Date.now() % STEP_MS) + 50));
  }
}
