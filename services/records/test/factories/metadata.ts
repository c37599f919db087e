/**
 * Metadata as the front end sends it: one `{label, type, parseOutput, name, value, priceType}`
 * entry per field. Only `value` counts on the server; the rest is sent to look like the real client.
 */
export type Values = Record<string, unknown>;

/** A fit driver renewing a group 1 licence for 10 years: 19 + 24.58 + 10 = 53.58 € net. */
export const DRIVING_RENEWAL: Values = {
  certificateType: 'Permiso de conducir',
  licenceGroup: 'GRUPO_1',
  weight: '78',
  height: '176',
  bloodPressure: '125/80',
  visualAcuity: 'OD 1,0 / OI 0,9',
  hearing: 'Normal',
  result: 'Apto',
  validity: '10 años',
  observations: 'Sin incidencias',
  checkupFee: 19,
  dgtFee: '24.58',
  dgtManagement: 10,
  extraReport: '0',
  discount: 0,
  taxType: 'Porcentaje',
  tax: 0,
};

export function metadataOf(values: Values = DRIVING_RENEWAL): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      { label: name, type: 'TEXT', parseOutput: null, name, value },
    ]),
  );
}

/** The driving renewal with some values changed (undefined removes a field). */
export function renewalWith(changes: Values): Record<string, Record<string, unknown>> {
  const values = { ...DRIVING_RENEWAL, ...changes };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete values[name];
  return metadataOf(values);
}
