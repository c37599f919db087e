import { Navigate, Route, Routes } from 'react-router-dom';
import '@crm/web-kit/src/styles/web-kit.css';
import './kiosk.css';
import OnboardingPage from '@/features/onboarding/components/OnboardingPage';

/**
 * The exposed `./App`: rendered by the shell inside `<Route path="/onboarding/*">` behind the
 * SERVICE_ACCOUNT guard, with the host's router and session. The flow lives at /onboarding itself;
 * any deeper path goes back there.
 */
export default function App() {
  return (
    <Routes>
      <Route index element={<OnboardingPage />} />
      <Route path="*" element={<Navigate to=".." replace />} />
    </Routes>
  );
}
