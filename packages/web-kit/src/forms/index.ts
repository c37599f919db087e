/**
 * `@crm/web-kit/forms`: the form fields and the modal. Not on the main entry, which every page of the
 * shell loads ("/" has no form); not federation-shared either: they hold no state (no session, API
 * client or dialogs), so each app bundles them with the pages that use them.
 */
export {
  TextField,
  PasswordField,
  CurrentPasswordField,
  PhoneField,
  EmailField,
  FullNameField,
  FormAlert,
} from '../ui/fields';
export type { FieldProps } from '../ui/fields';
export { Modal } from '../ui/Modal';
export type { ModalProps } from '../ui/Modal';
