import type { Paged } from './paging';
import { z } from 'zod';
import type { FieldType, ParseOutput, PriceType } from './config';
import { FIELD_NAME_PATTERN } from './config';
import { objectIdField, pageQuery } from './fields';

/**
 * One metadata entry as the client sends it (docs/product/clinical-records.md#payloads): the form sends
 * `{label, type, parseOutput, name, value, priceType?}` per field; only `value` counts. The server
 * takes label, type, parseOutput, priceType, selectedLabel and currency from the configuration, and
 * computes NET and GROSS itself.
 */
export const metadataEntryInput = z.object(
  {
    value: z.unknown(),
    name: z.string().max(100).optional(),
    label: z.unknown().optional(),
    type: z.unknown().optional(),
    parseOutput: z.unknown().optional(),
    priceType: z.unknown().optional(),
    selectedLabel: z.unknown().optional(),
    currency: z.unknown().optional(),
  },
  { error: 'Cada campo debe ser un objeto con su valor' },
);
export type MetadataEntryInput = z.infer<typeof metadataEntryInput>;

const fieldNameKey = z.string().regex(FIELD_NAME_PATTERN, 'Nombre de campo no válido');

export const metadataInput = z
  .record(fieldNameKey, metadataEntryInput, { error: 'Los datos del registro son obligatorios' })
  .refine((metadata) => Object.keys(metadata).length <= 100, 'Demasiados campos');
export type MetadataInput = z.infer<typeof metadataInput>;

/** `POST /records`. The doctor and the patient's name never come from the client. */
export const createRecordBody = z.object({
  userId: z.string({ error: 'El paciente es obligatorio' }).pipe(objectIdField),
  dateId: z.string({ error: 'La cita es obligatoria' }).pipe(objectIdField),
  metadata: metadataInput,
});
export type CreateRecordBody = z.infer<typeof createRecordBody>;

/** `PUT /records/:id`: metadata only; fields left out keep their stored value. */
export const updateRecordBody = z.object({ metadata: metadataInput });
export type UpdateRecordBody = z.infer<typeof updateRecordBody>;

export const recordIdParam = z.object({ id: objectIdField });

/** `GET /records?page&limit&search`: defaults 1 / 10 / '', limit capped at 100. */
export const recordsQuery = pageQuery;
export type RecordsQuery = z.infer<typeof recordsQuery>;

/** A stored metadata entry, as the server normalised it. */
export interface MetadataEntry {
  name: string;
  label: string;
  type: FieldType;
  parseOutput?: ParseOutput;
  /** number for NUMBER / price / parseOutput number; ISO instant for dates; text otherwise. */
  value: string | number;
  priceType?: PriceType;
  selectedLabel?: string;
  currency?: string;
}

export interface RecordView {
  _id: string;
  id: string;
  userId: string;
  dateId: string;
  doctor: { id: string; name: string };
  user: { name: string };
  date: { date: string };
  metadata: Record<string, MetadataEntry>;
  /** Version of the view configuration the record was last validated against. */
  configVersion: number;
  view: string;
  createdAt: string;
  updatedAt: string;
}

export interface RecordsPage extends Paged {
  records: RecordView[];
}
