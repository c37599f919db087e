import { useState } from 'react';
import { useSWRConfig } from 'swr';
import type { UserView } from '@crm/contracts';
import {
  confirmDialog,
  describeOpeningHours,
  MESSAGES,
  SlotPatientPicker,
  showBookingError,
  showSuccess,
  useCentreProfile,
} from '@crm/web-kit';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { PageHeader, SlotChooser } from '@/components';
import { APPOINTMENTS_KEY, BOOKED_DATES_PATH } from '@/lib/cache-keys';
import { bookForPatient } from '../api/schedule';

const slotText = (slot: string) => `Fecha ${formatDate(slot)} Hora ${formatTime(slot)} (Atlantic/Canary)`;

/**
 * "Agendar Cita" for a patient (docs/product/back-office.md#schedule-for-a-patient): pick a day, a free
 * 15-minute slot (Atlantic/Canary, booked ones removed), then the patient in "Seleccione un paciente";
 * confirmation, POST /dates/admin {date, pacientId}, "Reserva exitosa".
 */
export default function ScheduleAppointmentPage() {
  const { mutate } = useSWRConfig();
  const [pickerSlot, setPickerSlot] = useState<string | null>(null);
  // The hours come from the centre profile (one truth); the sentence waits for it rather than guess.
  const { profile } = useCentreProfile();

  const book = async (slot: string, patient: UserView) => {
    const confirmed = await confirmDialog({
      title: '¿Confirmar la cita?',
      text: `${patient.name}: ${slotText(slot)}`,
    });
    if (!confirmed) return;
    try {
      await bookForPatient(slot, patient.id);
      await showSuccess(
        MESSAGES.bookingSuccess.title,
        `Cita reservada para ${patient.name}: ${slotText(slot)}.`,
      );
    } catch (error) {
      await showBookingError(error);
    } finally {
      void mutate(BOOKED_DATES_PATH);
      // The appointment list reloads next time it is opened.
      void mutate(APPOINTMENTS_KEY);
    }
  };

  return (
    <section className="bo-page">
      <PageHeader title="Agendar Cita" />
      <p className="bo-lead">
        Elija un día y una hora libre; después, el paciente.
        {profile ? ` Horario ${describeOpeningHours(profile.openingHours)} (hora de Canarias).` : null}
      </p>
      <SlotChooser onPick={setPickerSlot} />
      <SlotPatientPicker
        slot={pickerSlot}
        onClose={() => setPickerSlot(null)}
        onBook={(slot, patient) => void book(slot, patient)}
      />
    </section>
  );
}
