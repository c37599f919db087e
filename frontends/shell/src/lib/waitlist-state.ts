import type { WaitlistEntryView, WaitlistOfferView } from '@crm/contracts';
import { formatTime } from '@crm/web-kit/time';

/** A slot held for the patient now: the e-mailed link books it. */
export const heldOfferText = (offer: WaitlistOfferView) =>
  `Le guardamos un hueco a las ${formatTime(offer.date)} hasta las ${formatTime(offer.expiresAt)}: use el enlace del correo que le hemos enviado para reservarlo.`;

/** Held slots the patient let pass: they will not be offered again, other freed slots will. */
export function missedOffersText(entry: WaitlistEntryView): string | null {
  const missed = entry.missedOffers ?? [];
  if (missed.length === 0) return null;
  const times = missed.map((offer) => formatTime(offer.date)).join(', ');
  return missed.length === 1
    ? `El hueco de las ${times} que le guardamos no se reservó a tiempo y no se le volverá a ofrecer.`
    : `Los huecos de las ${times} que le guardamos no se reservaron a tiempo y no se le volverán a ofrecer.`;
}
