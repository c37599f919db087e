import { z } from 'zod';
import { defineEvent } from './envelope';

/** An admin stored a new version of a view's form configuration; caches of that view are stale. */
export const configViewUpdated = defineEvent(
  'config.view.updated.v1',
  z.object({ view: z.string().min(1).max(100), version: z.number().int().min(1) }),
  {
    publishers: ['config'],
    consumers: ['gateway', 'records'],
  },
);

/** An admin stored a new version of the centre profile; caches of `GET /config/centre` are stale. */
export const configCentreUpdated = defineEvent(
  'config.centre.updated.v1',
  z.object({ version: z.number().int().min(1) }),
  {
    publishers: ['config'],
    consumers: ['appointments', 'gateway', 'notifications', 'payments', 'reporting'],
  },
);
