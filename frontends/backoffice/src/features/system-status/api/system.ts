import useSWR from 'swr';
import type { DeadLettersView, DeadLetterView, SystemStatusView } from '@crm/contracts';
import { api } from '@crm/web-kit';

export const STATUS_PATH = '/system/status';
export const DEAD_LETTERS_PATH = '/system/dead-letters';

/** GET /system/status (ADMIN): deployables, queues, outbox lag. Refreshed every 10 s. */
export const useSystemStatus = (enabled: boolean) =>
  useSWR<SystemStatusView>(enabled ? STATUS_PATH : null, () => api.get<SystemStatusView>(STATUS_PATH), {
    refreshInterval: 10_000,
  });

/** GET /system/dead-letters (ADMIN): every known queue's dead letters, names and ids only. */
export const useDeadLetters = (enabled: boolean) =>
  useSWR<DeadLettersView>(
    enabled ? DEAD_LETTERS_PATH : null,
    () => api.get<DeadLettersView>(DEAD_LETTERS_PATH),
    {
      refreshInterval: 10_000,
    },
  );

const actionPath = (letter: DeadLetterView, action: 'redeliver' | 'discard') =>
  `${DEAD_LETTERS_PATH}/${encodeURIComponent(letter.queue)}/${encodeURIComponent(letter.messageId)}/${action}`;

export const redeliverDeadLetter = (letter: DeadLetterView) => api.post(actionPath(letter, 'redeliver'), {});

export const discardDeadLetter = (letter: DeadLetterView, reason: string) =>
  api.post(actionPath(letter, 'discard'), { reason });
