import type { OnlinePaymentMode } from '@crm/contracts';

/** What payments need of the centre profile (read from the config service, cached). */
export interface CentreTerms {
  priceCents: number;
  currency: string;
  online: OnlinePaymentMode;
  refundWindowHours: number;
  issuer: { legalName: string; taxId: string; address: string; brandName: string };
  vatRatePercent: number;
  exemptionText: string;
}

export interface CentreTermsSource {
  current(): Promise<CentreTerms>;
}
