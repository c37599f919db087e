import type { PaymentMethod, ReportMoney } from '@crm/contracts';
import { formatAmount } from '@crm/web-kit/format';
import { PAYMENT_METHOD_LABELS } from '@/lib/payments';

const euros = (cents: number, currency: string) => formatAmount(cents / 100, currency);

/**
 * The money of the period (payments taken and refunded, on the day the money moved): taken,
 * refunded and net, what the period's appointments still owe, then the same by payment method.
 * Only methods that moved money are listed.
 */
export function MoneyTotals({ money }: { money: ReportMoney }) {
  const methods = Object.entries(money.byMethod) as Array<
    [PaymentMethod, ReportMoney['byMethod'][PaymentMethod]]
  >;
  return (
    <section className="bo-dashboard__money" aria-labelledby="bo-dashboard-money">
      <h2 id="bo-dashboard-money" className="bo-dashboard__heading">
        Cobros del periodo
      </h2>
      <dl className="bo-dashboard__totals" aria-label="Cobros del periodo">
        <div>
          <dt>Cobrado</dt>
          <dd data-figure="moneyTaken">{euros(money.takenCents, money.currency)}</dd>
        </div>
        <div>
          <dt>Devuelto</dt>
          <dd data-figure="moneyRefunded">{euros(money.refundedCents, money.currency)}</dd>
        </div>
        <div>
          <dt>Neto</dt>
          <dd data-figure="moneyNet">{euros(money.netCents, money.currency)}</dd>
        </div>
        <div>
          <dt>Pendiente de cobro</dt>
          <dd data-figure="moneyPending">{euros(money.pendingCents, money.currency)}</dd>
        </div>
      </dl>
      <p className="bo-dashboard__note">
        Pendiente de cobro: el precio del reconocimiento de cada cita del periodo (realizada o por venir, no
        cancelada) menos lo pagado por ella.
      </p>
      {methods.length > 0 ? (
        <div className="bo-dashboard__table-wrap">
          <table className="bo-dashboard__money-table">
            <caption>Por método de pago</caption>
            <thead>
              <tr>
                <th scope="col">Método</th>
                <th scope="col">Cobrado</th>
                <th scope="col">Devuelto</th>
                <th scope="col">Neto</th>
              </tr>
            </thead>
            <tbody>
              {methods.map(([method, figures]) => (
                <tr key={method} data-method={method}>
                  <th scope="row">{PAYMENT_METHOD_LABELS[method] ?? method}</th>
                  <td>{euros(figures!.takenCents, money.currency)}</td>
                  <td>{euros(figures!.refundedCents, money.currency)}</td>
                  <td>{euros(figures!.netCents, money.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="bo-dashboard__note">No hubo cobros ni devoluciones en el periodo.</p>
      )}
    </section>
  );
}
