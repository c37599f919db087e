import { serviceUnavailable, unauthorized } from './errors';
import { currentCorrelationId } from './request-context';

/**
 * GET on another service with the caller's own token (so that service applies its own rules) and
 * this request's correlation id. A network failure or timeout is 503; a 401 is the caller's (e.g. a
 * signed-out session the auth service knows about). Other answers are the client's to interpret.
 */
export async function getFromService(
  baseUrl: string,
  path: string,
  caller: { bearerToken: string },
  timeoutMs: number,
): Promise<Response> {
  const correlationId = currentCorrelationId();
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${caller.bearerToken}`,
        ...(correlationId ? { 'x-request-id': correlationId } : {}),
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw serviceUnavailable();
  }
  if (response.status === 401) {
    await response.body?.cancel();
    throw unauthorized();
  }
  return response;
}

/** The JSON body, or 503 when the other service answered something unreadable. */
export async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw serviceUnavailable();
  }
}
