import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';
import type { UserView } from '@crm/contracts';
import {
  api,
  confirmDialog,
  describeOpeningHours,
  formatPrice,
  isStaff,
  MESSAGES,
  SlotPatientPicker,
  showBookingError,
  showSuccess,
  useCentreProfile,
  useSession,
} from '@crm/web-kit';
import { Calendar } from '@crm/web-kit/calendar';
import { closedReason, formatDate, formatTime, freeSlots, type Day } from '@crm/web-kit/time';
import { CURRENT_DATE_PATH } from '@/lib/cache-keys';
import { pendingDate } from '@/lib/pending-date';
import { useWaitlist } from '@/lib/waitlist';
import { DEFAULT_REFUND_WINDOW_HOURS, moveRefundNotice, type CurrentAppointment } from '@/lib/refund-policy';
import { bookDate } from '../api/book-date';
import { bookDateForPatient } from '../api/book-date-for-patient';
import { rescheduleDate } from '../api/reschedule-date';
import { useBookedDates } from '../api/get-booked-dates';
import { SlotList } from './SlotList';
import { WaitlistButton } from './WaitlistButton';
import { WelcomeModal } from './WelcomeModal';
import { BOOKING_INTRO, FACT_WIDTHS, HOURS_AND_PRICE, hoursAndPrice, MOVING_INTRO } from '../booking-intro';
import { Placeholder } from '@/components/centre/Placeholder';
import { usePageTitle } from '@/lib/page-title';
import { releaseWarning, UNCONFIRMED_BOOKING_NOTICE } from '@/lib/unconfirmed-release';
import { paymentHoldNotice } from '@/lib/payment-hold';

const currentAppointment = () => api.get<CurrentAppointment>(CURRENT_DATE_PATH);

const confirmationText = (slot: string) =>
  `Fecha ${formatDate(slot)} Hora ${formatTime(slot)} (Atlantic/Canary)`;

/**
 * Booking calendar (docs/product/booking.md#booking-calendar): pick a day, then a free 15-minute slot. With
 * `?cambiar=1` (the patient area's "Cambiar cita") the slot picked moves the patient's appointment instead,
 * in one step: the old one stays until the new one is confirmed.
 */
export default function BookingPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const moving = params.get('cambiar') === '1' && session.user?.rol === 'PACIENT';
  usePageTitle(moving ? 'Cambiar Cita' : 'Reservar Cita');
  const { profile, status: profileStatus } = useCentreProfile();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const { data: booked, mutate: refreshBooked } = useBookedDates();
  // Moving: the appointment being moved, whose refund status the move keeps.
  const { data: current } = useSWR<CurrentAppointment>(moving ? CURRENT_DATE_PATH : null, currentAppointment);

  const [selected, setSelected] = useState<Day | null>(null);
  const patientSignedIn = session.status === 'loggedIn' && session.user?.rol === 'PACIENT';
  const unconfirmed = patientSignedIn && session.user?.profile?.confirmed === false;
  const { data: waitlist } = useWaitlist(patientSignedIn);
  const held = waitlist?.entries.find((entry) => entry.day === selected)?.offer;
  const [welcomeSlot, setWelcomeSlot] = useState<string | null>(null);
  const [pickerSlot, setPickerSlot] = useState<string | null>(null);

  const closures = profile?.closures;
  // No slot is offered before the taken ones are known: offering them all would offer booked ones.
  const slots = useMemo(
    () => (selected && booked ? freeSlots(selected, booked, undefined, closures) : []),
    [selected, booked, closures],
  );
  const closed = selected ? closedReason(selected, closures) : undefined;

  const book = async (slot: string, patient?: UserView) => {
    const refundWindow = profile?.prices.refundWindowHours ?? DEFAULT_REFUND_WINDOW_HOURS;
    // The appointment being moved, read now if the page has not had it yet.
    const movedFrom = moving ? (current ?? (await currentAppointment().catch(() => undefined))) : undefined;
    const moveNotice = movedFrom?.date
      ? ` ${moveRefundNotice({ ...movedFrom, date: movedFrom.date }, refundWindow)}`
      : '';
    const confirmed = await confirmDialog({
      title: moving ? '¿Cambiar su cita a esta hora?' : '¿Confirmar la cita?',
      text: `${confirmationText(slot)}${moveNotice}`,
    });
    if (!confirmed) return;
    try {
      if (moving) {
        const moved = await rescheduleDate(slot);
        await mutate(
          CURRENT_DATE_PATH,
          { date: moved.date, ...(moved.refundForfeited ? { refundForfeited: true } : {}) },
          { revalidate: false },
        );
        void refreshBooked();
        navigate('/user');
        await showSuccess('Cita cambiada', `Su cita es ahora: ${confirmationText(moved.date)}.`);
      } else if (patient) {
        await bookDateForPatient(slot, patient.id);
        void refreshBooked();
        await showSuccess(
          MESSAGES.bookingSuccess.title,
          `Cita reservada para ${patient.name}: ${confirmationText(slot)}.`,
        );
      } else {
        const result = await bookDate(slot);
        await mutate(CURRENT_DATE_PATH, { date: result.date }, { revalidate: true });
        void refreshBooked();
        navigate('/user');
        await showSuccess(
          MESSAGES.bookingSuccess.title,
          `Su cita ha sido reservada: ${confirmationText(result.date)}.` +
            (result.paymentDueBy ? paymentHoldNotice(result.paymentDueBy) : '') +
            (unconfirmed ? releaseWarning(result.date) : ''),
        );
      }
    } catch (error) {
      void refreshBooked();
      if (!patient) void mutate(CURRENT_DATE_PATH);
      await showBookingError(error);
    }
  };

  const pick = (slot: string) => {
    if (session.status !== 'loggedIn' || !session.user) {
      pendingDate.save(slot);
      setWelcomeSlot(slot);
      return;
    }
    if (isStaff(session.user.rol)) {
      setPickerSlot(slot);
      return;
    }
    void book(slot);
  };

  return (
    <div className="page booking-page">
      <header className="page__header">
        <h1>{moving ? 'Cambie su cita' : 'Reserve su cita'}</h1>
        <p>
          {moving ? MOVING_INTRO : BOOKING_INTRO}
          {profile ? (
            hoursAndPrice(
              describeOpeningHours(profile.openingHours),
              formatPrice(profile.prices.checkUp, profile.prices.currency),
            )
          ) : profileStatus === 'loading' ? (
            <>
              {HOURS_AND_PRICE[0]}
              <Placeholder width={FACT_WIDTHS.hours} />
              {HOURS_AND_PRICE[1]}
              <Placeholder width={FACT_WIDTHS.price} />
              {HOURS_AND_PRICE[2]}
            </>
          ) : null}
        </p>
        {unconfirmed && !moving ? (
          <p className="booking-page__notice" role="note">
            {UNCONFIRMED_BOOKING_NOTICE}
          </p>
        ) : null}
      </header>
      <div className="booking-page__body">
        <Calendar selected={selected} onSelect={setSelected} closures={closures} />
        <div>
          <SlotList
            day={selected}
            slots={slots}
            loading={!booked}
            held={held}
            onPick={pick}
            closed={closed}
          />
          {selected && booked && !closed && !moving && !isStaff(session.user?.rol) ? (
            <WaitlistButton day={selected} full={slots.length === 0} signedIn={patientSignedIn} />
          ) : null}
        </div>
      </div>
      <WelcomeModal slot={welcomeSlot} onClose={() => setWelcomeSlot(null)} />
      <SlotPatientPicker
        slot={pickerSlot}
        onClose={() => setPickerSlot(null)}
        onBook={(slot, patient) => void book(slot, patient)}
      />
    </div>
  );
}
