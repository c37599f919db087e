import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { downloadFile, showError, showRequestError, showSuccess } from '@crm/web-kit';
import { euros, useAppointmentPayments } from '../api/payments';
import { payAppointment } from './pay-step';
import { paymentHoldNotice } from '@/lib/payment-hold';
import './payment-section.css';

const STATUS_TEXT = {
  paid: 'Pagada',
  pending: 'Pago pendiente',
  unpaid: 'Sin pagar',
  refunded: 'Importe devuelto',
} as const;

/**
 * The appointment's payment in the patient area: its state, "Pagar ahora" while it is unpaid and
 * online payment is on, the invoices; and the result of a payment (`/user?payment=ok|ko`).
 */
export function PaymentSection({
  appointmentId,
  paymentDueBy,
}: {
  appointmentId: string;
  /** Held unpaid until then (online payment required): paid by then, or the slot is freed. */
  paymentDueBy?: string;
}) {
  const { data, mutate } = useAppointmentPayments(appointmentId);
  const [params, setParams] = useSearchParams();
  const result = params.get('payment');
  const [atCentre, setAtCentre] = useState(false);

  useEffect(() => {
    if (result !== 'ok' && result !== 'ko') return;
    setParams({}, { replace: true });
    void mutate();
    if (result === 'ok') void showSuccess('Pago realizado', 'Hemos recibido su pago. Gracias.');
    else
      void showError(
        'El pago no se ha completado',
        'No se ha realizado ningún cargo. Puede intentarlo de nuevo o pagar en el centro.',
      );
  }, [result, setParams, mutate]);

  if (!data) return null;
  const canPay = data.online !== 'off' && (data.status === 'unpaid' || data.status === 'pending');
  const download = (number: string) =>
    downloadFile(`/payments/invoices/${number}/pdf`, {
      accept: 'application/pdf',
      fallbackName: `factura-${number}.pdf`,
    }).catch((error: unknown) => showRequestError(error));

  return (
    <div className="payment-section" data-testid="payment-section">
      <p>
        Pago: <strong data-testid="payment-status">{STATUS_TEXT[data.status]}</strong> (
        {euros(data.amountCents, data.currency)})
      </p>
      {canPay && atCentre ? <p>Pagará el reconocimiento el día de la cita en el centro.</p> : null}
      {canPay && !atCentre ? (
        <div className="payment-section__step" data-testid="pay-step">
          <p>
            {data.online === 'required'
              ? 'Pague ahora con tarjeta o Bizum para confirmar su reserva.'
              : 'Puede pagar ahora con tarjeta o Bizum, o el día de la cita en el centro.'}
          </p>
          {paymentDueBy ? (
            <p className="payment-section__hold" data-testid="payment-hold" role="status">
              <strong>Horario reservado sin pagar.</strong>
              {paymentHoldNotice(paymentDueBy)}
            </p>
          ) : null}
          <div className="appointment-card__actions">
            <button type="button" className="wk-button" onClick={() => void payAppointment(appointmentId)}>
              Pagar ahora
            </button>
            {data.online === 'optional' ? (
              <button
                type="button"
                className="wk-button wk-button--secondary"
                onClick={() => setAtCentre(true)}
              >
                Pagar en el centro
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
      {data.invoices.length > 0 ? (
        <ul className="payment-section__invoices">
          {data.invoices.map((invoice) => (
            <li key={invoice.number}>
              <button type="button" onClick={() => void download(invoice.number)}>
                {invoice.kind === 'invoice' ? 'Factura' : 'Factura rectificativa'} {invoice.number} (
                {euros(invoice.totalCents, data.currency)})
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
