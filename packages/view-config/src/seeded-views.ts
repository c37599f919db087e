import { CENTRE_PROFILE_SEED, DGT_FEE_VALIDITIES, type CentreProfileData } from '@crm/contracts';
import type { PicklistOption, ViewField } from '@crm/contracts';

/** The prices of the centre profile (`GET /config/centre`), the source of the form's default prices. */
export type CentrePrices = CentreProfileData['prices'];

/** The certificate type whose check-up includes the DGT fees (a driving-licence renewal). */
export const DRIVING_LICENCE_CERTIFICATE = 'Permiso de conducir';

/**
 * The record's price field of the check-up itself: the back office's desk payment takes the check-up
 * from the appointment's price and proposes the record's other price fields as extra items.
 */
export const CHECKUP_FEE_FIELD = 'checkupFee';

/** "24,58 €" (Spanish decimals; the code for a currency other than the euro). */
export function formatAmount(amount: number, currency: string): string {
  return `${amount.toFixed(2).replace('.', ',')} ${currency === 'EUR' ? '€' : currency}`;
}

/**
 * Options of a numeric price picklist: value = the amount ("24.58"), label = what it is and its
 * price ("10 años — 24,58 €"; a choice with `plain` shows no price, like "No"). Choices with the
 * same amount become one option (a picklist cannot hold one value twice, and the same amount prices
 * the same), their names joined by " / ".
 */
function amountOptions(
  choices: { name: string; amount: number; plain?: boolean }[],
  currency: string,
): PicklistOption[] {
  const byAmount = new Map<string, { names: string[]; amount: number; plain: boolean }>();
  for (const { name, amount, plain = false } of choices) {
    const value = String(amount);
    const known = byAmount.get(value);
    if (known) {
      known.names.push(name);
      known.plain &&= plain;
    } else byAmount.set(value, { names: [name], amount, plain });
  }
  return [...byAmount].map(([value, { names, amount, plain }]) => ({
    value,
    label: plain ? names.join(' / ') : `${names.join(' / ')} — ${formatAmount(amount, currency)}`,
  }));
}

const validityName = (years: string) => (years === '1' ? '1 año' : `${years} años`);

/**
 * The form of the view `doctor/appointments/:id`: the clinical record of a check-up for an official
 * Spanish medical certificate (docs/product/clinical-records.md#seeded-form), with its default prices taken
 * from the centre profile. The config service seeds it (version 1) at start-up only when the view has no
 * configuration; an admin replaces it with `PUT /config/view`.
 *
 * Prices (docs/product/centre-profile.md#prices): the check-up (19 €); for a driving licence only, the DGT
 * management fee (10 €) plus the DGT official fee by validity (10/4/3/2/1 years: 24.58/19.67/14.75/9.83/4.92
 * €; over 70 exempt); an extra report (10 €). The two DGT fields are conditional on the certificate type
 * (`conditionalField.field` lists them with the licence group): for a weapons or studies check-up
 * they are not shown, not stored and count 0. A 10-year driving renewal is 19 + 24.58 + 10 =
 * 53.58 € (NET); GROSS = net + tax rounded to a whole number is 54 € with no tax (medical
 * services are VAT-exempt in Spain).
 *
 * Lives here (not in the config service) so that the service's seed and the form builder's tests use
 * one definition.
 */
export function medicalCertificateFields(prices: CentrePrices): ViewField[] {
  const currency = prices.currency;
  const price = (type: 'BASE' | 'DISCOUNT' | 'TAX' | 'NET' | 'GROSS') => ({ type, currency });
  return [
    {
      name: 'certificateType',
      label: 'Tipo de certificado',
      fieldType: 'PICKLIST',
      required: true,
      visible: true,
      options: [
        DRIVING_LICENCE_CERTIFICATE,
        'Licencia de armas',
        'Titulación náutica (embarcaciones)',
        'Seguridad privada',
        'Perros potencialmente peligrosos',
        'Operador de grúa',
        'Licencia deportiva',
        'Estudios',
      ],
      // The licence group and the DGT fees only matter for a driving licence.
      conditionalField: {
        ifSelected: DRIVING_LICENCE_CERTIFICATE,
        field: ['licenceGroup', 'dgtFee', 'dgtManagement'],
      },
    },
    {
      name: 'licenceGroup',
      label: 'Grupo de permiso',
      fieldType: 'PICKLIST',
      required: true,
      visible: false,
      options: [
        { value: 'GRUPO_1', label: 'Grupo 1 (AM, A1, A2, A, B, B+E)' },
        { value: 'GRUPO_2', label: 'Grupo 2 (BTP, C1, C1+E, C, C+E, D1, D1+E, D, D+E)' },
      ],
    },
    {
      name: 'weight',
      label: 'Peso (kg)',
      fieldType: 'NUMBER',
      required: true,
      visible: true,
      parseOutput: 'number',
    },
    {
      name: 'height',
      label: 'Altura (cm)',
      fieldType: 'NUMBER',
      required: true,
      visible: true,
      parseOutput: 'number',
    },
    {
      name: 'bloodPressure',
      label: 'Tensión arterial (mmHg)',
      fieldType: 'TEXT',
      required: true,
      visible: true,
    },
    {
      name: 'visualAcuity',
      label: 'Agudeza visual (con corrección si la usa)',
      fieldType: 'TEXT',
      required: true,
      visible: true,
    },
    {
      name: 'hearing',
      label: 'Audición',
      fieldType: 'PICKLIST',
      required: true,
      visible: true,
      options: ['Normal', 'Hipoacusia leve', 'Hipoacusia moderada', 'Hipoacusia severa (con prótesis)'],
      defaultValue: 'Normal',
    },
    {
      name: 'result',
      label: 'Resultado',
      fieldType: 'PICKLIST',
      required: true,
      visible: true,
      options: ['Apto', 'No apto', 'Apto con restricciones'],
      conditionalField: { ifSelected: 'Apto con restricciones', field: 'restrictions' },
    },
    {
      name: 'restrictions',
      label: 'Restricciones o adaptaciones',
      fieldType: 'TEXT',
      required: true,
      visible: false,
    },
    {
      name: 'validity',
      label: 'Vigencia del certificado',
      fieldType: 'PICKLIST',
      required: true,
      visible: true,
      parseOutput: 'date',
      options: ['10 años', '5 años', '4 años', '3 años', '2 años', '1 año', '6 meses'],
    },
    { name: 'observations', label: 'Observaciones', fieldType: 'TEXT', required: false, visible: true },
    {
      name: CHECKUP_FEE_FIELD,
      label: 'Reconocimiento médico',
      fieldType: 'NUMBER',
      required: true,
      visible: true,
      defaultValue: prices.checkUp,
      price: price('BASE'),
    },
    {
      name: 'dgtFee',
      label: 'Tasa DGT según vigencia',
      fieldType: 'PICKLIST',
      required: true,
      // Shown for a driving licence only (conditionalField of certificateType).
      visible: false,
      parseOutput: 'number',
      // No default: a preselected exemption silently dropped the fee. The fee follows the chosen
      // "Vigencia del certificado" (`followingOption`); otherwise the doctor chooses it.
      options: amountOptions(
        [
          ...DGT_FEE_VALIDITIES.map((years) => ({
            name: validityName(years),
            amount: prices.dgtFees[years],
          })),
          { name: 'Exento (mayores de 70 años) o sin trámite DGT', amount: 0 },
        ],
        currency,
      ),
      price: price('BASE'),
    },
    {
      name: 'dgtManagement',
      label: 'Gestión DGT',
      fieldType: 'NUMBER',
      required: false,
      // Shown for a driving licence only (conditionalField of certificateType).
      visible: false,
      defaultValue: prices.dgtManagementFee,
      price: price('BASE'),
    },
    {
      name: 'extraReport',
      label: 'Informe adicional',
      fieldType: 'PICKLIST',
      required: false,
      visible: true,
      parseOutput: 'number',
      defaultValue: '0',
      options: amountOptions(
        [
          { name: 'No', amount: 0, plain: true },
          { name: 'Sí', amount: prices.extraReportSupplement },
        ],
        currency,
      ),
      price: price('BASE'),
    },
    {
      name: 'discount',
      label: 'Descuento',
      fieldType: 'NUMBER',
      required: false,
      visible: true,
      defaultValue: 0,
      price: price('DISCOUNT'),
    },
    {
      name: 'taxType',
      label: 'Tipo de impuesto',
      fieldType: 'PICKLIST',
      required: false,
      visible: true,
      options: ['Porcentaje', 'Fijo'],
      defaultValue: 'Porcentaje',
    },
    {
      name: 'tax',
      label: 'Impuesto (% o importe fijo)',
      fieldType: 'NUMBER',
      required: false,
      visible: true,
      defaultValue: 0,
      price: price('TAX'),
    },
    {
      name: 'net',
      label: 'Importe neto',
      fieldType: 'NUMBER',
      required: false,
      visible: true,
      price: price('NET'),
    },
    {
      name: 'total',
      label: 'Total',
      fieldType: 'NUMBER',
      required: false,
      visible: true,
      price: price('GROSS'),
    },
  ];
}

/** The form with the prices of the seeded centre profile (19 €, 10 €, 24.58 € …). */
export const MEDICAL_CERTIFICATE_FIELDS: ViewField[] = medicalCertificateFields(CENTRE_PROFILE_SEED.prices);
