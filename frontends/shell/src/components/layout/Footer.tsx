import { Link } from 'react-router-dom';
import { SITE } from '@/lib/site';
import { openCookiePreferences } from '@/components/cookie-consent/CookieConsentLoader';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p>
          © 2025 {SITE.title} · {SITE.subtitle}
        </p>
        <nav aria-label="Enlaces legales" className="site-footer__links">
          <Link to="/privacy-policy">Política de Privacidad</Link>
          <Link to="/terms-and-conditions">Términos y Condiciones</Link>
          <button type="button" className="site-footer__link-button" onClick={openCookiePreferences}>
            Preferencias de cookies
          </button>
        </nav>
      </div>
    </footer>
  );
}
