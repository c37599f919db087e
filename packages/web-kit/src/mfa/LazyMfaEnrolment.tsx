import { lazy, Suspense, type ComponentProps } from 'react';

const Enrolment = lazy(() => import('./MfaEnrolment').then((module) => ({ default: module.MfaEnrolment })));

export type MfaEnrolmentProps = ComponentProps<typeof Enrolment>;

/**
 * The second-factor enrolment, loaded on first render: it is on the main entry (it uses this
 * singleton's API client) but only staff ever see it, so its code stays out of the pages of visitors
 * and patients. It renders nothing until its code has arrived.
 */
export function MfaEnrolment(props: MfaEnrolmentProps) {
  return (
    <Suspense fallback={null}>
      <Enrolment {...props} />
    </Suspense>
  );
}
