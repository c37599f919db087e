import { useId, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import useSWR from 'swr';
import type { UserView } from '@crm/contracts';
import { showError } from '../dialogs/dialogs';
import { MESSAGES } from '../dialogs/messages';
import { Modal } from '../ui/Modal';
import { fetchAllPatients } from './fetch-all-patients';
import { patientsNamed, suggestPatients } from './patient-search';
import './patient-picker.css';

/** SWR key of the list of every patient (shared by the shell and the back office on one page). */
export const ALL_PATIENTS_KEY = 'patients:all';

interface PickerProps {
  onClose(): void;
  onPicked(patient: UserView): void;
}

/**
 * Doctors and admins book for a patient: "Seleccione un paciente"
 * (docs/product/back-office.md#schedule-for-a-patient), type the name, press "Agendar Cita". Typing lists the
 * matching patients (case and accents do not count: "jose" finds "José"), each with their e-mail, so that two
 * patients with the same name can be told apart; the one picked from the list is booked by id. A name typed
 * in full that belongs to one patient needs no pick; one that belongs to nobody gives "Error" / "Paciente no
 * encontrado" / "Aceptar".
 */
export default function PatientPickerModal({ open, onClose, onPicked }: PickerProps & { open: boolean }) {
  return (
    <Modal open={open} title="Seleccione un paciente" onClose={onClose}>
      {/* Mounted while open only: every opening starts with an empty field. */}
      <PatientPickerForm onClose={onClose} onPicked={onPicked} />
    </Modal>
  );
}

function PatientPickerForm({ onClose, onPicked }: PickerProps) {
  const { data: patients, isLoading } = useSWR(ALL_PATIENTS_KEY, fetchAllPatients, {
    revalidateOnFocus: false,
  });
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<UserView | null>(null);
  const [active, setActive] = useState(-1);
  const [listHidden, setListHidden] = useState(false);
  const [hint, setHint] = useState('');
  const inputId = useId();
  const listId = useId();
  const hintId = useId();

  const suggestions = useMemo(
    () => (chosen ? [] : suggestPatients(patients ?? [], query)),
    [patients, query, chosen],
  );
  const expanded = suggestions.length > 0 && !listHidden;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const type = (value: string) => {
    setQuery(value);
    setChosen(null);
    setActive(-1);
    setListHidden(false);
    setHint('');
  };

  const choose = (patient: UserView) => {
    setChosen(patient);
    setQuery(patient.name);
    setActive(-1);
    setHint('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault();
      setListHidden(false);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (index < 0 && step < 0 ? count - 1 : (index + step + count) % count));
    } else if (event.key === 'Enter' && expanded && active >= 0 && active < count) {
      // Enter on a highlighted suggestion picks it; otherwise it submits the form.
      event.preventDefault();
      choose(suggestions[active]);
    } else if (event.key === 'Escape' && expanded) {
      // The first Escape closes the list, not the dialog.
      event.stopPropagation();
      setListHidden(true);
      setActive(-1);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (chosen) {
      onPicked(chosen);
      return;
    }
    const named = patientsNamed(patients ?? [], query);
    if (named.length === 1) {
      onPicked(named[0]);
      return;
    }
    if (named.length > 1) {
      setListHidden(false);
      setHint(`Hay ${named.length} pacientes con este nombre: elija uno de la lista por su correo.`);
      return;
    }
    const { title, text, button } = MESSAGES.patientNotFound;
    void showError(title, text, button);
  };

  return (
    <form onSubmit={submit} className="wk-patient-picker">
      <div className="wk-field">
        <label className="wk-label" htmlFor={inputId}>
          Nombre del paciente
        </label>
        <input
          id={inputId}
          className="wk-input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={hint || chosen ? hintId : undefined}
          value={query}
          required
          autoComplete="off"
          spellCheck={false}
          placeholder={isLoading ? 'Cargando pacientes…' : 'Nombre Completo'}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          data-autofocus
        />
        {/* In the flow of the dialog (not floating over its buttons); keyboard: arrows and Enter on the field. */}
        <ul
          id={listId}
          className="wk-patient-picker__list"
          role="listbox"
          aria-label="Pacientes"
          hidden={!expanded}
        >
          {expanded &&
            suggestions.map((patient, index) => (
              // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- keys are handled on the combobox field (aria-activedescendant)
              <li
                key={patient.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={
                  index === active ? 'wk-patient-picker__option is-active' : 'wk-patient-picker__option'
                }
                data-patient-id={patient.id}
                // Keeps the focus in the field.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(patient)}
              >
                <span className="wk-patient-picker__name">{patient.name}</span>
                <span className="wk-patient-picker__email">{patient.email}</span>
              </li>
            ))}
        </ul>
        {hint ? (
          <p id={hintId} className="wk-patient-picker__hint" role="status">
            {hint}
          </p>
        ) : chosen ? (
          <p id={hintId} className="wk-patient-picker__chosen">
            Paciente elegido: <strong>{chosen.name}</strong> ({chosen.email})
          </p>
        ) : null}
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
  );
}
