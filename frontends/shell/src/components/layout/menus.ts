/**
 * The header menus per page (docs/product/booking.md#header-and-menus). `section` items scroll within the
 * landing page.
 */
export interface MenuItem {
  label: string;
  to?: string;
  section?: string;
}

const HOME: MenuItem[] = [
  { label: 'Inicio', section: 'inicio' },
  { label: 'Citas', to: '/dates' },
  { label: 'Certificados', section: 'certificados' },
  { label: 'Nosotros', section: 'nosotros' },
  { label: 'Contacto', section: 'contacto' },
  { label: 'Preguntas Frecuentes', to: '/faqs' },
];
const DATES: MenuItem[] = [
  { label: 'Inicio', to: '/' },
  { label: 'Citas', to: '/dates' },
];
const USER: MenuItem[] = [
  { label: 'Inicio', to: '/' },
  { label: 'Reservar Cita', to: '/dates' },
];
/** Pages without a menu of their own (FAQ, account screens, terms). */
const OTHER: MenuItem[] = [
  { label: 'Inicio', to: '/' },
  { label: 'Citas', to: '/dates' },
  { label: 'Preguntas Frecuentes', to: '/faqs' },
];

export function menuFor(pathname: string): MenuItem[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return HOME;
  if (path === '/dates') return DATES;
  if (path === '/user') return USER;
  return OTHER;
}

export const HOME_SECTIONS = HOME.filter((i) => i.section).map((i) => i.section as string);
