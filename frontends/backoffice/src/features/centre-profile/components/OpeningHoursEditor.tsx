import type { HoursDraft } from './profile-draft';

/** The period's two times: field, visible label, and how a screen reader names it. */
const TIME_INPUTS = [
  ['from', 'Abre', 'Apertura'],
  ['to', 'Cierra', 'Cierre'],
] as const;

const WEEKDAYS = [
  [1, 'L', 'lunes'],
  [2, 'M', 'martes'],
  [3, 'X', 'miércoles'],
  [4, 'J', 'jueves'],
  [5, 'V', 'viernes'],
  [6, 'S', 'sábado'],
  [7, 'D', 'domingo'],
] as const;

interface Props {
  periods: HoursDraft[];
  onChange(periods: HoursDraft[]): void;
  /** Server messages by path (`openingHours`, `openingHours.0.to`…). */
  errors: Record<string, string>;
  disabled?: boolean;
}

/** The opening periods: the weekdays each applies to, its opening and closing time; add or remove. */
export function OpeningHoursEditor({ periods, onChange, errors, disabled }: Props) {
  const update = (index: number, change: Partial<HoursDraft>) =>
    onChange(periods.map((period, i) => (i === index ? { ...period, ...change } : period)));
  const toggleDay = (index: number, day: number) => {
    const days = periods[index]!.days;
    update(index, { days: days.includes(day) ? days.filter((d) => d !== day) : [...days, day] });
  };
  const problemsOf = (index: number) =>
    Object.entries(errors)
      .filter(([path]) => path.startsWith(`openingHours.${index}`))
      .map(([, message]) => message)
      .join(' ');

  return (
    <fieldset className="bo-fieldset" disabled={disabled}>
      <legend>Horario de apertura</legend>
      {periods.map((period, index) => {
        const problems = problemsOf(index);
        const number = index + 1;
        return (
          <div key={index} className={`bo-hours${problems ? ' wk-field--error' : ''}`}>
            <div className="bo-hours__days" role="group" aria-label={`Días del horario ${number}`}>
              {WEEKDAYS.map(([day, initial, name]) => (
                <label key={day} className="bo-hours__day">
                  <input
                    type="checkbox"
                    checked={period.days.includes(day)}
                    onChange={() => toggleDay(index, day)}
                  />
                  <span aria-hidden="true">{initial}</span>
                  <span className="wk-visually-hidden">{name}</span>
                </label>
              ))}
            </div>
            {TIME_INPUTS.map(([key, label, named]) => (
              <label key={key} className="bo-hours__time">
                {label}
                <input
                  type="time"
                  className="wk-input"
                  aria-label={`${named} del horario ${number}`}
                  value={period[key]}
                  onChange={(e) => update(index, { [key]: e.target.value })}
                />
              </label>
            ))}
            <button
              type="button"
              className="wk-button wk-button--secondary"
              onClick={() => onChange(periods.filter((_, i) => i !== index))}
            >
              Quitar horario {number}
            </button>
            <p className="wk-error-line" role={problems ? 'alert' : undefined}>
              {problems}
            </p>
          </div>
        );
      })}
      <p className="wk-error-line" role={errors.openingHours ? 'alert' : undefined}>
        {errors.openingHours ?? ''}
      </p>
      <button
        type="button"
        className="wk-button wk-button--secondary"
        onClick={() => onChange([...periods, { days: [1, 2, 3, 4, 5], from: '09:00', to: '14:00' }])}
      >
        Añadir horario
      </button>
    </fieldset>
  );
}
