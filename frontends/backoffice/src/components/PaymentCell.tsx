import { useRef, useState } from 'react';
import { DESK_PAYMENT_METHODS, type DeskPaymentMethod } from '@crm/contracts/payment-methods';
import { showRequestError, showSuccess } from '@crm/web-kit';
import {
  amountText,
  centsOf,
  deskExtraItems,
  euros,
  PAYMENT_METHOD_LABELS,
  recordDeskPayment,
  usePaymentSummary,
  type DeskItem,
} from '@/lib/payments';
import './payment-cell.css';

/**
 * The appointment's payment in the back office: "Pagado" or "Pendiente" with the amount, and
 * "Cobrar" to record a payment taken at the desk (docs/product/payments.md#desk-payments). The dialog
 * proposes the check-up price plus the extra items of the appointment's clinical record, if any; once
 * the check-up is paid (online, say), "Extras" charges the record's extra items alone.
 */
export function PaymentCell({ appointmentId, who }: { appointmentId: string; who: string }) {
  // Batched with the other rows of the list or agenda: one call for the page.
  const { data, mutate } = usePaymentSummary(appointmentId);
  const dialog = useRef<HTMLDialogElement>(null);
  const [method, setMethod] = useState<DeskPaymentMethod>('card');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState('');
  const [busy, setBusy] = useState(false);
  const [items, setItems] = useState<DeskItem[]>([]);
  /** What the dialog charges: the check-up (with any extras), or the extras once the check-up is paid. */
  const [checkUpCents, setCheckUpCents] = useState(0);
  /** The last opening: a record answer for an earlier one is dropped. */
  const opening = useRef(0);
  /** Whether the amount was typed since the dialog opened: the record's total never overwrites it. */
  const typed = useRef(false);
  if (!data) return <span className="bo-payment">…</span>;

  const paid = data.status === 'paid';
  const open = () => {
    // Paid: only the record's extra items are left to charge (the DGT fee, an extra report).
    const checkUp = paid ? 0 : data.amountCents;
    const current = ++opening.current;
    typed.current = false;
    setItems([]);
    setCheckUpCents(checkUp);
    setAmount(checkUp ? amountText(checkUp) : '');
    setAmountError('');
    dialog.current?.showModal();
    deskExtraItems(appointmentId)
      .then((extras) => {
        const total = extras.reduce((sum, item) => sum + item.amountCents, checkUp);
        if (current !== opening.current || extras.length === 0 || total <= 0) return;
        setItems(extras);
        if (!typed.current) setAmount(amountText(total));
      })
      // No record read: the dialog proposes the check-up price alone, as for an appointment without one.
      .catch(() => undefined);
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const amountCents = centsOf(amount);
    if (!amountCents) {
      setAmountError('Indique un importe válido, por ejemplo 19,00');
      return;
    }
    setBusy(true);
    try {
      await recordDeskPayment({ appointmentId, method, amountCents });
      dialog.current?.close();
      await mutate();
      void showSuccess(
        'Pago registrado',
        `${euros(amountCents)} (${PAYMENT_METHOD_LABELS[method]}) de ${who}.`,
      );
    } catch (error) {
      void showRequestError(error, 'No se ha podido registrar el pago');
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="bo-payment" data-appointment={appointmentId}>
      <span className={`bo-badge bo-badge--${paid ? 'paid' : 'unpaid'}`} data-testid="payment-badge">
        {/* Paid: the money kept, which includes the record's extra items charged at the desk. */}
        {paid ? `Pagado ${euros(data.paidCents)}` : `Pendiente ${euros(data.amountCents)}`}
      </span>
      <button
        type="button"
        className={`wk-button bo-small${paid ? ' wk-button--secondary' : ''}`}
        onClick={open}
        aria-label={paid ? `Cobrar extras de la cita de ${who}` : `Cobrar la cita de ${who}`}
      >
        {paid ? 'Extras' : 'Cobrar'}
      </button>
      <dialog ref={dialog} className="bo-payment__dialog" aria-labelledby={`pay-${appointmentId}`}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <h2 id={`pay-${appointmentId}`}>Registrar un pago</h2>
          <p>{who}</p>
          {items.length > 0 ? (
            <ul className="bo-payment__items" aria-label="Conceptos" data-testid="payment-items">
              {checkUpCents ? (
                <li>
                  <span>Reconocimiento médico</span>
                  <span>{euros(checkUpCents)}</span>
                </li>
              ) : null}
              {items.map((item) => (
                <li key={item.label}>
                  <span>{item.label}</span>
                  <span>{euros(item.amountCents)}</span>
                </li>
              ))}
              <li className="bo-payment__total">
                <span>Total</span>
                <span>{euros(items.reduce((sum, item) => sum + item.amountCents, checkUpCents))}</span>
              </li>
            </ul>
          ) : null}
          <label>
            <span>Forma de pago</span>
            <select
              className="wk-input"
              value={method}
              onChange={(e) => setMethod(e.target.value as DeskPaymentMethod)}
            >
              {DESK_PAYMENT_METHODS.map((value) => (
                <option key={value} value={value}>
                  {PAYMENT_METHOD_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>Importe (€)</span>
            <input
              className="wk-input"
              inputMode="decimal"
              value={amount}
              onChange={(e) => {
                typed.current = true;
                setAmount(e.target.value);
              }}
              aria-invalid={amountError ? true : undefined}
            />
          </label>
          {amountError ? (
            <p className="bo-payment__error" role="alert">
              {amountError}
            </p>
          ) : null}
          <div className="bo-payment__actions">
            <button
              type="button"
              className="wk-button wk-button--secondary"
              onClick={() => dialog.current?.close()}
            >
              Cancelar
            </button>
            <button type="submit" className="wk-button" disabled={busy}>
              Registrar pago
            </button>
          </div>
        </form>
      </dialog>
    </span>
  );
}
