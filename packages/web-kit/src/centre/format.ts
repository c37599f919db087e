import type { CentreProfile } from '@crm/contracts';

/**
 * How the centre's facts read on a page (es-ES): prices "21 €" / "31,47 €", the phone's `tel:` link
 * (the phone itself is shown with `displayPhone`, the product's one phone format), opening hours "de lunes a viernes de 9:00 a 13:00 y de
 * 17:00 a 20:00", the refund window "24 horas". Pure functions, no React.
 */

export type OpeningPeriod = CentreProfile['openingHours'][number];
export type DgtValidity = keyof CentreProfile['prices']['dgtFees'];

/** The DGT fee validities, longest first, as the FAQ lists them (contracts `DGT_FEE_VALIDITIES`). */
export const DGT_VALIDITIES: readonly DgtValidity[] = ['10', '4', '3', '2', '1'];

const priceFormats = new Map<string, Intl.NumberFormat>();

/**
 * A price as the site prints it: "21 €", "31,47 €" (cents only when there are any). The space
 * before the symbol is a plain one, as the site's texts have always written it.
 */
export function formatPrice(amount: number, currency = 'EUR'): string {
  const cents = !Number.isInteger(Math.round(amount * 100) / 100);
  const key = `${currency}:${cents}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('es-ES', {
      style: 'currency',
      currency,
      minimumFractionDigits: cents ? 2 : 0,
      maximumFractionDigits: cents ? 2 : 0,
    });
    priceFormats.set(key, format);
  }
  return format.format(amount).replace(/[\u00a0\u202f]/g, ' ');
}

const amountFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as every screen prints money (es-ES): "27,00 €", "12.345,50 €" — always two decimals,
 * unlike `formatPrice`'s "21 €" for prices in running text. The one place amounts are formatted.
 */
export function formatAmount(amount: number, currency = 'EUR', fractionDigits = 2): string {
  const key = `${currency}:${fractionDigits}`;
  let format = amountFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('es-ES', {
      style: 'currency',
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    amountFormats.set(key, format);
  }
  return format.format(amount).replace(/[\u00a0\u202f]/g, ' ');
}

const numberFormat = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 });

/** A number as Spanish readers write it: 72.5 → "72,5", 1234 → "1234" (es-ES groups from 10.000). */
export const formatNumber = (value: number): string =>
  numberFormat.format(value).replace(/[\u00a0\u202f]/g, ' ');

/** A sum of prices without floating-point residue (21 + 10 + 31.47 = 62.47). */
export const addPrices = (...amounts: number[]): number =>
  Math.round(amounts.reduce((sum, amount) => sum + Math.round(amount * 100), 0)) / 100;

/** The `tel:` link of a stored phone: "tel:+34911222333". */
export const phoneHref = (digits: string): string => `tel:+${digits.replace(/\D/g, '')}`;

/** "24 horas", "1 hora". */
export const formatHours = (hours: number): string => `${hours} ${hours === 1 ? 'hora' : 'horas'}`;

const DAY_NAMES = ['', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];
/** Plural of a weekday ("los sábados"); Monday to Friday do not change. */
const pluralDay = (day: number): string => (day >= 6 ? `${DAY_NAMES[day]}s` : DAY_NAMES[day]);

/** "09:00" → "9:00". */
export const formatClock = (clock: string): string => clock.replace(/^0(\d)/, '$1');

const listOf = (items: string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items[items.length - 1]}`;

/** Opening periods that share their days, e.g. Monday to Friday mornings and afternoons. */
export interface OpeningGroup {
  /** ISO weekdays, ascending. */
  days: number[];
  /** "lunes a viernes" for three or more consecutive days, else a list: "lunes, miércoles y sábados". */
  daysLabel: string;
  /** Whether `daysLabel` is a range ("de lunes a viernes") or a list ("los sábados"). */
  range: boolean;
  /** "9:00 a 13:00", in order. */
  periods: string[];
}

/** The opening hours grouped by days, in weekday order. */
export function groupOpeningHours(hours: readonly OpeningPeriod[]): OpeningGroup[] {
  const groups = new Map<string, { days: number[]; periods: OpeningPeriod[] }>();
  for (const period of hours) {
    const days = [...new Set(period.days)].sort((a, b) => a - b);
    const key = days.join(',');
    const group = groups.get(key) ?? { days, periods: [] };
    group.periods.push(period);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.days[0] - b.days[0])
    .map(({ days, periods }) => {
      const range = days.length >= 3 && days[days.length - 1] - days[0] === days.length - 1;
      return {
        days,
        range,
        daysLabel: range
          ? `${DAY_NAMES[days[0]]} a ${pluralDay(days[days.length - 1])}`
          : listOf(days.map(pluralDay)),
        periods: [...periods]
          .sort((a, b) => a.from.localeCompare(b.from))
          .map((p) => `${formatClock(p.from)} a ${formatClock(p.to)}`),
      };
    });
}

/** One group as a phrase: "de lunes a viernes de 9:00 a 13:00 y de 17:00 a 20:00", "los sábados de 9:00 a 13:00". */
export const describeOpeningGroup = (group: OpeningGroup): string =>
  `${group.range ? 'de' : 'los'} ${group.daysLabel} de ${group.periods.join(' y de ')}`;

/** The whole opening hours as a phrase, for "Atendemos …". */
export const describeOpeningHours = (hours: readonly OpeningPeriod[]): string =>
  listOf(groupOpeningHours(hours).map(describeOpeningGroup));

/** "Lunes a viernes" (a label that starts a line). */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
