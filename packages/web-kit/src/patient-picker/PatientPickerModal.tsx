import { useId, useState, type FormEvent } from 'react';
import useSWR from 'swr';
import type { UserView } from '@crm/contracts';
import { showError } from '../dialogs/dialogs';
import { MESSAGES } from '../dialogs/messages';
import { Modal } from '../ui/Modal';
import { fetchAllPatients } from './fetch-all-patients';
import './patient-picker.css';

/** SWR key of the list of every patient (shared by the shell and the back office on one page). */
export const ALL_PATIENTS_KEY = 'patients:all';

/**
 * Doctors and admins book for a patient: "Seleccione un paciente" (SPEC §2.10, §5), type or pick the
 * name, press "Agendar Cita". The name must match a patient exactly, else "Error" / "Paciente no
 * encontrado" / "Aceptar".
 */
export default function PatientPickerModal({
  open,
  onClose,
  onPicked,
}: {
  open: boolean;
  onClose(): void;
  onPicked(patient: UserView): void;
}) {
  const { data: patients, isLoading } = useSWR(open ? ALL_PATIENTS_KEY : null, fetchAllPatients, {
    revalidateOnFocus: false,
  });
  const [name, setName] = useState('');
  const inputId = useId();
  const listId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const match = (patients ?? []).find((p) => p.name === name.trim());
    if (!match) {
      const { title, text, button } = MESSAGES.patientNotFound;
      void showError(title, text, button);
      return;
    }
    setName('');
    onPicked(match);
  };

  return (
    <Modal open={open} title="Seleccione un paciente" onClose={onClose}>
      <form onSubmit={submit} className="wk-patient-picker">
        <div className="wk-field">
          <label className="wk-label" htmlFor={inputId}>
            Nombre del paciente
          </label>
          <input
            id={inputId}
            className="wk-input"
            list={listId}
            value={name}
            required
            autoComplete="off"
            placeholder={isLoading ? 'Cargando pacientes…' : 'Nombre Completo'}
            onChange={(event) => setName(event.target.value)}
            data-autofocus
          />
          <datalist id={listId}>
            {(patients ?? []).map((p) => (
              <option key={p.id} value={p.name}>
                {p.email}
              </option>
            ))}
          </datalist>
        </div>
        <div className="wk-modal__actions">
          <button type="button" className="wk-button wk-button--secondary" onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className="wk-button">
            Agendar Cita
          </button>
        </div>
      </form>
    </Modal>
  );
}
