import { lazy, Suspense, type ComponentProps } from 'react';

const PatientPicker = lazy(() => import('./PatientPickerModal'));

export type PatientPickerModalProps = ComponentProps<typeof PatientPicker>;

/**
 * "Seleccione un paciente", loaded on first render: it is on the main entry (so that, inside a
 * remote too, it uses this singleton's session, API client and dialog queue) but its code stays out
 * of the shell's "/". It is a closed modal until opened, so nothing is shown while it loads.
 */
export function PatientPickerModal(props: PatientPickerModalProps) {
  return (
    <Suspense fallback={null}>
      <PatientPicker {...props} />
    </Suspense>
  );
}
