import { lazy } from 'react';

/**
 * Clinical records (docs/product/clinical-records.md): the routes the back-office router mounts. Each screen
 * is its own chunk (the form builder brings @crm/view-config), loaded under the router's Suspense.
 */
export const AppointmentDetailPage = lazy(() => import('./components/AppointmentDetailPage'));
export const RecordListPage = lazy(() => import('./components/RecordListPage'));
export const RecordDetailPage = lazy(() => import('./components/RecordDetailPage'));
export const FormConfigPage = lazy(() => import('./components/FormConfigPage'));
