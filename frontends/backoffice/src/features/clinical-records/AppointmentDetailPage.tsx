import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { MESSAGES, showServerError, showSuccess } from '@crm/web-kit';
import { PageHeader } from '@/components';
import {
  centreDateTime,
  createRecordPayload,
  defaultValues,
  DynamicForm,
  showSaveFailure,
  type FormValues,
} from './form-builder';
import { createRecord, RECORDS_VIEW, useAppointment, useViewConfig, type Appointment } from './records-api';
import './clinical-records.css';

/**
 * `/doctor/appointments/:id` (SPEC §2): the patient and the time of the appointment, and the
 * "Crear Historia Clínica" toggle: closed → loading the configuration → the form.
 */
export default function AppointmentDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: appointment, error } = useAppointment(id);
  const [open, setOpen] = useState(false);
  const [savedId, setSavedId] = useState<string>();

  let body;
  if (error) body = <p role="alert">No se encontró la cita.</p>;
  else if (!appointment) body = <p role="status">Cargando cita...</p>;
  else {
    const when = centreDateTime(appointment.date);
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
        </dl>
        {savedId && (
          <p className="cr-saved" role="status">
            Historia clínica guardada.{' '}
            <Link to={`/doctor/patient/records/detail/${savedId}`}>Ver Historia Clínica</Link>
          </p>
        )}
        {!open && (
          <button type="button" className="wk-button" aria-expanded={false} onClick={() => setOpen(true)}>
            Crear Historia Clínica
          </button>
        )}
        {open && (
          <RecordCreation
            appointment={appointment}
            onClose={() => setOpen(false)}
            onSaved={(recordId) => {
              setSavedId(recordId);
              setOpen(false);
            }}
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
  onSaved: (recordId: string) => void;
}

/** The opened toggle: loads the view configuration, then the form; "Cerrar" closes it. */
function RecordCreation({ appointment, onClose, onSaved }: RecordCreationProps) {
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
      onSaved(record.id);
    } catch (failure) {
      setBusy(false);
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
