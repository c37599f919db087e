import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AppointmentStatus, RecordView } from '@crm/contracts';
import { MESSAGES, showServerError, showSuccess } from '@crm/web-kit';
import { formatTime } from '@crm/web-kit/time';
import { PageHeader } from '@/components';
import { APPOINTMENT_STATUS_LABELS } from '@/lib/appointment-status';
import {
  centreDateTime,
  createRecordPayload,
  defaultValues,
  DynamicForm,
  isAlreadyRecorded,
  showSaveFailure,
  type FormValues,
} from './form-builder';
import {
  createRecord,
  RECORDS_VIEW,
  useAppointment,
  useAppointmentRecord,
  useViewConfig,
  type Appointment,
} from '../api/records';
import './clinical-records.css';

/** Appointments in these states take no record (the records service answers 409). */
const ENDED_STATUSES = new Set(['cancelled', 'deleted']);

/**
 * `/doctor/appointments/:id` (docs/product/clinical-records.md#appointment-detail): the patient and the time
 * of the appointment, and its clinical record: "Ver Historia Clínica" when it has one (one record per
 * appointment), else the "Crear Historia Clínica" toggle: closed → loading the configuration → the form.
 */
export default function AppointmentDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: appointment, error } = useAppointment(id);
  const { data: existing, error: lookupError, mutate: refreshRecord } = useAppointmentRecord(id);
  const [open, setOpen] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  const recordId = existing?.record?.id;
  // Unknown while the lookup runs; a failed lookup still offers the form (the server refuses a second record).
  const lookedUp = existing !== undefined || lookupError !== undefined;

  let body;
  if (error) body = <p role="alert">No se encontró la cita.</p>;
  else if (!appointment) body = <p role="status">Cargando cita...</p>;
  else {
    const when = centreDateTime(appointment.date);
    const ended = ENDED_STATUSES.has(appointment.status);
    body = (
      <>
        <dl className="cr-summary">
          <div>
            <dt>Paciente</dt>
            <dd data-testid="patient-name">{appointment.user?.name ?? appointment.name}</dd>
          </div>
          <div>
            <dt>Correo electrónico</dt>
            <dd data-testid="patient-email">{appointment.user?.email}</dd>
          </div>
          <div>
            <dt>Fecha</dt>
            <dd data-testid="appointment-date">{when?.date}</dd>
          </div>
          <div>
            <dt>Hora</dt>
            <dd data-testid="appointment-time">{when?.time}</dd>
          </div>
          <div>
            <dt>Estado</dt>
            <dd data-testid="appointment-status">
              {APPOINTMENT_STATUS_LABELS[appointment.status as AppointmentStatus] ?? appointment.status}
            </dd>
          </div>
          <div>
            <dt>Llegada</dt>
            <dd data-testid="appointment-arrival">
              {appointment.checkedInAt ? formatTime(appointment.checkedInAt) : 'No registrada'}
            </dd>
          </div>
        </dl>
        {recordId ? (
          <div className="cr-existing" data-testid="existing-record">
            <p role="status">
              {justSaved ? 'Historia clínica guardada.' : 'Esta cita ya tiene una historia clínica.'}
            </p>
            <Link className="wk-button" to={`/doctor/patient/records/detail/${encodeURIComponent(recordId)}`}>
              Ver Historia Clínica
            </Link>
          </div>
        ) : !lookedUp ? (
          <p role="status">Comprobando si la cita tiene historia clínica...</p>
        ) : ended ? (
          <p className="cr-notice" role="status">
            La cita está cancelada o eliminada: no admite historia clínica.
          </p>
        ) : appointment.status === 'noShow' ? (
          <p className="cr-notice" role="status">
            El paciente no se presentó: la cita no admite historia clínica.
          </p>
        ) : (
          !open && (
            <button type="button" className="wk-button" aria-expanded={false} onClick={() => setOpen(true)}>
              Crear Historia Clínica
            </button>
          )
        )}
        {/* An open form stays open (with what was typed) even when the record turns out to exist. */}
        {open && (
          <RecordCreation
            appointment={appointment}
            onClose={() => setOpen(false)}
            onSaved={(record) => {
              setJustSaved(true);
              setOpen(false);
              void refreshRecord({ record }, { revalidate: false });
            }}
            onAlreadyRecorded={() => void refreshRecord()}
          />
        )}
      </>
    );
  }

  return (
    <section className="cr-page">
      <PageHeader title="Detalle de la Cita">
        <button
          type="button"
          className="wk-button wk-button--secondary"
          onClick={() => navigate('/doctor/appointments')}
        >
          Volver a Citas
        </button>
      </PageHeader>
      {body}
    </section>
  );
}

interface RecordCreationProps {
  appointment: Appointment;
  onClose: () => void;
  /** After "Datos Guardados": the form closes (a second save would be refused, one record per appointment). */
  onSaved: (record: RecordView) => void;
  /** The server refused a second record for this appointment (409): the page learns of the first. */
  onAlreadyRecorded: () => void;
}

/** The opened toggle: loads the view configuration, then the form; "Cerrar" closes it. */
function RecordCreation({ appointment, onClose, onSaved, onAlreadyRecorded }: RecordCreationProps) {
  const { data: config, error } = useViewConfig(RECORDS_VIEW);
  const [busy, setBusy] = useState(false);
  const anchorDate = new Date(appointment.date);
  // A configuration that cannot be loaded is a server problem (a missing view is just empty).
  useEffect(() => {
    if (error) void showServerError();
  }, [error]);

  const close = (
    <button type="button" className="wk-button wk-button--secondary" onClick={onClose}>
      Cerrar
    </button>
  );
  if (error) return <div className="cr-panel">{close}</div>;
  if (config === undefined)
    return (
      <div className="cr-panel">
        <p role="status">Cargando formulario...</p>
      </div>
    );
  const fields = config?.fields ?? [];

  const save = async (values: FormValues) => {
    setBusy(true);
    try {
      const record = await createRecord(
        createRecordPayload(fields, values, {
          userId: appointment.pacientId,
          dateId: appointment.id,
          date: anchorDate,
        }),
      );
      setBusy(false);
      await showSuccess(MESSAGES.recordSaved.title, MESSAGES.recordSaved.text);
      onSaved(record);
    } catch (failure) {
      setBusy(false);
      // The form stays as typed: the dialog says why (the server's reason for a 4xx).
      if (isAlreadyRecorded(failure)) onAlreadyRecorded();
      await showSaveFailure(failure);
    }
  };

  return (
    <div className="cr-panel">
      <h2>Historia Clínica</h2>
      <DynamicForm
        label="Historia Clínica"
        fields={fields}
        anchorDate={anchorDate}
        initialValues={defaultValues(fields, anchorDate)}
        submitLabel="Guardar Historia Clínica"
        busy={busy}
        onSubmit={save}
        actions={close}
      />
    </div>
  );
}
