import { useMemo, useState } from 'react';
import { NO_CLOSURES, publicHolidays, type CentreClosures } from '@crm/contracts/centre-calendar';
import { showRequestError, showSuccess, useCentreProfile } from '@crm/web-kit';
import { saveClosures } from '../api/closures';
import { AddForm, type AddField } from './AddForm';
import { DAY_HINT, DAY_INVALID, parseClock, parseDay, showDay } from './dates';
import './centre-closures.css';

const required = (label: string) => (text: string) =>
  text.trim() ? { value: text.trim() } : { error: `${label} es obligatorio` };
const day = (label: string): AddField => ({
  name: label,
  label: `${label} (${DAY_HINT})`,
  placeholder: DAY_HINT,
  parse: (text) => {
    const value = parseDay(text);
    return value ? { value } : { error: DAY_INVALID };
  },
});

/**
 * The centre's closures (ADMIN): the year's public holidays (national and Canary Islands, computed,
 * not removable), the local holidays the admin adds, closed periods with their reason, and shortened
 * days. Each change is saved at once as a new version of the centre profile; patients with an
 * appointment on a day that closes are told by e-mail.
 */
export function CentreClosuresEditor() {
  const { profile } = useCentreProfile();
  const closures: CentreClosures = profile?.closures ?? NO_CLOSURES;
  const [year, setYear] = useState(() => new Date().getFullYear());
  const holidays = useMemo(() => {
    const local = closures.localHolidays
      .filter((entry) => entry.date.startsWith(`${year}-`))
      .map((entry) => ({ ...entry, scope: 'local' as const }));
    return [...publicHolidays(year), ...local].sort((a, b) => a.date.localeCompare(b.date));
  }, [closures, year]);

  const save = async (next: CentreClosures, done: string): Promise<boolean> => {
    try {
      await saveClosures(next);
      void showSuccess('Cierres guardados', done);
      return true;
    } catch (err) {
      void showRequestError(err);
      return false;
    }
  };

  return (
    <div className="bo-closures">
      <section aria-labelledby="bo-closures-holidays">
        <div className="bo-closures__year">
          <h2 id="bo-closures-holidays">Festivos de {year}</h2>
          <button type="button" className="wk-button wk-button--secondary" onClick={() => setYear(year - 1)}>
            Año anterior
          </button>
          <button type="button" className="wk-button wk-button--secondary" onClick={() => setYear(year + 1)}>
            Año siguiente
          </button>
        </div>
        <ul className="bo-closures__list" aria-label={`Festivos de ${year}`}>
          {holidays.map((holiday) => (
            <li key={`${holiday.scope}-${holiday.date}-${holiday.name}`} data-scope={holiday.scope}>
              <span>{showDay(holiday.date)}</span>
              <span>{holiday.name}</span>
              {holiday.scope === 'local' ? (
                <button
                  type="button"
                  className="wk-button wk-button--secondary"
                  aria-label={`Quitar el festivo ${holiday.name} del ${showDay(holiday.date)}`}
                  onClick={() =>
                    void save(
                      {
                        ...closures,
                        localHolidays: closures.localHolidays.filter(
                          (entry) => !(entry.date === holiday.date && entry.name === holiday.name),
                        ),
                      },
                      `Se ha quitado el festivo local del ${showDay(holiday.date)}.`,
                    )
                  }
                >
                  Quitar
                </button>
              ) : (
                <span className="bo-closures__badge">
                  {holiday.scope === 'national' ? 'Festivo nacional' : 'Festivo de Canarias'}
                </span>
              )}
            </li>
          ))}
        </ul>
        <AddForm
          title="Añadir un festivo local"
          button="Añadir festivo local"
          fields={[day('Fecha'), { name: 'name', label: 'Nombre del festivo', parse: required('El nombre') }]}
          onAdd={({ Fecha, name }) =>
            save(
              { ...closures, localHolidays: [...closures.localHolidays, { date: Fecha!, name: name! }] },
              `El ${showDay(Fecha!)} queda cerrado (${name}).`,
            )
          }
        />
      </section>

      <section aria-labelledby="bo-closures-periods">
        <h2 id="bo-closures-periods">Cierres (vacaciones, obras…)</h2>
        {closures.closures.length === 0 ? <p>No hay cierres previstos.</p> : null}
        <ul className="bo-closures__list" aria-label="Cierres">
          {closures.closures.map((period, index) => (
            <li key={`${period.from}-${period.to}-${index}`}>
              <span>
                {period.from === period.to
                  ? showDay(period.from)
                  : `Del ${showDay(period.from)} al ${showDay(period.to)}`}
              </span>
              <span>{period.reason}</span>
              <button
                type="button"
                className="wk-button wk-button--secondary"
                aria-label={`Quitar el cierre: ${period.reason}`}
                onClick={() =>
                  void save(
                    { ...closures, closures: closures.closures.filter((_, i) => i !== index) },
                    'Se ha quitado el cierre.',
                  )
                }
              >
                Quitar
              </button>
            </li>
          ))}
        </ul>
        <AddForm
          title="Añadir un cierre"
          button="Añadir cierre"
          fields={[
            day('Desde'),
            day('Hasta'),
            { name: 'reason', label: 'Motivo', parse: required('El motivo') },
          ]}
          onAdd={({ Desde, Hasta, reason }) =>
            save(
              {
                ...closures,
                closures: [...closures.closures, { from: Desde!, to: Hasta!, reason: reason! }],
              },
              'Los pacientes con cita en esos días recibirán un correo para cambiarla.',
            )
          }
        />
      </section>

      <section aria-labelledby="bo-closures-shortened">
        <h2 id="bo-closures-shortened">Jornadas reducidas</h2>
        {closures.shortenedDays.length === 0 ? <p>No hay jornadas reducidas previstas.</p> : null}
        <ul className="bo-closures__list" aria-label="Jornadas reducidas">
          {closures.shortenedDays.map((entry, index) => (
            <li key={`${entry.date}-${index}`}>
              <span>{showDay(entry.date)}</span>
              <span>
                Cierra a las {entry.closesAt}
                {entry.reason ? ` (${entry.reason})` : ''}
              </span>
              <button
                type="button"
                className="wk-button wk-button--secondary"
                aria-label={`Quitar la jornada reducida del ${showDay(entry.date)}`}
                onClick={() =>
                  void save(
                    { ...closures, shortenedDays: closures.shortenedDays.filter((_, i) => i !== index) },
                    'Se ha quitado la jornada reducida.',
                  )
                }
              >
                Quitar
              </button>
            </li>
          ))}
        </ul>
        <AddForm
          title="Añadir una jornada reducida"
          button="Añadir jornada reducida"
          fields={[
            day('Fecha'),
            {
              name: 'closesAt',
              label: 'Hora de cierre (hh:mm)',
              placeholder: 'hh:mm',
              parse: (text) => {
                const value = parseClock(text);
                return value ? { value } : { error: 'Escriba la hora como hh:mm' };
              },
            },
            { name: 'reason', label: 'Motivo (opcional)', parse: (text) => ({ value: text.trim() }) },
          ]}
          onAdd={({ Fecha, closesAt, reason }) =>
            save(
              {
                ...closures,
                shortenedDays: [
                  ...closures.shortenedDays,
                  { date: Fecha!, closesAt: closesAt!, ...(reason ? { reason } : {}) },
                ],
              },
              `El ${showDay(Fecha!)} el centro cerrará a las ${closesAt}.`,
            )
          }
        />
      </section>
    </div>
  );
}
