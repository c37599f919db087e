import { useEffect } from 'react';
import { useCentreProfile } from '@crm/web-kit';

/** index.html's neutral title, kept for screens whose brand is not known (yet). */
const INITIAL_TITLE = typeof document === 'undefined' ? '' : document.title;

/**
 * Sets the document title of a screen: "Preguntas Frecuentes · <brand>", and "<brand> · <subtitle>"
 * for the home page (`null`), from the centre profile; without the profile, the screen's name alone.
 */
export function usePageTitle(title: string | null): void {
  const { profile } = useCentreProfile();
  const brand = profile?.brandName;
  const subtitle = profile?.subtitle;
  useEffect(() => {
    if (title) document.title = brand ? `${title} · ${brand}` : title;
    else document.title = brand ? `${brand} · ${subtitle}` : INITIAL_TITLE;
  }, [title, brand, subtitle]);
}
