import { useMemo, useState } from 'react';
import type { FieldType, ViewConfigView, ViewField } from '@crm/contracts';
import { FIELD_TYPES } from '@crm/contracts/form-fields';
import { ApiError, confirmDialog, showDialog, showServerError, showSuccess, useSession } from '@crm/web-kit';
import { AlertNotice, PageHeader } from '@/components';
import { RECORDS_VIEW, useViewConfig } from '../api/records';
import { getViewVersion, saveViewConfig } from '../api/view-config';
import { DynamicForm, defaultValues } from './form-builder';
import {
  checkConfig,
  FIELD_TYPE_LABELS,
  hasIssues,
  newField,
  newFieldProblem,
  serverIssues,
  type ConfigIssues,
} from './form-config/config-draft';
import { FieldEditor } from './form-config/FieldEditor';
import './form-config/form-config.css';

/**
 * "Formulario clínico" (ADMIN): the fields of the clinical record (labels, options, prices,
 * conditional fields), checked with the server's own rules as they are edited, a preview of the form
 * exactly as a doctor gets it, and "Guardar nueva versión" (each save is a new version; records keep
 * the version they were made with). An older version can be viewed and taken as the starting point.
 */
export default function FormConfigPage() {
  const isAdmin = useSession().user?.rol === 'ADMIN';
  const { data: current, error, mutate } = useViewConfig(RECORDS_VIEW, isAdmin);

  if (!isAdmin)
    return (
      <section className="bo-page">
        <PageHeader title="Formulario clínico" />
        <AlertNotice>Solo los administradores pueden configurar el formulario clínico.</AlertNotice>
      </section>
    );
  if (error && !current)
    return (
      <section className="bo-page">
        <PageHeader title="Formulario clínico" />
        <AlertNotice>No se pudo cargar la configuración del formulario. Inténtelo más tarde.</AlertNotice>
      </section>
    );
  if (current === undefined)
    return (
      <section className="bo-page">
        <PageHeader title="Formulario clínico" />
        <p className="wk-slots__hint">Cargando la configuración…</p>
      </section>
    );
  const empty: ViewConfigView = { view: RECORDS_VIEW, version: 0, fields: [] };
  return (
    <FormConfigEditor
      current={current ?? empty}
      onSaved={(saved) => void mutate(saved, { revalidate: false })}
    />
  );
}

/** The editor, started from the loaded configuration (a view without one starts empty, version 0). */
function FormConfigEditor({
  current,
  onSaved,
}: {
  current: ViewConfigView;
  onSaved(saved: ViewConfigView): void;
}) {
  const [fields, setFields] = useState<ViewField[]>(current.fields);
  const [base, setBase] = useState<ViewConfigView>(current);
  const [refused, setRefused] = useState<ConfigIssues>();
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const [type, setType] = useState<FieldType>('TEXT');
  const [addProblem, setAddProblem] = useState<string>();
  const [anchorDate] = useState(() => new Date());

  const draft = fields;
  const checked = useMemo(() => checkConfig(draft), [draft]);
  const issues = refused ?? checked;
  // The preview re-mounts on every change, starting from the defaults a doctor would see.
  const previewKey = useMemo(() => JSON.stringify(draft), [draft]);

  const version = current.version;
  const change = (next: ViewField[]) => {
    setRefused(undefined);
    setFields(next);
  };

  const add = () => {
    const problem = newFieldProblem(name, label, draft);
    setAddProblem(problem);
    if (problem) return;
    change([...draft, newField(name, label, type)]);
    setName('');
    setLabel('');
  };

  const showVersion = async (wanted: number) => {
    try {
      const older = wanted === version ? current : await getViewVersion(RECORDS_VIEW, wanted);
      setBase(older);
      change(older.fields);
    } catch {
      await showServerError();
    }
  };

  const save = async () => {
    if (hasIssues(checked)) return;
    const confirmed = await confirmDialog({
      title: '¿Guardar una nueva versión del formulario?',
      text: `Será la versión ${version + 1}. Las historias clínicas ya guardadas conservan la versión con la que se hicieron.`,
      confirmButtonText: 'Sí, guardar',
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      const saved = await saveViewConfig(RECORDS_VIEW, draft);
      onSaved(saved);
      setBase(saved);
      setFields(saved.fields);
      await showSuccess('Formulario guardado', `Se ha guardado la versión ${saved.version} del formulario.`);
    } catch (failure) {
      if (failure instanceof ApiError && !failure.isServerFailure) {
        setRefused(serverIssues(failure));
        await showDialog({ title: 'No se pudo guardar el formulario', text: failure.message, icon: 'error' });
      } else await showServerError();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="bo-page">
      <PageHeader title="Formulario clínico" />
      <p className="bo-lead" aria-live="polite">
        Versión actual: <strong data-testid="form-version">{version}</strong>
        {base.version !== version ? ` · editando a partir de la versión ${base.version}` : ''}
      </p>
      <div className="fc-versions">
        <label htmlFor="fc-version">Partir de la versión</label>
        <select
          id="fc-version"
          className="wk-input"
          value={base.version}
          onChange={(e) => void showVersion(Number(e.target.value))}
        >
          {Array.from({ length: version }, (_, i) => version - i).map((v) => (
            <option key={v} value={v}>
              Versión {v}
              {v === version ? ' (actual)' : ''}
            </option>
          ))}
        </select>
      </div>
      <div className="fc-layout">
        <div className="fc-editor">
          <h2>Campos</h2>
          {issues.general.length > 0 && (
            <ul className="bo-notice fc-general" role="alert">
              {issues.general.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          {draft.map((field, index) => (
            <FieldEditor
              key={`${index}-${field.name}`}
              field={field}
              problems={issues.byField.get(index) ?? []}
              onChange={(next) => change(draft.map((old, i) => (i === index ? next : old)))}
              onRemove={() => change(draft.filter((_, i) => i !== index))}
            />
          ))}
          <fieldset className="fc-add" aria-label="Añadir campo">
            <legend>Añadir campo</legend>
            <label htmlFor="fc-add-label">Etiqueta</label>
            <input
              id="fc-add-label"
              className="wk-input"
              value={label}
              onChange={(e) => setLabel(e.target.value)}
            />
            <label htmlFor="fc-add-name">Nombre interno (sin espacios)</label>
            <input
              id="fc-add-name"
              className="wk-input"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <label htmlFor="fc-add-type">Tipo</label>
            <select
              id="fc-add-type"
              className="wk-input"
              value={type}
              onChange={(e) => setType(e.target.value as FieldType)}
            >
              {FIELD_TYPES.map((fieldType) => (
                <option key={fieldType} value={fieldType}>
                  {FIELD_TYPE_LABELS[fieldType]}
                </option>
              ))}
            </select>
            <p className="wk-error-line" role={addProblem ? 'alert' : undefined}>
              {addProblem ?? ''}
            </p>
            <button type="button" className="wk-button wk-button--secondary" onClick={add}>
              Añadir campo
            </button>
          </fieldset>
          <div className="bo-actions">
            <button
              type="button"
              className="wk-button"
              disabled={busy || hasIssues(checked)}
              onClick={() => void save()}
            >
              {busy ? 'Guardando…' : 'Guardar nueva versión'}
            </button>
          </div>
        </div>
        <section className="fc-preview" aria-labelledby="fc-preview-title">
          <h2 id="fc-preview-title">Vista previa</h2>
          <p className="bo-lead">Así verá el médico el formulario. Aquí no se guarda ninguna historia.</p>
          {hasIssues(checked) ? (
            <p className="bo-empty">Corrija los errores marcados para ver la vista previa.</p>
          ) : (
            <DynamicForm
              key={previewKey}
              label="Vista previa del formulario"
              fields={draft}
              anchorDate={anchorDate}
              initialValues={defaultValues(draft, anchorDate)}
              submitLabel="Guardar Historia Clínica"
              onSubmit={() =>
                void showDialog({
                  title: 'Vista previa',
                  text: 'El formulario está completo. En la vista previa no se guarda nada.',
                  icon: 'info',
                })
              }
            />
          )}
        </section>
      </div>
    </section>
  );
}
