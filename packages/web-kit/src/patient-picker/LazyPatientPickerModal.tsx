import type { ComponentProps } from 'react';
import type { UserView } from '@crm/contracts';
import { loadedOnFirstRender } from '../ui/loaded-on-first-render';
import type PatientPicker from './PatientPickerModal';

export type PatientPickerModalProps = ComponentProps<typeof PatientPicker>;

/**
 * "Seleccione un paciente", loaded on first render: it is on the main entry (so that, inside a
 * remote too, it uses this singleton's session, API client and dialog queue) but its code stays out
 * of the shell's "/". It is a closed modal until opened, so nothing is shown while it loads.
 */
export const PatientPickerModal = loadedOnFirstRender(() => import('./PatientPickerModal'));

export interface SlotPatientPickerProps {
  /** The slot chosen by staff; the picker is open while it is set. */
  slot: string | null;
  onClose(): void;
  /** Called after the picker closed, with the slot and the patient picked for it. */
  onBook(slot: string, patient: UserView): void;
}

/** "Seleccione un paciente" for a slot staff chose: picking a patient closes it and books them there. */
export function SlotPatientPicker({ slot, onClose, onBook }: SlotPatientPickerProps) {
  return (
    <PatientPickerModal
      open={slot !== null}
      onClose={onClose}
      onPicked={(patient) => {
        onClose();
        if (slot) onBook(slot, patient);
      }}
    />
  );
}
