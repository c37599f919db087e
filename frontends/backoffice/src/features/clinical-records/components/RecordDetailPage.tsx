import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { RecordView, ViewField } from '@crm/contracts';
import { MESSAGES, showSuccess } from '@crm/web-kit';
import { PageHeader } from '@/components';
import {
  centreDateTime,
  DynamicForm,
  showSaveFailure,
  updateRecordPayload,
  valuesFromRecord,
  type FormValues,
} from './form-builder';
import { RECORDS_VIEW, recordKey, updateRecord, useRecord, useViewConfig } from '../api/records';
import './clinical-records.css';

/**
 * `/doctor/patient/records/detail/:id` (docs/product/clinical-records.md#record-detail): who and when, and
 * the form of the view "doctor/appointments/:id" filled with the stored values, saved with "Actualizar
 * Historia Clínica".
 */
export default function RecordDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data: record, error } = useRecord(id);
  const { data: config, error: configError } = useViewConfig(RECORDS_VIEW);

  let body;
  if (error) body = <p role="alert">No se encontró el registro.</p>;
  else if (configError) body = <p role="alert">No se pudo cargar el formulario.</p>;
  else if (!record || config === undefined) body = <p role="status">Cargando registro...</p>;
  else body = <RecordEditor record={record} fields={config?.fields ?? []} />;

  return (
    <section className="cr-page">
      <PageHeader title="Historia Clínica">
        <button
          type="button"
          className="wk-button wk-button--secondary"
          onClick={() => navigate('/doctor/patient/records/')}
        >
          Volver al listado
        </button>
      </PageHeader>
      {body}
    </section>
  );
}

function RecordEditor({ record, fields }: { record: RecordView; fields: ViewField[] }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState(false);
  const anchorDate = new Date(record.date.date);
  const when = centreDateTime(record.date.date);

  const save = async (values: FormValues) => {
    setBusy(true);
    try {
      const updated = await updateRecord(record.id, updateRecordPayload(fields, values, anchorDate));
      await mutate(recordKey(record.id), updated, { revalidate: false });
      // Every cached page of the list is stale now.
      await mutate((key) => typeof key === 'string' && key.startsWith('/records?'));
      setBusy(false);
      await showSuccess(MESSAGES.recordUpdated.title, MESSAGES.recordUpdated.text);
      navigate(`/doctor/patient/records/${updated.id}`);
    } catch (failure) {
      setBusy(false);
      await showSaveFailure(failure);
    }
  };

  return (
    <>
      <dl className="cr-summary">
        <div>
          <dt>Doctor</dt>
          <dd data-testid="record-doctor">{record.doctor?.name}</dd>
        </div>
        <div>
          <dt>Paciente</dt>
          <dd data-testid="record-patient">{record.user?.name}</dd>
        </div>
        <div>
          <dt>Fecha</dt>
          <dd data-testid="record-date">{when?.date}</dd>
        </div>
        <div>
          <dt>Hora</dt>
          <dd data-testid="record-time">{when?.time}</dd>
        </div>
      </dl>
      <div className="cr-panel">
        <DynamicForm
          // A saved record comes back with a new `updatedAt`: the form starts again from it.
          key={record.updatedAt}
          label="Historia Clínica"
          fields={fields}
          anchorDate={anchorDate}
          initialValues={valuesFromRecord(fields, record.metadata, anchorDate)}
          submitLabel="Actualizar Historia Clínica"
          busy={busy}
          onSubmit={save}
        />
      </div>
    </>
  );
}
