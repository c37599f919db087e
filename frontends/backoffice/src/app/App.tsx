import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { LoadingScreen } from '@crm/web-kit';
import '@crm/web-kit/src/styles/web-kit.css';
import './backoffice.css';
import { BackofficeLayout } from './BackofficeLayout';
import {
  AppointmentDetailPage,
  FormConfigPage,
  RecordDetailPage,
  RecordListPage,
} from '@/features/clinical-records';

// Each screen is its own chunk, loaded when its route is visited (docs/product/README.md#loading).
const AppointmentListPage = lazy(() => import('@/features/appointments/components/AppointmentListPage'));
const ScheduleAppointmentPage = lazy(() => import('@/features/schedule/components/ScheduleAppointmentPage'));
const AppointmentHistoryPage = lazy(() => import('@/features/history/components/AppointmentHistoryPage'));
const PatientListPage = lazy(() => import('@/features/patients/components/PatientListPage'));
const PatientDetailPage = lazy(() => import('@/features/patients/components/PatientDetailPage'));
const RegisterPatientPage = lazy(() => import('@/features/register-patient/components/RegisterPatientPage'));
const RoomReservationPage = lazy(() => import('@/features/rooms/components/RoomReservationPage'));
const ProfilePage = lazy(() => import('@/features/profile/components/ProfilePage'));
const AuditLogPage = lazy(() => import('@/features/audit/components/AuditLogPage'));
const StaffPage = lazy(() => import('@/features/staff/components/StaffPage'));
const SecurityPage = lazy(() => import('@/features/security/components/SecurityPage'));
const DashboardPage = lazy(() => import('@/features/dashboard/components/DashboardPage'));
const SystemStatusPage = lazy(() => import('@/features/system-status/components/SystemStatusPage'));
const AgendaPage = lazy(() => import('@/features/agenda/components/AgendaPage'));
const CentreClosuresPage = lazy(() => import('@/features/centre-closures/components/CentreClosuresPage'));
const CentreProfilePage = lazy(() => import('@/features/centre-profile/components/CentreProfilePage'));

/**
 * The exposed `./App`: rendered by the shell inside `<Route path="/doctor/*">` behind the DOCTOR/ADMIN
 * guard, so these are descendant routes relative to /doctor (docs/product/back-office.md#sidebar).
 */
export default function App() {
  return (
    <BackofficeLayout>
      <Suspense fallback={<LoadingScreen />}>
        <Routes>
          <Route index element={<Navigate to="appointments" replace />} />
          <Route path="appointments" element={<AppointmentListPage />} />
          <Route path="appointments/create" element={<ScheduleAppointmentPage />} />
          <Route path="appointments/hisotry/:patientId" element={<AppointmentHistoryPage />} />
          <Route path="appointments/:id" element={<AppointmentDetailPage />} />
          <Route path="patient/create" element={<RegisterPatientPage />} />
          <Route path="patients/list" element={<PatientListPage />} />
          <Route path="patient/records" element={<RecordListPage />} />
          <Route path="patient/records/detail/:id" element={<RecordDetailPage />} />
          <Route path="patient/records/:name" element={<RecordListPage />} />
          <Route path="patient/:id" element={<PatientDetailPage />} />
          <Route path="room/reserve" element={<RoomReservationPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="audit" element={<AuditLogPage />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="system" element={<SystemStatusPage />} />
          <Route path="staff" element={<StaffPage />} />
          <Route path="security" element={<SecurityPage />} />
          <Route path="agenda" element={<AgendaPage />} />
          <Route path="centre/closures" element={<CentreClosuresPage />} />
          <Route path="centre" element={<CentreProfilePage />} />
          <Route path="form-config" element={<FormConfigPage />} />
          <Route path="*" element={<h1>404</h1>} />
        </Routes>
      </Suspense>
    </BackofficeLayout>
  );
}
