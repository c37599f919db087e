/**
 * Messages users see (Spanish), except the text-length one: the front end recognises that error by
 * the English fragment "0 and 100 characters" (docs/product/clinical-records.md#text-length) and shows its
 * own Spanish dialog.
 */
export const TEXT_MAX_LENGTH = 100;
export const TEXT_LENGTH_MESSAGE = `Texts must be between 0 and ${TEXT_MAX_LENGTH} characters`;

export const metadataMessages = {
  unknownField: (name: string) => `Campo desconocido: ${name}`,
  nameMismatch: (name: string) => `El nombre del campo no coincide con su clave: ${name}`,
  required: (label: string) => `El campo «${label}» es obligatorio`,
  notANumber: (label: string) => `El campo «${label}» debe ser un número`,
  outOfRange: (label: string) => `El valor de «${label}» está fuera de rango`,
  negativeAmount: (label: string) => `El importe de «${label}» no puede ser negativo`,
  notAText: (label: string) => `El campo «${label}» debe ser un texto`,
  notAnOption: (label: string) => `El valor de «${label}» no es una de sus opciones`,
  notADate: (label: string) =>
    `El campo «${label}» debe ser una fecha ISO 8601 o una duración como «10 años»`,
  durationNotMatched: (label: string) =>
    `La fecha de «${label}» no corresponde a ninguna de sus opciones (margen de 15 días)`,
  discountAboveBase: (label: string) =>
    `El descuento «${label}» no puede superar la suma de los importes base`,
  percentageAbove100: (label: string) => `El porcentaje de «${label}» no puede superar el 100 %`,
};
