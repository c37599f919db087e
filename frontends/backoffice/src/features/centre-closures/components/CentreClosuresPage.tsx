import { useSession } from '@crm/web-kit';
import { AlertNotice, PageHeader } from '@/components';
import { CentreClosuresEditor } from './CentreClosuresEditor';

/** "Cierres y festivos" (ADMIN): the route's page around the editor. */
export default function CentreClosuresPage() {
  const isAdmin = useSession().user?.rol === 'ADMIN';
  return (
    <section className="bo-page">
      <PageHeader title="Cierres y festivos" />
      {isAdmin ? (
        <CentreClosuresEditor />
      ) : (
        <AlertNotice>Solo los administradores pueden gestionar los cierres del centro.</AlertNotice>
      )}
    </section>
  );
}
