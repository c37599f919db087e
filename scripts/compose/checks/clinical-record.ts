/**
 * A complete clinical record on the seeded clinical form (a fit driver renewing a group 1 licence:
 * 19 + 24.58 + 10 = 53.58 € net), as the back office sends it: one `{name, label, type, value}`
 * entry per field, of which the records service reads only `value`.
 */
const DRIVING_RENEWAL: Record<string, unknown> = {
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

export const drivingRenewalMetadata = (observations = 'Sin incidencias') =>
  Object.fromEntries(
    Object.entries({ ...DRIVING_RENEWAL, observations }).map(([name, value]) => [
      name,
      { label: name, type: 'TEXT', parseOutput: null, name, value },
    ]),
  );
