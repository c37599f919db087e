import { Link } from 'react-router-dom';
import { SITE } from '@/lib/site';
import { usePageTitle } from '@/lib/page-title';

/** "Términos y Condiciones de Contratación" (SPEC §2.9). */
export default function TermsPage() {
  usePageTitle('Términos y Condiciones');
  return (
    <article className="page legal">
      <h1>Términos y Condiciones de Contratación</h1>
      <h2>1. Identificación del titular</h2>
      <p>
        Este sitio web y el servicio que en él se contrata pertenecen a {SITE.holder}, con NIF {SITE.taxId},
        inscrita en el {SITE.registry}, con domicilio en {SITE.address}. Correo electrónico:{' '}
        <a href={`mailto:${SITE.email}`}>{SITE.email}</a>. Teléfono:{' '}
        <a href={SITE.phoneHref}>{SITE.phoneDisplay}</a>.
      </p>
      <h2>2. Objeto del servicio</h2>
      <p>
        El servicio consiste en la realización de reconocimientos médicos para la obtención de certificados
        oficiales de aptitud psicofísica (conducción, armas, embarcaciones, seguridad privada, perros
        potencialmente peligrosos, operador de grúa, deportivos y estudios) en nuestras instalaciones y en la
        fecha y hora reservadas.
      </p>
      <h2>3. Precio</h2>
      <p>
        El precio de cada reconocimiento médico es de <strong>20 €</strong>, impuestos incluidos. Todos los
        precios se expresan en euros. Las tasas oficiales de la administración, cuando proceden, se abonan
        aparte y se informan antes de la contratación.
      </p>
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
        cualquier momento desde el área «Mi Cita». Si la cancelación se produce con más de 24 horas de
        antelación respecto a la hora de la cita, se devuelve íntegramente el importe abonado por el mismo
        medio de pago. Las cancelaciones con menos de 24 horas de antelación y las ausencias no dan derecho a
        devolución.
      </p>
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
