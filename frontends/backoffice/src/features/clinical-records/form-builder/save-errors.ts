/**
 * Which dialog a failed record save shows (SPEC §5, §8): the 100-character dialog when the server's
 * message (or one of its listed problems) contains "0 and 100 characters"; the server-trouble
 * dialog ("Internal server error") for that message and any other failure.
 */
export type SaveFailureDialog = 'textLimit' | 'serverTrouble';

export const TEXT_LIMIT_FRAGMENT = '0 and 100 characters';

function messagesOf(error: unknown): string[] {
  if (typeof error !== 'object' || error === null) return [];
  const { message, errors } = error as { message?: unknown; errors?: unknown };
  const listed = Array.isArray(errors)
    ? errors.map((item) =>
        typeof item === 'object' && item !== null ? (item as { message?: unknown }).message : undefined,
      )
    : [];
  return [message, ...listed].filter((text): text is string => typeof text === 'string');
}

export function saveFailureDialog(error: unknown): SaveFailureDialog {
  return messagesOf(error).some((text) => text.includes(TEXT_LIMIT_FRAGMENT)) ? 'textLimit' : 'serverTrouble';
}
