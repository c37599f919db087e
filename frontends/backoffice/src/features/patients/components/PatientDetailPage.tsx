import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { AppointmentView } from '@crm/contracts';
import { ApiError, confirmDialog, displayPhone, MESSAGES, showBookingError, showSuccess } from '@crm/web-kit';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { AlertNotice, PageHeader } from '@/components';
import { APPOINTMENTS_KEY, BOOKED_DATES_PATH, historyKey } from '@/lib/cache-keys';
import { cancelAppointment, rescheduleAppointment, usePatientAppointments } from '../api/patients';
import { RescheduleSlotPicker } from './RescheduleSlotPicker';

/**
 * Patient detail (docs/product/back-office.md#patient-detail): "Detalle del Paciente" (phone "No registrado"
 * when absent), "Detalle de la Cita" with "Editar Cita" (a new day and free slot, confirmed, then the
 * appointment is moved in one step) and "Cancelar Cita", or "No hay citas agendadas"; links to the patient
 * list, their records and their appointment history.
 */
export default function PatientDetailPage() {
  const { id = '' } = useParams();
  const { data, error, isLoading, mutate } = usePatientAppointments(id);
  const { mutate: refresh } = useSWRConfig();
  const patient = data?.user;
  const appointment = data?.appointment?.[0];
  const [editing, setEditing] = useState(false);

  const move = async (a: AppointmentView, slot: string) => {
    const confirmed = await confirmDialog({
      title: '¿Cambiar la cita?',
      text: `Nueva fecha ${formatDate(slot)} Hora ${formatTime(slot)} (Atlantic/Canary)`,
    });
    if (!confirmed) return;
    try {
      const moved = await rescheduleAppointment(a.id, slot);
      setEditing(false);
      await Promise.all([
        mutate(),
        refresh(historyKey(id)),
        refresh(APPOINTMENTS_KEY),
        refresh(BOOKED_DATES_PATH),
      ]);
      await showSuccess(
        'Cita cambiada',
        `La cita es ahora el ${formatDate(moved.date)} a las ${formatTime(moved.date)} (Atlantic/Canary).`,
      );
    } catch (failure) {
      await Promise.all([mutate(), refresh(BOOKED_DATES_PATH)]);
      await showBookingError(failure);
    }
  };

  const cancel = async (a: AppointmentView) => {
    const confirmed = await confirmDialog({
      title: '¿Cancelar la cita?',
      text: `Fecha ${formatDate(a.date)} Hora ${formatTime(a.date)} (Atlantic/Canary)`,
      icon: 'warning',
    });
    if (!confirmed) return;
    try {
      await cancelAppointment(a.id);
      await Promise.all([mutate(), refresh(historyKey(id)), refresh(APPOINTMENTS_KEY)]);
      await showSuccess(MESSAGES.cancelSuccess.title, 'La cita ha sido cancelada correctamente.');
    } catch (failure) {
      await mutate();
      await showBookingError(failure);
    }
  };

  if (isLoading) {
    return (
      <section className="bo-page">
        <p role="status">Cargando paciente...</p>
      </section>
    );
  }
  if (error || !patient) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <section className="bo-page">
        <PageHeader title="Detalle del Paciente" />
        <AlertNotice>{notFound ? 'Paciente no encontrado' : 'No se pudo cargar el paciente.'}</AlertNotice>
        <Link className="wk-button wk-button--secondary" to="/doctor/patients/list">
          Volver a la lista de pacientes
        </Link>
      </section>
    );
  }

  return (
    <section className="bo-page bo-detail">
      <PageHeader title="Detalle del Paciente" />
      <dl className="bo-facts">
        <dt>Nombre</dt>
        <dd>{patient.name}</dd>
        <dt>Correo</dt>
        <dd>{patient.email}</dd>
        <dt>Teléfono</dt>
        <dd>{patient.phone ? displayPhone(patient.phone) : 'No registrado'}</dd>
      </dl>

      <h2>Detalle de la Cita</h2>
      {appointment ? (
        <div className="bo-card">
          <dl className="bo-facts">
            <dt>Fecha</dt>
            <dd>{formatDate(appointment.date)}</dd>
            <dt>Hora</dt>
            <dd>{formatTime(appointment.date)}</dd>
          </dl>
          <div className="bo-actions">
            <button
              type="button"
              className="wk-button wk-button--secondary"
              aria-expanded={editing}
              onClick={() => setEditing((open) => !open)}
            >
              Editar Cita
            </button>
            <button
              type="button"
              className="wk-button wk-button--danger"
              onClick={() => void cancel(appointment)}
            >
              Cancelar Cita
            </button>
          </div>
          {editing ? (
            <RescheduleSlotPicker
              onPick={(slot) => void move(appointment, slot)}
              onClose={() => setEditing(false)}
            />
          ) : null}
        </div>
      ) : (
        <p className="bo-empty">No hay citas agendadas</p>
      )}

      <nav className="bo-actions" aria-label="Más sobre el paciente">
        <Link className="wk-button wk-button--secondary" to="/doctor/patients/list">
          Lista de Pacientes
        </Link>
        <Link
          className="wk-button wk-button--secondary"
          to={`/doctor/patient/records/${encodeURIComponent(patient.name)}`}
        >
          Registros Clínicos
        </Link>
        <Link
          className="wk-button wk-button--secondary"
          to={`/doctor/appointments/hisotry/${patient.id ?? patient._id}`}
        >
          Historial de Citas
        </Link>
      </nav>
    </section>
  );
}
