import type { SweetAlertIcon, SweetAlertOptions } from 'sweetalert2';
import { ApiError } from '../api/client';
import { MESSAGES } from './messages';

type Swal = typeof import('sweetalert2').default;

// sweetalert2 is loaded on first use only: no page pays for it before it shows a dialog.
let swal: Promise<Swal> | null = null;
const loadSwal = (): Promise<Swal> => (swal ??= import('sweetalert2').then((m) => m.default));

/** Starts downloading the dialog library ahead of time (e.g. when a form gets focus). */
export const preloadDialogs = (): void => {
  void loadSwal();
};

// One dialog at a time: a second one waits until the first is closed instead of replacing it.
let queue: Promise<unknown> = Promise.resolve();
function enqueue<T>(open: (Swal: Swal) => Promise<T>): Promise<T> {
  const run = queue.then(loadSwal).then(open);
  queue = run.catch(() => undefined);
  return run;
}

const BASE: SweetAlertOptions = {
  confirmButtonText: 'Aceptar',
  cancelButtonText: 'Cancelar',
  confirmButtonColor: '#0b5c7a',
  cancelButtonColor: '#5f6b73',
  heightAuto: false,
  returnFocus: true,
};

export interface DialogOptions {
  title: string;
  text?: string;
  icon?: SweetAlertIcon;
  confirmButtonText?: string;
}

export function showDialog({ title, text, icon, confirmButtonText }: DialogOptions): Promise<void> {
  return enqueue((Swal) =>
    Swal.fire({ ...BASE, title, text, icon, ...(confirmButtonText ? { confirmButtonText } : {}) }),
  ).then(() => undefined);
}

export const showSuccess = (title: string, text?: string): Promise<void> =>
  showDialog({ title, text, icon: 'success' });
export const showError = (title: string, text?: string, confirmButtonText?: string): Promise<void> =>
  showDialog({ title, text, icon: 'error', confirmButtonText });

/** "Internal server error" — the answer to any failure without a better message. */
export const showServerError = (): Promise<void> =>
  showError(MESSAGES.serverError.title, MESSAGES.serverError.text);

/**
 * A refused call in an error dialog with the server's first message (`title`, "Error" by default);
 * a server or network failure as "Internal server error" (docs/product/README.md#dialogs-and-errors).
 */
export function showRequestError(error: unknown, title = 'Error'): Promise<void> {
  if (error instanceof ApiError && !error.isServerFailure)
    return showError(title, error.errors[0]?.message ?? error.message);
  return showServerError();
}

export interface ConfirmOptions {
  title: string;
  text?: string;
  icon?: SweetAlertIcon;
  confirmButtonText?: string;
  cancelButtonText?: string;
}

/** Yes/No question; resolves true on "Sí". */
export function confirmDialog({
  title,
  text,
  icon = 'question',
  confirmButtonText = 'Sí',
  cancelButtonText = 'No',
}: ConfirmOptions): Promise<boolean> {
  return enqueue((Swal) =>
    Swal.fire({
      ...BASE,
      title,
      text,
      icon,
      showCancelButton: true,
      confirmButtonText,
      cancelButtonText,
      focusCancel: false,
    }),
  ).then((result) => result.isConfirmed);
}

/**
 * A failed booking: "Información de la reserva" with the server's first message when it sent a
 * list of errors, the server-trouble dialog otherwise.
 */
export function showBookingError(error: unknown): Promise<void> {
  if (error instanceof ApiError && !error.isServerFailure && error.errors.length > 0) {
    return showDialog({ title: MESSAGES.bookingInfo.title, text: error.errors[0].message, icon: 'info' });
  }
  return showServerError();
}

/** Closes whatever dialog is open (e.g. on navigation away). */
export function closeDialogs(): void {
  if (swal) void swal.then((Swal) => Swal.close());
}
