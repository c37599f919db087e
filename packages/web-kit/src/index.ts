/**
 * @crm/web-kit — shared by the shell and the federated remotes as a singleton, so that the session,
 * the token store and the dialog queue exist once per page.
 */
export { api, apiRequest, ApiError, API_BASE, SESSION_REFUSED_EVENT, swrFetcher } from './api/client';
export type { ApiFieldError, HttpMethod, RequestOptions } from './api/client';
export { toFormErrors, hasFormErrors, EMPTY_FORM_ERRORS } from './api/form-errors';
export type { FormErrors } from './api/form-errors';
export { tokenStore, TOKEN_KEY } from './session/token-store';
export {
  SessionProvider,
  useSession,
  useToken,
  currentUserKey,
  CURRENT_USER_PATH,
} from './session/session-context';
export type { CurrentUser, Session, SessionAnswer, SessionStatus } from './session/session-context';
export { HOME_BY_ROLE, homeForRole, isStaff } from './session/roles';
export { MESSAGES } from './dialogs/messages';
export {
  showDialog,
  showSuccess,
  showError,
  showServerError,
  showRequestError,
  showBookingError,
  confirmDialog,
  closeDialogs,
  preloadDialogs,
} from './dialogs/dialogs';
export type { DialogOptions, ConfirmOptions } from './dialogs/dialogs';
export { formatPhoneInput, phoneDigits, displayPhone } from './phone/phone';
export { LoadingScreen } from './ui/LoadingScreen';
export { PatientPickerModal, SlotPatientPicker } from './patient-picker/LazyPatientPickerModal';
export type {
  PatientPickerModalProps,
  SlotPatientPickerProps,
} from './patient-picker/LazyPatientPickerModal';
export { useServerForm } from './ui/use-server-form';
export * from './centre';
export { MfaEnrolment } from './mfa/LazyMfaEnrolment';
export { downloadFile, fileNameOf } from './api/download';
