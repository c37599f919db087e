import type { ApiError } from '@crm/web-kit';
import type { CentreProfile, CentreProfileBody } from '@crm/contracts';
import { formatPhone } from '@crm/contracts/phone';

/** One opening period as edited: ISO weekdays (1 = Monday … 7 = Sunday), "HH:mm" times. */
export interface HoursDraft {
  days: number[];
  from: string;
  to: string;
}

/** The editor's state: every single value as typed, keyed by its path in the body, and the hours. */
export interface ProfileDraft {
  values: Record<string, string>;
  openingHours: HoursDraft[];
}

/** The profile's single values the screen edits, by path (what the server names in `field`). */
export const TEXT_PATHS = [
  'brandName',
  'subtitle',
  'address',
  'mapsUrl',
  'phone',
  'email',
  'senderName',
  'legalName',
  'taxId',
  'registry',
] as const;
export const NUMBER_PATHS = [
  'prices.checkUp',
  'prices.dgtManagementFee',
  'prices.extraReportSupplement',
  'prices.dgtFees.10',
  'prices.dgtFees.4',
  'prices.dgtFees.3',
  'prices.dgtFees.2',
  'prices.dgtFees.1',
  'prices.refundWindowHours',
] as const;
export const CURRENCY_PATH = 'prices.currency';
const EDITED_PATHS: readonly string[] = [...TEXT_PATHS, ...NUMBER_PATHS, CURRENCY_PATH];

const read = (source: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], source);

/** "24,58" for 24.58: numbers as a Spanish reader writes them. */
const spanishNumber = (value: unknown): string =>
  typeof value === 'number' ? String(value).replace('.', ',') : String(value ?? '');

export function draftOf(profile: CentreProfile): ProfileDraft {
  const values: Record<string, string> = {};
  for (const path of EDITED_PATHS) {
    const value = read(profile, path);
    values[path] =
      path === 'phone'
        ? formatPhone(String(value ?? ''))
        : (NUMBER_PATHS as readonly string[]).includes(path)
          ? spanishNumber(value)
          : String(value ?? '');
  }
  return {
    values,
    openingHours: profile.openingHours.map((period) => ({ ...period, days: [...period.days] })),
  };
}

/**
 * "24,58" → 24.58; something else stays as typed, so the server answers with its Spanish message on
 * that field instead of the screen guessing a number.
 */
export function typedNumber(text: string): number | string {
  const normalized = text.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(normalized) ? Number(normalized) : text;
}

/**
 * The whole profile to send: what was loaded (so parts this screen does not show, such as the
 * closures, go back unchanged) with the edits applied.
 */
export function bodyOf(loaded: CentreProfile, draft: ProfileDraft): CentreProfileBody {
  const { version: _version, updatedAt: _updatedAt, ...profile } = loaded;
  const body = structuredClone(profile) as unknown as Record<string, unknown>;
  for (const path of EDITED_PATHS) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, body);
    const raw = draft.values[path] ?? '';
    parent[keys.at(-1)!] = (NUMBER_PATHS as readonly string[]).includes(path) ? typedNumber(raw) : raw;
  }
  body.openingHours = draft.openingHours.map((period) => ({
    days: [...period.days].sort((a, b) => a - b),
    from: period.from,
    to: period.to,
  }));
  return body as unknown as CentreProfileBody;
}

/** The server's refusal spread over the screen: by path, the rest in `general`. */
export function profileErrors(error: Pick<ApiError, 'errors' | 'message'>): {
  fields: Record<string, string>;
  general?: string;
} {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  const list = error.errors.length > 0 ? error.errors : [{ message: error.message }];
  for (const { message, field } of list) {
    if (field && (EDITED_PATHS.includes(field) || field.startsWith('openingHours'))) {
      fields[field] ??= message;
    } else {
      general.push(message);
    }
  }
  return general.length > 0 ? { fields, general: general.join(' ') } : { fields };
}
