import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { CentreProfile } from '@crm/contracts';
import { displayPhone, formatHours, formatPrice, phoneHref, useCentreProfile } from '@crm/web-kit';
import { FACTS_UNAVAILABLE, PlaceholderText } from '@/components/centre/Placeholder';
import { usePageTitle } from '@/lib/page-title';

/**
 * "Términos y Condiciones de Contratación" (docs/product/booking.md#terms-and-privacy). The holder, the price
 * and the refund window are the centre profile's (one price for the whole site); while it loads their
 * paragraphs are placeholders, and if it cannot be loaded they say so rather than show a figure that may be
 * wrong.
 */
export default function TermsPage() {
  usePageTitle('Términos y Condiciones');
  const { profile, status } = useCentreProfile();
  const fact = (text: (centre: CentreProfile) => ReactNode, lines: number) =>
    profile ? (
      text(profile)
    ) : status === 'loading' ? (
      <PlaceholderText lines={lines} />
    ) : (
      <p>{FACTS_UNAVAILABLE}</p>
    );
  return (
    <article className="page legal">
      <h1>Términos y Condiciones de Contratación</h1>
      <h2>1. Identificación del titular</h2>
      {fact(
        (centre) => (
          <p>
            Este sitio web y el servicio que en él se contrata pertenecen a {centre.legalName}, con NIF{' '}
            {centre.taxId}, inscrita en el {centre.registry}, con domicilio en {centre.address}. Correo
            electrónico: <a href={`mailto:${centre.email}`}>{centre.email}</a>. Teléfono:{' '}
            <a href={phoneHref(centre.phone)}>{displayPhone(centre.phone)}</a>.
          </p>
        ),
        3,
      )}
      <h2>2. Objeto del servicio</h2>
      <p>
        El servicio consiste en la realización de reconocimientos médicos para la obtención de certificados
        oficiales de aptitud psicofísica (conducción, armas, embarcaciones, seguridad privada, perros
        potencialmente peligrosos, operador de grúa, deportivos y estudios) en nuestras instalaciones y en la
        fecha y hora reservadas.
      </p>
      <h2>3. Precio</h2>
      {fact(
        (centre) => (
          <p>
            El precio de cada reconocimiento médico es de{' '}
            <strong>{formatPrice(centre.prices.checkUp, centre.prices.currency)}</strong>, impuestos
            incluidos. Todos los precios se expresan en euros. Las tasas oficiales de la administración,
            cuando proceden, se abonan aparte y se informan antes de la contratación.
          </p>
        ),
        2,
      )}
      <h2>4. Formas de pago</h2>
      <p>El pago se realiza en el centro el día de la cita mediante:</p>
      <ul>
        <li>Tarjeta de crédito o débito.</li>
        <li>Transferencia bancaria.</li>
        <li>Bizum.</li>
        <li>PayPal.</li>
      </ul>
      <h2>5. Reserva y cancelación</h2>
      <p>
        La cita se reserva en línea en la página de <Link to="/dates">Citas</Link> y puede cancelarse en
        cualquier momento desde el área «Mi Cita».
      </p>
      {fact((centre) => {
        const window = formatHours(centre.prices.refundWindowHours);
        return (
          <p>
            Si la cancelación se produce con más de {window} de antelación respecto a la hora de la cita, se
            devuelve íntegramente el importe abonado por el mismo medio de pago. Las cancelaciones con menos
            de {window} de antelación y las ausencias no dan derecho a devolución.
          </p>
        );
      }, 3)}
      <h2>6. Derecho de desistimiento</h2>
      <p>
        Conforme al artículo 103 del Real Decreto Legislativo 1/2007, el derecho de desistimiento no se aplica
        a servicios plenamente ejecutados. Antes de la fecha de la cita puede desistir cancelando la reserva
        en los términos del apartado anterior.
      </p>
      <h2>7. Protección de datos</h2>
      <p>
        Los datos personales se tratan según nuestra <Link to="/privacy-policy">Política de Privacidad</Link>.
      </p>
      <h2>8. Legislación aplicable</h2>
      <p>
        Estas condiciones se rigen por la legislación española. Para cualquier controversia serán competentes
        los juzgados y tribunales del domicilio del consumidor.
      </p>
    </article>
  );
}
