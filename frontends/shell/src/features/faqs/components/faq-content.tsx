import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SITE } from '@/lib/site';

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

/** DGT fee by validity of the renewed permit (SPEC §9). */
export const DGT_FEES = [
  { years: '10 años', fee: '24,58 €' },
  { years: '4 años', fee: '19,67 €' },
  { years: '3 años', fee: '14,75 €' },
  { years: '2 años', fee: '9,83 €' },
  { years: '1 año', fee: '4,92 €' },
];

/** The fourteen topics of SPEC §2.8, in order. */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: 'transparencia',
    question: 'Transparencia: ¿qué voy a pagar?',
    answer: (
      <>
        <p>
          Publicamos todos nuestros precios. Cada reconocimiento médico cuesta <strong>19 €</strong>, sea cual
          sea el certificado. Si renueva el permiso de conducir y quiere que hagamos el trámite con la DGT, se
          suman la gestión (10 €) y la tasa oficial de Tráfico, que depende de los años de vigencia.
        </p>
        <p>No hay cargos ocultos: el importe total se le indica antes de empezar.</p>
      </>
    ),
  },
  {
    id: 'instalaciones',
    question: 'Instalaciones',
    answer: (
      <p>
        El centro está en {SITE.address}, a pie de calle y accesible en silla de ruedas. Disponemos de sala de
        espera, consulta médica, gabinete de psicotecnia con simuladores homologados y equipo de exploración
        visual y auditiva.
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
    answer: (
      <p>
        Además de los permisos de conducir emitimos certificados para armas, embarcaciones, seguridad privada,
        perros potencialmente peligrosos, operadores de grúa, actividades deportivas y estudios. Todos cuestan
        19 €.
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
    answer: (
      <p>
        Atendemos de lunes a viernes de <strong>9:00 a 13:00</strong> y de <strong>17:00 a 20:00</strong>{' '}
        (hora de Canarias). Las citas son cada 15 minutos y se reservan en línea; también puede llamarnos al{' '}
        <a href={SITE.phoneHref}>{SITE.phoneDisplay}</a>.
      </p>
    ),
  },
  {
    id: 'tasas-dgt',
    question: 'Tasas de la DGT',
    answer: (
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
            {DGT_FEES.map((row) => (
              <tr key={row.years}>
                <td>{row.years}</td>
                <td>{row.fee}</td>
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
    answer: (
      <>
        <p>
          Reconocimiento médico: <strong>19 €</strong>. Gestión de la renovación con la DGT:{' '}
          <strong>10 €</strong>, más la tasa oficial.
        </p>
        <p>
          Ejemplo: renovación del permiso B por 10 años = 19 € + 10 € + 24,58 € = <strong>53,58 €</strong>.
        </p>
      </>
    ),
  },
  {
    id: 'suplementos',
    question: 'Suplementos',
    answer: (
      <p>
        Si necesita un informe adicional (por ejemplo, para una adaptación del vehículo o una revisión por
        enfermedad), se aplica un suplemento de <strong>10 €</strong>.
      </p>
    ),
  },
  {
    id: 'politica-precios',
    question: 'Política de precios',
    answer: (
      <p>
        Los precios incluyen impuestos y son iguales para todos los certificados. Si cancela su cita con más
        de <strong>24 horas</strong> de antelación le devolvemos el importe pagado. Consulte los{' '}
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
    answer: (
      <p>
        Teléfono <a href={SITE.phoneHref}>{SITE.phoneDisplay}</a>, correo{' '}
        <a href={`mailto:${SITE.email}`}>{SITE.email}</a>, o visítenos en{' '}
        <a href={SITE.mapsUrl} target="_blank" rel="noopener noreferrer">
          {SITE.address}
        </a>
        .
      </p>
    ),
  },
];
