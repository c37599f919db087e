import { CENTRE_PROFILE_SEED, type CentreProfileBody } from '@crm/contracts';

/** A valid `PUT /config/centre` body: the seed with the given changes (prices merged one level deep). */
export function centreBody(
  changes: Omit<Partial<CentreProfileBody>, 'prices'> & {
    prices?: Partial<CentreProfileBody['prices']>;
  } = {},
): CentreProfileBody {
  const { prices, ...rest } = changes;
  return { ...CENTRE_PROFILE_SEED, ...rest, prices: { ...CENTRE_PROFILE_SEED.prices, ...prices } };
}

/** Another address the tests move the centre to (nobody else uses it). */
export const NEW_ADDRESS = 'Calle León y Castillo 100, 35003 Las Palmas de Gran Canaria';
