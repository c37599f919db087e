import type { Request, Response } from 'express';
import {
  DEAD_LETTER_ID_PATTERN,
  discardDeadLetterSchema,
  GATEWAY_STATUS_HEADER,
  redeliverDeadLetterSchema,
  SYSTEM_QUEUE_PATTERN,
  type DeadLetterView,
} from '@crm/contracts';
import { notFound, zodToHttpError, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { DeadLetterAction } from '@crm/event-bus';
import type { SystemStatus } from './system-status';

const UNKNOWN_QUEUE = 'Cola desconocida';
const GONE = 'El mensaje ya no está en la cola de mensajes fallidos';

/** A known consumer queue of the path, else 404 (the same answer for a malformed name). */
async function knownQueue(system: SystemStatus, value: unknown): Promise<string> {
  const queue = typeof value === 'string' ? value : '';
  if (!SYSTEM_QUEUE_PATTERN.test(queue) || !(await system.isKnown(queue))) throw notFound(UNKNOWN_QUEUE);
  return queue;
}

function reasonOf(req: Request, action: DeadLetterAction): string | undefined {
  const schema = action === 'discard' ? discardDeadLetterSchema : redeliverDeadLetterSchema;
  const parsed = schema.safeParse(req.body ?? {});
  if (!parsed.success) throw zodToHttpError(parsed.error);
  return parsed.data.reason;
}

/**
 * `/system/…` (ADMIN, reporting service): the status, the dead letters, and redeliver / discard.
 * Each action is recorded in the access trail (who, which message, the reason) once the message is
 * found and before it is acted on; a message no longer there is 404 (a second redelivery).
 */
export function systemHandlers(system: SystemStatus, audit: AuditTrail) {
  const act = (action: DeadLetterAction) => async (req: Request, res: Response) => {
    const queue = await knownQueue(system, req.params.queue);
    const messageId = String(req.params.messageId ?? '');
    if (!DEAD_LETTER_ID_PATTERN.test(messageId)) throw notFound(GONE);
    const reason = reasonOf(req, action);
    const done = await system.act(queue, messageId, action, (summary) =>
      audit.recordRequest(req, {
        action: `system.dead-letter.${action}`,
        resource: 'dead-letter',
        resourceId: `${queue}/${summary.messageId}`,
        ...(reason ? { reason } : {}),
      }),
    );
    if (!done) throw notFound(GONE);
    const body: { action: DeadLetterAction; deadLetter: DeadLetterView } = { action, deadLetter: done };
    res.json(body);
  };
  return {
    'GET /system/status': async (req, res) => {
      const header = req.headers[GATEWAY_STATUS_HEADER];
      res.setHeader('Cache-Control', 'no-store');
      res.json(await system.status(typeof header === 'string' ? header : undefined));
    },
    'GET /system/dead-letters': async (req, res) => {
      const queue = req.query.queue === undefined ? undefined : await knownQueue(system, req.query.queue);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ deadLetters: await system.deadLetters(queue) });
    },
    'POST /system/dead-letters/:queue/:messageId/redeliver': act('redeliver'),
    'POST /system/dead-letters/:queue/:messageId/discard': act('discard'),
  } satisfies Partial<RouteHandlers<'reporting'>>;
}
