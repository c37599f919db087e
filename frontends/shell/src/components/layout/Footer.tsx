import { Link } from 'react-router-dom';
import { useCentreProfile } from '@crm/web-kit';
import { Placeholder } from '@/components/centre/Placeholder';
import { openCookiePreferences } from '@/components/cookie-consent/CookieConsentLoader';

/**
 * Footer (docs/product/booking.md#footer): copyright 2025 with the centre's brand, "Política de Privacidad"
 * and the terms.
 */
export function Footer() {
  const { profile, status } = useCentreProfile();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p>
          © 2025
          {profile ? (
            ` ${profile.brandName} · ${profile.subtitle}`
          ) : status === 'loading' ? (
            <>
              {' '}
              <Placeholder width="20em" />
            </>
          ) : null}
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
