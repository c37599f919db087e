import { useEffect } from 'react';
import { SITE } from './site';

/** Sets the document title of a screen ("Preguntas Frecuentes · Reconocimientos Triana"). */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE.title}` : `${SITE.title} · ${SITE.subtitle}`;
  }, [title]);
}
