export {
  CENTRE_PROFILE_PATH,
  getCentreProfile,
  preloadCentreProfile,
  useCentreProfile,
} from './get-centre-profile';
export type { CentreProfileState, CentreProfileStatus } from './get-centre-profile';
export {
  addPrices,
  capitalize,
  describeOpeningGroup,
  describeOpeningHours,
  DGT_VALIDITIES,
  formatClock,
  formatHours,
  formatPrice,
  formatAmount,
  formatNumber,
  groupOpeningHours,
  phoneHref,
} from './format';
export type { DgtValidity, OpeningGroup, OpeningPeriod } from './format';
