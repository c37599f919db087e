import { z } from 'zod';
import { VIEW_NAME_PATTERN } from '../form-fields';

// The wire shape of a form configuration and its names, free of zod so that the browser can import them
// (`@crm/contracts/form-fields`); here, the schemas of the configuration service's queries.
export * from '../form-fields';

export const viewNameField = z
  .string({ error: 'La vista es obligatoria' })
  .regex(VIEW_NAME_PATTERN, 'Nombre de vista no válido');

/** `GET /config/view?view=<name>[&version=<n>]`: the current configuration, or an older version. */
export const viewQuery = z.object({
  view: viewNameField,
  version: z.coerce.number({ error: 'Versión no válida' }).int().min(1).max(1_000_000).optional(),
});

/** `PUT /config/view?view=<name>`. */
export const viewUpdateQuery = z.object({ view: viewNameField });
