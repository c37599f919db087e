import { listenForMessages } from '@crm/testing';
import type { SystemStack } from './system-stack';

/**
 * The one-time code the kiosk asks for an account (`POST /users/onboarding/code`), read from the
 * event that carries it to the e-mail worker (for stacks without one; the e-mail itself is checked
 * where the worker runs).
 */
export async function kioskCodeFromEvent(
  stack: Pick<SystemStack, 'api' | 'amqpUrl' | 'exchange'>,
  kioskToken: string,
  email: string,
): Promise<string> {
  const events = await listenForMessages<{ data: { email: string; token: string } }>(
    stack.amqpUrl,
    stack.exchange,
    'auth.onboardingCode.requested.v1',
  );
  try {
    const asked = await stack.api.post('/users/onboarding/code', { email }, kioskToken);
    if (asked.status !== 202) throw new Error(`code request answered ${asked.status}`);
    return (await events.waitFor((message) => message.body.data.email === email)).body.data.token;
  } finally {
    await events.close();
  }
}
