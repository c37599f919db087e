import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useSession } from '@crm/web-kit';

/**
 * The sidebar, in order (docs/product/back-office.md#sidebar). Paths are absolute: the shell mounts us under
 * /doctor/*.
 */
export const SIDEBAR_LINKS = [
  { to: '/doctor/appointments', label: 'Citas', end: true },
  { to: '/doctor/agenda', label: 'Agenda de hoy', end: true },
  { to: '/doctor/appointments/create', label: 'Agendar Cita', end: true },
  { to: '/doctor/patient/create', label: 'Registrar Paciente', end: true },
  { to: '/doctor/patients/list', label: 'Lista de Pacientes', end: true },
  { to: '/doctor/patient/records', label: 'Registros Clinico', end: false },
  { to: '/doctor/room/reserve', label: 'Reservar Consulta', end: true },
  { to: '/doctor/audit', label: 'Registro de accesos', end: true, adminOnly: true },
  { to: '/doctor/dashboard', label: 'Panel', end: true, adminOnly: true },
  { to: '/doctor/staff', label: 'Personal', end: true, adminOnly: true },
  { to: '/doctor/centre', label: 'Perfil del centro', end: true, adminOnly: true },
  { to: '/doctor/centre/closures', label: 'Cierres y festivos', end: true, adminOnly: true },
  { to: '/doctor/form-config', label: 'Formulario clínico', end: true, adminOnly: true },
  { to: '/doctor/system', label: 'Estado del sistema', end: true, adminOnly: true },
  { to: '/doctor/security', label: 'Seguridad', end: true },
  { to: '/signOut', label: 'Cerrar Sesión', end: true },
] as const;

/**
 * The doctor/admin layout: a sidebar (collapsed behind a "Menú" button on narrow screens, closed
 * again when a link is followed) and the page content.
 */
export function BackofficeLayout({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const isAdmin = useSession().user?.rol === 'ADMIN';
  // Entries marked adminOnly (the access trail) are an ADMIN's only.
  const links = SIDEBAR_LINKS.filter((link) => isAdmin || !('adminOnly' in link && link.adminOnly));

  return (
    <div className="bo-layout">
      <aside className="bo-sidebar" aria-label="Vista Administrativa">
        <div className="bo-sidebar__brand">
          <img src="/assets/images/logo.png" alt="" width={40} height={40} />
          <span>Vista Administrativa</span>
        </div>
        <button
          type="button"
          className="bo-sidebar__toggle"
          aria-expanded={open}
          aria-controls="bo-sidebar-nav"
          onClick={() => setOpen((value) => !value)}
        >
          Menú
        </button>
        <nav id="bo-sidebar-nav" className={open ? 'bo-sidebar__nav is-open' : 'bo-sidebar__nav'}>
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} onClick={() => setOpen(false)}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <main className="bo-main" id="main">
        {children}
      </main>
    </div>
  );
}
