import { Link } from 'react-router-dom';
import { useCentreProfile } from '@crm/web-kit';
import { FACTS_UNAVAILABLE, PlaceholderText } from '@/components/centre/Placeholder';
import { usePageTitle } from '@/lib/page-title';

/**
 * Standalone privacy policy page (docs/product/booking.md#terms-and-privacy): no header or footer, a link
 * back home.
 */
export default function PrivacyPolicyPage() {
  usePageTitle('Política de Privacidad');
  const { profile, status } = useCentreProfile();
  return (
    <main id="main" className="standalone">
      <p className="standalone__back">
        <Link to="/">← Volver al inicio</Link>
      </p>
      <article className="page legal">
        <h1>Política de Privacidad</h1>
        <h2>Responsable del tratamiento</h2>
        {profile ? (
          <p>
            {profile.legalName} (NIF {profile.taxId}), {profile.address}. Correo electrónico:{' '}
            <a href={`mailto:${profile.email}`}>{profile.email}</a>.
          </p>
        ) : status === 'loading' ? (
          <PlaceholderText lines={2} />
        ) : (
          <p>{FACTS_UNAVAILABLE}</p>
        )}
        <h2>Datos que tratamos</h2>
        <p>
          Nombre, correo electrónico, teléfono, las citas reservadas y, durante el reconocimiento, los datos
          de salud necesarios para emitir el certificado solicitado.
        </p>
        <h2>Finalidad y base jurídica</h2>
        <ul>
          <li>Gestionar su cuenta y sus citas (ejecución del contrato).</li>
          <li>
            Emitir los certificados médicos y comunicarlos a la administración competente (obligación legal).
          </li>
          <li>
            Enviarle confirmaciones y avisos de sus citas por correo electrónico (ejecución del contrato).
          </li>
        </ul>
        <h2>Conservación</h2>
        <p>
          Los datos de la cuenta se conservan mientras esta exista; la historia clínica, durante los plazos
          que exige la normativa sanitaria.
        </p>
        <h2>Destinatarios</h2>
        <p>No cedemos sus datos a terceros salvo a las administraciones públicas cuando la ley lo exige.</p>
        <h2>Sus derechos</h2>
        <p>
          Puede ejercer los derechos de acceso, rectificación, supresión, oposición, limitación y portabilidad
          escribiendo{' '}
          {profile ? (
            <>
              a <a href={`mailto:${profile.email}`}>{profile.email}</a>
            </>
          ) : (
            'al responsable del tratamiento'
          )}
          , y reclamar ante la Agencia Española de Protección de Datos.
        </p>
        <h2>Cookies</h2>
        <p>
          Este sitio solo usa cookies necesarias: la que guarda su elección de privacidad (
          <code>cc_cookie</code>, 182 días) y las de medición de conversiones declaradas en la configuración
          de privacidad.
        </p>
      </article>
    </main>
  );
}
