import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import { isDuplicateKey } from '@crm/server-kit';

/**
 * Inserts one version document, with its event (if any) in the same single-document write (the
 * outbox, see @crm/event-bus). Versions are append-only and the document's unique `_id` names the
 * version, so exactly one writer creates each: resolves false when another got there first.
 */
export async function insertVersion(
  model: { create(document: object): Promise<unknown> },
  fields: { _id: unknown },
  event: EventEnvelope | undefined,
  onEventWritten: () => void,
): Promise<boolean> {
  try {
    await model.create(event ? withOutbox(fields, event) : fields);
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
  if (event) onEventWritten();
  return true;
}
