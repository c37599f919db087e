/**
 * The calendar's Spanish names, with no dependency: web-kit's Calendar uses them, and so does the
 * shell's inline route flag, which draws the static first screen of "/dates" (inline/route-flag.ts).
 */
export const MONTH_NAMES = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
] as const;
export const WEEKDAY_INITIALS = ['D', 'L', 'M', 'M', 'J', 'V', 'S'] as const;
export const WEEKDAY_NAMES = [
  'domingo',
  'lunes',
  'martes',
  'miércoles',
  'jueves',
  'viernes',
  'sábado',
] as const;
