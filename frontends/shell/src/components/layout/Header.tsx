import { useCallback, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { displayPhone, phoneHref, useCentreProfile, useSession } from '@crm/web-kit';
import { Placeholder } from '@/components/centre/Placeholder';
import { trackPhoneConversion } from '@/lib/analytics';
import { scrollToSection, SCROLL_SPY_THROTTLE_MS, STICKY_OFFSET, throttle } from '@/lib/scroll';
import { HOME_SECTIONS, menuFor, type MenuItem } from './menus';
import logoUrl from '@/assets/logo.png';

function AccessMenu({ onNavigate }: { onNavigate(): void }) {
  const { status, user } = useSession();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const ref = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    onNavigate();
  };
  const loggedIn = status === 'loggedIn' && user;

  return (
    <li className={`site-nav__item site-nav__submenu${open ? ' is-open' : ''}`} ref={ref}>
      <button
        type="button"
        className="site-nav__link site-nav__submenu-toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        Acceso
        <span className="site-nav__caret" aria-hidden="true" />
      </button>
      <ul id={menuId} className="site-nav__dropdown" hidden={!open}>
        {loggedIn ? (
          <>
            <li>
              <Link to="/user" onClick={close}>
                {user.rol === 'PACIENT' ? 'Mi Cita' : 'Vista Administrativa'}
              </Link>
            </li>
            <li>
              <Link to="/signOut" onClick={close}>
                Cerrar Sesión
              </Link>
            </li>
          </>
        ) : (
          <>
            <li>
              <Link to="/login" onClick={close}>
                Iniciar Sesión
              </Link>
            </li>
            <li>
              <Link to="/signup" onClick={close}>
                Registrarse
              </Link>
            </li>
          </>
        )}
      </ul>
    </li>
  );
}

function MenuLink({ item, active, onNavigate }: { item: MenuItem; active: boolean; onNavigate(): void }) {
  if (item.section) {
    const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
      e.preventDefault();
      onNavigate();
      scrollToSection(item.section === 'inicio' ? null : (item.section ?? null));
    };
    return (
      <a
        className={`site-nav__link${active ? ' is-active' : ''}`}
        href={`#${item.section}`}
        onClick={onClick}
        aria-current={active ? 'true' : undefined}
      >
        {item.label}
      </a>
    );
  }
  return (
    <NavLink className="site-nav__link" to={item.to ?? '/'} end onClick={onNavigate}>
      {item.label}
    </NavLink>
  );
}

/**
 * The phone and address links of the centre profile; neutral placeholders of the same height while it
 * loads, nothing if it cannot be loaded (the bar keeps its height: see .site-header__top).
 */
function HeaderContacts() {
  const { profile, status } = useCentreProfile();
  if (profile) {
    return (
      <>
        <a className="site-header__contact" href={phoneHref(profile.phone)} onClick={trackPhoneConversion}>
          <img src="/assets/icons/phone.svg" alt="" width="18" height="18" />
          <span>
            <span className="wk-visually-hidden">Teléfono: </span>
            {displayPhone(profile.phone)}
          </span>
        </a>
        <a className="site-header__contact" href={profile.mapsUrl} target="_blank" rel="noopener noreferrer">
          <img src="/assets/icons/location.svg" alt="" width="18" height="18" />
          <span>
            <span className="wk-visually-hidden">Dirección (abre un mapa en una pestaña nueva): </span>
            {profile.address}
          </span>
        </a>
      </>
    );
  }
  if (status === 'unavailable') return null;
  return (
    <>
      <span className="site-header__contact">
        <img src="/assets/icons/phone.svg" alt="" width="18" height="18" />
        <Placeholder width="8.5em" />
      </span>
      <span className="site-header__contact">
        <img src="/assets/icons/location.svg" alt="" width="18" height="18" />
        <Placeholder width="22em" />
      </span>
    </>
  );
}

/** The brand title and subtitle of the centre profile (placeholders while it loads). */
function BrandText() {
  const { profile, status } = useCentreProfile();
  if (profile) {
    return (
      <span className="brand__text">
        <span className="brand__title">{profile.brandName}</span>
        <span className="brand__subtitle">{profile.subtitle}</span>
      </span>
    );
  }
  // Without the brand the link still needs a name.
  if (status === 'unavailable') return <span className="wk-visually-hidden">Inicio</span>;
  return (
    <span className="brand__text">
      <span className="wk-visually-hidden">Inicio</span>
      <span className="brand__title">
        <Placeholder width="11em" />
      </span>
      <span className="brand__subtitle">
        <Placeholder width="13em" />
      </span>
    </span>
  );
}

/**
 * Public header (docs/product/booking.md#header-and-menus): round logo, title and subtitle, phone and address
 * links, the page's menu with the Acceso submenu; white text on "/", black elsewhere; sticky after 116 px;
 * mobile menu.
 */
export function Header() {
  const { pathname } = useLocation();
  const isHome = pathname === '/';
  const items = menuFor(pathname);
  const [sticky, setSticky] = useState(false);
  // The mobile menu is open on the page where it was opened: navigating closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === pathname;
  const [activeSection, setActiveSection] = useState('inicio');
  const navId = useId();

  useEffect(() => {
    const update = () => {
      setSticky(window.scrollY > STICKY_OFFSET);
      if (isHome) {
        let current = 'inicio';
        for (const id of HOME_SECTIONS) {
          const el = document.getElementById(id);
          if (el && el.getBoundingClientRect().top <= 140) current = id;
        }
        setActiveSection(current);
      }
    };
    const onScroll = throttle(update, SCROLL_SPY_THROTTLE_MS);
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [isHome]);

  const closeMenu = useCallback(() => setMenuOpenAt(null), []);

  const tone = isHome ? 'site-header--light' : 'site-header--dark';
  return (
    <header
      className={`site-header ${tone}${sticky ? ' is-sticky' : ''}${isHome ? ' site-header--overlay' : ''}`}
    >
      <div className="site-header__top">
        <HeaderContacts />
      </div>
      <div className="site-header__slot">
        <div className="site-header__bar">
          <Link to="/" className="brand" onClick={closeMenu}>
            <img className="brand__logo" src={logoUrl} alt="" width="52" height="52" />
            <BrandText />
          </Link>
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpenAt(menuOpen ? null : pathname)}
          >
            <span className="menu-toggle__icon" aria-hidden="true" />
            <span className="wk-visually-hidden">{menuOpen ? 'Cerrar menú' : 'Abrir menú'}</span>
          </button>
          <nav id={navId} className={`site-nav${menuOpen ? ' is-open' : ''}`} aria-label="Principal">
            <ul className="site-nav__list">
              {items.map((item) => (
                <li className="site-nav__item" key={item.label}>
                  <MenuLink
                    item={item}
                    active={isHome && item.section === activeSection}
                    onNavigate={closeMenu}
                  />
                </li>
              ))}
              <AccessMenu onNavigate={closeMenu} />
            </ul>
          </nav>
        </div>
      </div>
    </header>
  );
}
