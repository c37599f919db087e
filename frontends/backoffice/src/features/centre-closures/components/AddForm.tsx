import { useState, type FormEvent } from 'react';
import { TextField } from '@crm/web-kit/forms';

export interface AddField {
  name: string;
  label: string;
  placeholder?: string;
  /** Checks and converts the typed text: a value, or an error message. */
  parse(text: string): { value: string } | { error: string };
}

/** A small form that adds one entry: its fields, then the button; cleared once the entry is saved. */
export function AddForm({
  title,
  fields,
  button,
  onAdd,
}: {
  title: string;
  fields: AddField[];
  button: string;
  onAdd(values: Record<string, string>): Promise<boolean>;
}) {
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values: Record<string, string> = {};
    const found: Record<string, string> = {};
    for (const field of fields) {
      const parsed = field.parse(texts[field.name] ?? '');
      if ('error' in parsed) found[field.name] = parsed.error;
      else values[field.name] = parsed.value;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (await onAdd(values)) setTexts({});
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="bo-closures__add" onSubmit={submit} noValidate aria-label={title}>
      <div className="bo-closures__fields">
        {fields.map((field) => (
          <TextField
            key={field.name}
            label={field.label}
            placeholder={field.placeholder}
            autoComplete="off"
            value={texts[field.name] ?? ''}
            onValueChange={(value) => setTexts((current) => ({ ...current, [field.name]: value }))}
            error={errors[field.name]}
          />
        ))}
      </div>
      <button type="submit" className="wk-button" disabled={busy}>
        {button}
      </button>
    </form>
  );
}
