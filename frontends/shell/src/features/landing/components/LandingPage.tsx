import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  capitalize,
  displayPhone,
  formatPrice,
  groupOpeningHours,
  phoneHref,
  useCentreProfile,
  type CentreProfileState,
} from '@crm/web-kit';
import { FACTS_UNAVAILABLE, Placeholder, PlaceholderText } from '@/components/centre/Placeholder';
import { trackPhoneConversion } from '@/lib/analytics';
import { scrollToSection } from '@/lib/scroll';
import { HERO } from '../hero-content';
import { usePageTitle } from '@/lib/page-title';

const CERTIFICATES = [
  {
    title: 'Permiso de conducir',
    text: 'Obtención y renovación de todos los permisos (AM, A, B, C, D, E) y licencias. Gestionamos la renovación con la DGT.',
  },
  {
    title: 'Armas y caza',
    text: 'Certificado para licencias de armas de caza, tiro deportivo, coleccionistas y vigilancia.',
  },
  {
    title: 'Embarcaciones de recreo',
    text: 'Reconocimiento para titulaciones náuticas: PER, patrón de navegación básica, patrón de yate y moto náutica.',
  },
  {
    title: 'Seguridad privada',
    text: 'Aptitud psicofísica para vigilantes de seguridad, escoltas y guardas rurales.',
  },
  {
    title: 'Perros potencialmente peligrosos',
    text: 'Certificado de capacidad física y aptitud psicológica para la licencia municipal de tenencia.',
  },
  {
    title: 'Operador de grúa',
    text: 'Certificado médico para el carné de operador de grúa torre y grúa móvil autopropulsada.',
  },
  {
    title: 'Deportivos',
    text: 'Certificados para buceo, federaciones, pruebas deportivas y licencias de pilotos.',
  },
  {
    title: 'Estudios y oposiciones',
    text: 'Certificados médicos oficiales para matrículas, oposiciones y otros trámites.',
  },
];

function onSectionLink(e: MouseEvent<HTMLAnchorElement>, id: string) {
  e.preventDefault();
  scrollToSection(id);
}

/** "Todos los reconocimientos cuestan <price> y …": the price only once it is known. */
function CertificatesLead({ centre: { profile, status } }: { centre: CentreProfileState }) {
  return (
    <p className="section__lead">
      Todos los reconocimientos{' '}
      {profile ? (
        <>cuestan {formatPrice(profile.prices.checkUp, profile.prices.currency)} y </>
      ) : status === 'loading' ? (
        <>
          cuestan <Placeholder width="2.5em" /> y{' '}
        </>
      ) : null}
      se emiten y envían a la administración en el momento.
    </p>
  );
}

/** A landing section, named by its title (`<id>-title`) for assistive technology; `alt`: tinted. */
function Section({ id, alt = false, children }: { id: string; alt?: boolean; children: ReactNode }) {
  return (
    <section id={id} className={alt ? 'section section--alt' : 'section'} aria-labelledby={`${id}-title`}>
      {children}
    </section>
  );
}

function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h2 id={`${id}-title`} className="section__title">
      {children}
    </h2>
  );
}

/** The contact section's address, phone, e-mail and opening hours. */
function ContactDetails({ centre: { profile, status } }: { centre: CentreProfileState }) {
  if (!profile) {
    if (status === 'unavailable') return <p>{FACTS_UNAVAILABLE}</p>;
    return (
      <div className="contact__grid">
        {['Dirección', 'Teléfono y correo', 'Horario'].map((title) => (
          <div key={title}>
            <h3>{title}</h3>
            <PlaceholderText lines={2} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="contact__grid">
      <div>
        <h3>Dirección</h3>
        <p>
          <a href={profile.mapsUrl} target="_blank" rel="noopener noreferrer">
            {profile.address}
            <span className="wk-visually-hidden"> (abre un mapa en una pestaña nueva)</span>
          </a>
        </p>
      </div>
      <div>
        <h3>Teléfono y correo</h3>
        <p>
          <a href={phoneHref(profile.phone)} onClick={trackPhoneConversion}>
            {displayPhone(profile.phone)}
          </a>
          <br />
          <a href={`mailto:${profile.email}`}>{profile.email}</a>
        </p>
      </div>
      <div>
        <h3>Horario</h3>
        {groupOpeningHours(profile.openingHours).map((group) => (
          <p key={group.daysLabel}>
            {capitalize(group.daysLabel)}
            <br />
            {group.periods.join(' y ')}
          </p>
        ))}
      </div>
    </div>
  );
}

/** Landing page (docs/product/booking.md#landing-page): certificates, about us and contact sections. */
export default function LandingPage() {
  usePageTitle(null);
  const centre = useCentreProfile();
  const { profile, status } = centre;
  return (
    <div className="landing">
      <section id="inicio" className="hero" aria-labelledby="hero-title">
        <div className="hero__inner">
          <p className="hero__eyebrow">{HERO.eyebrow}</p>
          <h1 id="hero-title" className="hero__title">
            {HERO.title}
          </h1>
          <p className="hero__text">{HERO.text}</p>
          <div className="hero__actions">
            <Link className="wk-button hero__cta" to="/dates">
              {HERO.cta}
            </Link>
            <a
              className="wk-button wk-button--ghost"
              href="#certificados"
              onClick={(e) => onSectionLink(e, 'certificados')}
            >
              {HERO.secondary}
            </a>
          </div>
        </div>
      </section>

      <Section id="certificados">
        <div className="section__inner">
          <SectionTitle id="certificados">Certificados</SectionTitle>
          <CertificatesLead centre={centre} />
          <ul className="cards">
            {CERTIFICATES.map((c) => (
              <li key={c.title} className="card">
                <h3 className="card__title">{c.title}</h3>
                <p>{c.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </Section>

      <Section id="nosotros" alt>
        <div className="section__inner about">
          <div>
            <SectionTitle id="nosotros">Nosotros</SectionTitle>
            <p>
              Somos un centro de reconocimiento de conductores y de aptitud psicofísica autorizado por la
              Consejería de Sanidad. Nuestro equipo de medicina, psicología y oftalmología realiza todas las
              pruebas en una sola visita de unos 20 minutos.
            </p>
            <p>
              Trabajamos conectados con la Dirección General de Tráfico: si renueva el permiso de conducir,
              nos ocupamos del trámite y usted se lleva el permiso provisional ese mismo día.
            </p>
          </div>
          <ul className="facts" aria-label="Por qué elegirnos">
            {status === 'unavailable' ? null : (
              <li>
                <strong>
                  {profile ? (
                    formatPrice(profile.prices.checkUp, profile.prices.currency)
                  ) : (
                    <Placeholder width="2.5em" />
                  )}
                </strong>
                <span>por reconocimiento, impuestos incluidos</span>
              </li>
            )}
            <li>
              <strong>20 min</strong>
              <span>de visita con todas las pruebas</span>
            </li>
            <li>
              <strong>En el día</strong>
              <span>certificado enviado a la administración</span>
            </li>
          </ul>
        </div>
      </Section>

      <Section id="contacto">
        <div className="section__inner contact">
          <SectionTitle id="contacto">Contacto</SectionTitle>
          <ContactDetails centre={centre} />
          <p>
            <Link className="wk-button" to="/dates">
              Reservar Cita
            </Link>
          </p>
        </div>
      </Section>
    </div>
  );
}
