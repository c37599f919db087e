import { confirmDialog, showRequestError } from '@crm/web-kit';
import type { OnlinePaymentMode } from '@crm/contracts';
import { checkout, euros, goToPaymentPage } from '../api/payments';

/**
 * The pay step after booking (docs/product/payments.md#online-payment): "Pagar ahora" sends the
 * patient to the payment page; with `optional`, "Pagar en el centro" keeps them here.
 */
export async function offerPayment(
  appointmentId: string,
  online: OnlinePaymentMode,
  priceEuros: number,
): Promise<void> {
  if (online === 'off') return;
  const amount = euros(Math.round(priceEuros * 100));
  const payNow =
    online === 'required'
      ? await confirmDialog({
          title: 'Pague su cita',
          text: `Para confirmar la reserva pague ahora el reconocimiento (${amount}) con tarjeta o Bizum.`,
          icon: 'info',
          confirmButtonText: 'Pagar ahora',
          cancelButtonText: 'Más tarde',
        })
      : await confirmDialog({
          title: '¿Cómo desea pagar?',
          text: `Puede pagar ahora el reconocimiento (${amount}) con tarjeta o Bizum, o el día de la cita en el centro.`,
          icon: 'question',
          confirmButtonText: 'Pagar ahora',
          cancelButtonText: 'Pagar en el centro',
        });
  if (!payNow) return;
  await payAppointment(appointmentId);
}

export async function payAppointment(appointmentId: string): Promise<void> {
  try {
    goToPaymentPage(await checkout(appointmentId));
  } catch (error) {
    await showRequestError(error, 'No se ha podido iniciar el pago');
  }
}
