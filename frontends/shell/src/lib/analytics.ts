type Gtag = (command: 'event', action: string, params: Record<string, unknown>) => void;

declare global {
  interface Window {
    gtag?: Gtag;
  }
}

/**
 * Phone click: a conversion (value 1, EUR) for the advertising tag, only when one is on the page
 * (docs/product/booking.md#analytics).
 */
export function trackPhoneConversion(): void {
  if (typeof window.gtag === 'function') {
    window.gtag('event', 'conversion', { value: 1, currency: 'EUR' });
  }
}
