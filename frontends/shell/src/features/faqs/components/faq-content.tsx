import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { CentreProfile } from '@crm/contracts';
import {
  addPrices,
  describeOpeningHours,
  DGT_VALIDITIES,
  displayPhone,
  formatHours,
  formatPrice,
  phoneHref,
} from '@crm/web-kit';

export interface FaqItem {
  id: string;
  question: string;
  /** Static text, or text built from the centre profile (prices, fees, hours, contact). */
  answer: ReactNode | ((centre: CentreProfile) => ReactNode);
  /** For an answer built from the profile: what it says when the profile cannot be loaded. */
  withoutProfile?: ReactNode;
}

/** A price in the profile's currency. */
const price = (centre: CentreProfile, amount: number): string => formatPrice(amount, centre.prices.currency);

/** "10 años", "1 año". */
const validity = (years: string): string => `${years} ${years === '1' ? 'año' : 'años'}`;

/** The fourteen topics of docs/product/booking.md#faq, in order. */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: 'transparencia',
    question: 'Transparencia: ¿qué voy a pagar?',
    answer: (centre) => (
      <>
        <p>
          Publicamos todos nuestros precios. Cada reconocimiento médico cuesta{' '}
          <strong>{price(centre, centre.prices.checkUp)}</strong>, sea cual sea el certificado. Si renueva el
          permiso de conducir y quiere que hagamos el trámite con la DGT, se suman la gestión (
          {price(centre, centre.prices.dgtManagementFee)}) y la tasa oficial de Tráfico, que depende de los
          años de vigencia.
        </p>
        <p>No hay cargos ocultos: el importe total se le indica antes de empezar.</p>
      </>
    ),
    withoutProfile: <p>No hay cargos ocultos: el importe total se le indica antes de empezar.</p>,
  },
  {
    id: 'instalaciones',
    question: 'Instalaciones',
    answer: (centre) => (
      <p>
        El centro está en {centre.address}, a pie de calle y accesible en silla de ruedas. Disponemos de sala
        de espera, consulta médica, gabinete de psicotecnia con simuladores homologados y equipo de
        exploración visual y auditiva.
      </p>
    ),
    withoutProfile: (
      <p>
        El centro está a pie de calle y es accesible en silla de ruedas. Disponemos de sala de espera,
        consulta médica, gabinete de psicotecnia con simuladores homologados y equipo de exploración visual y
        auditiva.
      </p>
    ),
  },
  {
    id: 'tipos',
    question: 'Tipos de reconocimientos',
    answer: (
      <ul>
        <li>Permisos y licencias de conducir (obtención, renovación y recuperación de puntos).</li>
        <li>Licencias de armas y de caza.</li>
        <li>Titulaciones náuticas de recreo.</li>
        <li>Seguridad privada: vigilantes, escoltas y guardas.</li>
        <li>Tenencia de perros potencialmente peligrosos.</li>
        <li>Operador de grúa.</li>
        <li>Certificados deportivos y para estudios u oposiciones.</li>
      </ul>
    ),
  },
  {
    id: 'conductores',
    question: 'Conductores',
    answer: (
      <>
        <p>
          Realizamos el reconocimiento para obtener o renovar cualquier permiso de conducir. Para la
          renovación nos encargamos del trámite completo con la DGT: usted sale del centro con el permiso
          provisional y recibe el nuevo carné en su domicilio.
        </p>
        <p>Los conductores mayores de 70 años están exentos de la tasa de Tráfico.</p>
      </>
    ),
  },
  {
    id: 'otros',
    question: 'Otros certificados',
    answer: (centre) => (
      <p>
        Además de los permisos de conducir emitimos certificados para armas, embarcaciones, seguridad privada,
        perros potencialmente peligrosos, operadores de grúa, actividades deportivas y estudios. Todos cuestan{' '}
        {price(centre, centre.prices.checkUp)}.
      </p>
    ),
    withoutProfile: (
      <p>
        Además de los permisos de conducir emitimos certificados para armas, embarcaciones, seguridad privada,
        perros potencialmente peligrosos, operadores de grúa, actividades deportivas y estudios.
      </p>
    ),
  },
  {
    id: 'funcionamiento',
    question: '¿Cómo funciona el servicio?',
    answer: (
      <ol>
        <li>
          Reserve su cita en la página de <Link to="/dates">Citas</Link> eligiendo día y hora.
        </li>
        <li>Venga al centro a la hora reservada con su documentación.</li>
        <li>Pasará la exploración médica, visual, auditiva y las pruebas psicotécnicas (unos 20 minutos).</li>
        <li>Le entregamos el certificado y lo enviamos a la administración correspondiente.</li>
      </ol>
    ),
  },
  {
    id: 'renovacion',
    question: '¿Cuándo puedo renovar?',
    answer: (
      <p>
        Puede renovar el permiso de conducir hasta <strong>3 meses antes</strong> de la fecha de caducidad sin
        perder vigencia: el permiso nuevo empieza a contar desde la fecha de caducidad del anterior.
      </p>
    ),
  },
  {
    id: 'horario',
    question: 'Horario y citas',
    answer: (centre) => (
      <p>
        Atendemos <strong>{describeOpeningHours(centre.openingHours)}</strong> (hora de Canarias). Las citas
        son cada 15 minutos y se reservan en línea; también puede llamarnos al{' '}
        <a href={phoneHref(centre.phone)}>{displayPhone(centre.phone)}</a>.
      </p>
    ),
    withoutProfile: <p>Las citas son cada 15 minutos y se reservan en línea.</p>,
  },
  {
    id: 'tasas-dgt',
    question: 'Tasas de la DGT',
    answer: (centre) => (
      <>
        <p>La tasa oficial de Tráfico para renovar depende de los años de vigencia del permiso:</p>
        <table className="fee-table">
          <caption className="wk-visually-hidden">Tasa de la DGT por años de vigencia</caption>
          <thead>
            <tr>
              <th scope="col">Vigencia</th>
              <th scope="col">Tasa DGT</th>
            </tr>
          </thead>
          <tbody>
            {DGT_VALIDITIES.map((years) => (
              <tr key={years}>
                <td>{validity(years)}</td>
                <td>{price(centre, centre.prices.dgtFees[years])}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>Mayores de 70 años: exentos de la tasa.</p>
      </>
    ),
  },
  {
    id: 'precios',
    question: 'Precios',
    answer: (centre) => {
      const { checkUp, dgtManagementFee, dgtFees } = centre.prices;
      return (
        <>
          <p>
            Reconocimiento médico: <strong>{price(centre, checkUp)}</strong>. Gestión de la renovación con la
            DGT: <strong>{price(centre, dgtManagementFee)}</strong>, más la tasa oficial.
          </p>
          <p>
            Ejemplo: renovación del permiso B por 10 años = {price(centre, checkUp)} +{' '}
            {price(centre, dgtManagementFee)} + {price(centre, dgtFees['10'])} ={' '}
            <strong>{price(centre, addPrices(checkUp, dgtManagementFee, dgtFees['10']))}</strong>.
          </p>
        </>
      );
    },
  },
  {
    id: 'suplementos',
    question: 'Suplementos',
    answer: (centre) => (
      <p>
        Si necesita un informe adicional (por ejemplo, para una adaptación del vehículo o una revisión por
        enfermedad), se aplica un suplemento de{' '}
        <strong>{price(centre, centre.prices.extraReportSupplement)}</strong>.
      </p>
    ),
  },
  {
    id: 'politica-precios',
    question: 'Política de precios',
    answer: (centre) => (
      <p>
        Los precios incluyen impuestos y son iguales para todos los certificados. Si cancela su cita con más
        de <strong>{formatHours(centre.prices.refundWindowHours)}</strong> de antelación le devolvemos el
        importe pagado. Consulte los <Link to="/terms-and-conditions">Términos y Condiciones</Link>.
      </p>
    ),
    withoutProfile: (
      <p>
        Los precios incluyen impuestos y son iguales para todos los certificados. Consulte los{' '}
        <Link to="/terms-and-conditions">Términos y Condiciones</Link>.
      </p>
    ),
  },
  {
    id: 'que-traer',
    question: '¿Qué tengo que traer?',
    answer: (
      <ul>
        <li>DNI, NIE o pasaporte en vigor.</li>
        <li>El permiso o licencia actual, si es una renovación.</li>
        <li>Gafas o lentillas y audífonos, si los usa.</li>
        <li>Informes médicos de enfermedades o tratamientos relevantes.</li>
        <li>Una fotografía reciente tamaño carné para la renovación con la DGT.</li>
      </ul>
    ),
  },
  {
    id: 'contacto',
    question: 'Contacto',
    answer: (centre) => (
      <p>
        Teléfono <a href={phoneHref(centre.phone)}>{displayPhone(centre.phone)}</a>, correo{' '}
        <a href={`mailto:${centre.email}`}>{centre.email}</a>, o visítenos en{' '}
        <a href={centre.mapsUrl} target="_blank" rel="noopener noreferrer">
          {centre.address}
        </a>
        .
      </p>
    ),
  },
];
