import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { CentreProfile } from '@crm/contracts';
import { ApiError, showServerError, showSuccess, useSession } from '@crm/web-kit';
import { FormAlert, TextField } from '@crm/web-kit/forms';
import { AlertNotice, PageHeader } from '@/components';
import { loadCentreProfile, saveCentreProfile } from '../api/centre-profile';
import { OpeningHoursEditor } from './OpeningHoursEditor';
import { bodyOf, draftOf, profileErrors, type ProfileDraft } from './profile-draft';

type Errors = { fields: Record<string, string>; general?: string };

const SECTIONS: Array<{ legend: string; fields: Array<[path: string, label: string, type?: string]> }> = [
  {
    legend: 'Identidad',
    fields: [
      ['brandName', 'Nombre comercial'],
      ['subtitle', 'Subtítulo'],
      ['senderName', 'Nombre del remitente de los correos'],
    ],
  },
  {
    legend: 'Contacto',
    fields: [
      ['address', 'Dirección'],
      ['mapsUrl', 'Enlace al mapa', 'url'],
      ['phone', 'Teléfono', 'tel'],
      ['email', 'Correo electrónico de contacto', 'email'],
    ],
  },
  {
    legend: 'Datos legales',
    fields: [
      ['legalName', 'Razón social'],
      ['taxId', 'NIF'],
      ['registry', 'Registro mercantil'],
    ],
  },
];

const PRICE_FIELDS: Array<[path: string, label: string]> = [
  ['prices.checkUp', 'Reconocimiento médico (impuestos incluidos)'],
  ['prices.dgtManagementFee', 'Gestión DGT'],
  ['prices.extraReportSupplement', 'Informe adicional'],
  ['prices.dgtFees.10', 'Tasa DGT, 10 años'],
  ['prices.dgtFees.4', 'Tasa DGT, 4 años'],
  ['prices.dgtFees.3', 'Tasa DGT, 3 años'],
  ['prices.dgtFees.2', 'Tasa DGT, 2 años'],
  ['prices.dgtFees.1', 'Tasa DGT, 1 año'],
  ['prices.currency', 'Moneda (código ISO)'],
  ['prices.refundWindowHours', 'Ventana de reembolso (horas antes de la cita)'],
];

/**
 * "Perfil del centro" (ADMIN): what the site, the e-mails and the `.ics` say about the centre.
 * Saving sends the whole profile as loaded with the edits applied (a new version); the server's
 * refusals show in Spanish under their fields.
 */
export default function CentreProfilePage() {
  const isAdmin = useSession().user?.rol === 'ADMIN';
  const [loaded, setLoaded] = useState<CentreProfile>();
  const [draft, setDraft] = useState<ProfileDraft>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [errors, setErrors] = useState<Errors>({ fields: {} });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!isAdmin) return;
    loadCentreProfile()
      .then((profile) => {
        setLoaded(profile);
        setDraft(draftOf(profile));
      })
      .catch(() => setLoadFailed(true));
  }, [isAdmin]);

  if (!isAdmin)
    return (
      <section className="bo-page">
        <PageHeader title="Perfil del centro" />
        <AlertNotice>Solo los administradores pueden cambiar el perfil del centro.</AlertNotice>
      </section>
    );
  if (loadFailed)
    return (
      <section className="bo-page">
        <PageHeader title="Perfil del centro" />
        <AlertNotice>No se pudo cargar el perfil del centro. Inténtelo más tarde.</AlertNotice>
      </section>
    );
  if (!loaded || !draft)
    return (
      <section className="bo-page">
        <PageHeader title="Perfil del centro" />
        <p className="wk-slots__hint">Cargando el perfil del centro…</p>
      </section>
    );

  const setValue = (path: string, value: string) =>
    setDraft((old) => old && { ...old, values: { ...old.values, [path]: value } });
  const field = (path: string, label: string, type = 'text', inputMode?: 'decimal' | 'numeric') => (
    <TextField
      key={path}
      label={label}
      name={path}
      type={type}
      inputMode={inputMode}
      value={draft.values[path] ?? ''}
      onValueChange={(value) => setValue(path, value)}
      error={errors.fields[path]}
      autoComplete="off"
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({ fields: {} });
    setBusy(true);
    try {
      const saved = await saveCentreProfile(bodyOf(loaded, draft));
      setLoaded(saved);
      setDraft(draftOf(saved));
      await showSuccess(
        'Datos Actualizados',
        `Se ha guardado la versión ${saved.version} del perfil del centro.`,
      );
    } catch (error) {
      if (error instanceof ApiError && !error.isServerFailure) {
        const found = profileErrors(error);
        setErrors({ ...found, general: found.general ?? 'Revise los campos marcados.' });
      } else {
        void showServerError();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="bo-page">
      <PageHeader title="Perfil del centro" />
      <p className="bo-lead">
        Versión {loaded.version}. Lo que guarde aquí se muestra en la web, los correos y las citas del
        calendario. Los festivos, los cierres y las jornadas reducidas se editan en{' '}
        <Link to="/doctor/centre/closures">Cierres y festivos</Link>.
      </p>
      <form className="bo-profile" onSubmit={(e) => void submit(e)} noValidate aria-label="Perfil del centro">
        <FormAlert message={errors.general} />
        {SECTIONS.map((section) => (
          <fieldset key={section.legend} className="bo-fieldset" disabled={busy}>
            <legend>{section.legend}</legend>
            {section.fields.map(([path, label, type]) => field(path, label, type))}
          </fieldset>
        ))}
        <OpeningHoursEditor
          periods={draft.openingHours}
          onChange={(openingHours) => setDraft((old) => old && { ...old, openingHours })}
          errors={errors.fields}
          disabled={busy}
        />
        <fieldset className="bo-fieldset bo-fieldset--grid" disabled={busy}>
          <legend>Precios</legend>
          {PRICE_FIELDS.map(([path, label]) =>
            path === 'prices.currency'
              ? field(path, label)
              : field(path, label, 'text', path.endsWith('Hours') ? 'numeric' : 'decimal'),
          )}
        </fieldset>
        <div className="bo-actions">
          <button type="submit" className="wk-button" disabled={busy}>
            {busy ? 'Guardando…' : 'Guardar cambios'}
          </button>
        </div>
      </form>
    </section>
  );
}
