import { useId, useState, type ReactNode } from 'react';
import { useCentreProfile, type CentreProfileState } from '@crm/web-kit';
import { FACTS_UNAVAILABLE, PlaceholderText } from '@/components/centre/Placeholder';
import { FAQ_ITEMS, type FaqItem } from './faq-content';
import { usePageTitle } from '@/lib/page-title';

/** An answer, built from the centre profile when it needs it (placeholder lines while it loads). */
function answerOf(item: FaqItem, { profile, status }: CentreProfileState): ReactNode {
  if (typeof item.answer !== 'function') return item.answer;
  if (profile) return item.answer(profile);
  if (status === 'loading') return <PlaceholderText lines={3} />;
  return item.withoutProfile ?? <p>{FACTS_UNAVAILABLE}</p>;
}

/**
 * "Información y Preguntas Frecuentes" (docs/product/booking.md#faq): accordion, one item open at a time, the
 * first open.
 */
export default function FaqPage() {
  usePageTitle('Preguntas Frecuentes');
  const centre = useCentreProfile();
  const [open, setOpen] = useState<string | null>(FAQ_ITEMS[0].id);
  const base = useId();
  return (
    <div className="page faq-page">
      <header className="page__header">
        <h1>Información y Preguntas Frecuentes</h1>
      </header>
      <div className="accordion">
        {FAQ_ITEMS.map((item) => {
          const expanded = open === item.id;
          const buttonId = `${base}-${item.id}-button`;
          const panelId = `${base}-${item.id}-panel`;
          return (
            <div key={item.id} className={`accordion__item${expanded ? ' is-open' : ''}`}>
              <h2 className="accordion__heading">
                <button
                  type="button"
                  id={buttonId}
                  className="accordion__button"
                  aria-expanded={expanded}
                  aria-controls={panelId}
                  onClick={() => setOpen(expanded ? null : item.id)}
                >
                  <span>{item.question}</span>
                  <span className="accordion__icon" aria-hidden="true" />
                </button>
              </h2>
              <div
                id={panelId}
                role="region"
                aria-labelledby={buttonId}
                className="accordion__panel"
                hidden={!expanded}
              >
                {answerOf(item, centre)}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
