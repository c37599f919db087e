import { useEffect, useRef } from 'react';
import { useSWRConfig } from 'swr';
import { MESSAGES, showBookingError, showSuccess, useSession } from '@crm/web-kit';
import { pendingDate } from '@/lib/pending-date';
import { BOOKED_DATES_PATH, CURRENT_DATE_PATH } from '@/lib/cache-keys';

/**
 * A date picked before signing in is booked as soon as a patient is signed in
 * (docs/product/booking.md#pending-booking). Staff and
 * the kiosk account drop it. The booking code and the time library load only when needed.
 */
export function PendingBooking() {
  const { status, user } = useSession();
  const { mutate } = useSWRConfig();
  const busy = useRef(false);

  useEffect(() => {
    if (status !== 'loggedIn' || !user || busy.current) return;
    const date = pendingDate.read();
    if (!date) return;
    pendingDate.clear();
    if (user.rol !== 'PACIENT' || Date.parse(date) <= Date.now()) return;
    busy.current = true;
    void (async () => {
      try {
        const [{ bookDate }, time, { releaseWarning }, { paymentHoldNotice }] = await Promise.all([
          import('@/features/booking/api/book-date'),
          import('@crm/web-kit/time'),
          import('@/lib/unconfirmed-release'),
          import('@/lib/payment-hold'),
        ]);
        try {
          const booked = await bookDate(date);
          await mutate(CURRENT_DATE_PATH, { date: booked.date }, { revalidate: true });
          void mutate(BOOKED_DATES_PATH);
          await showSuccess(
            MESSAGES.bookingSuccess.title,
            `Su cita ha sido reservada para el ${time.formatDate(booked.date)} a las ${time.formatTime(booked.date)} (Atlantic/Canary).` +
              (booked.paymentDueBy ? paymentHoldNotice(booked.paymentDueBy) : '') +
              (user.profile?.confirmed === false ? releaseWarning(booked.date) : ''),
          );
        } catch (error) {
          void mutate(CURRENT_DATE_PATH);
          await showBookingError(error);
        }
      } finally {
        busy.current = false;
      }
    })();
  }, [status, user, mutate]);

  return null;
}
