import { serviceUnavailable, unauthorized } from './errors';
import { currentCorrelationId } from './request-context';

/**
 * A call to another service with the caller's own token (so that service applies its own rules) and
 * this request's correlation id: GET, or POST of `body` as JSON. A network failure or timeout is 503;
 * a 401 is the caller's (e.g. a signed-out session the auth service knows about). Other answers are
 * the client's to interpret.
 */
export async function callService(
  baseUrl: string,
  path: string,
  caller: { bearerToken: string },
  timeoutMs: number,
  body?: object,
): Promise<Response> {
  const correlationId = currentCorrelationId();
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${caller.bearerToken}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(correlationId ? { 'x-request-id': correlationId } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
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

/** `callService` without a body: a GET. */
export const getFromService = (
  baseUrl: string,
  path: string,
  caller: { bearerToken: string },
  timeoutMs: number,
): Promise<Response> => callService(baseUrl, path, caller, timeoutMs);

/** The JSON body, or 503 when the other service answered something unreadable. */
export async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw serviceUnavailable();
  }
}
