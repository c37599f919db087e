import { loadedOnFirstRender } from '../ui/loaded-on-first-render';

/**
 * The second-factor enrolment, loaded on first render: it is on the main entry (it uses this
 * singleton's API client) but only staff ever see it, so its code stays out of the pages of visitors
 * and patients. It renders nothing until its code has arrived.
 */
export const MfaEnrolment = loadedOnFirstRender(() => import('./MfaEnrolment'));
