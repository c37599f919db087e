import { useId } from 'react';

/** A labelled search input ("Buscar paciente", "Buscar registro"): the label is the placeholder too. */
export function SearchBox({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="bo-search">
      <label htmlFor={id} className="wk-visually-hidden">
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="wk-input"
        placeholder={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
