import { downloadFile } from '@crm/web-kit';

/**
 * GET /payments/invoices/export?from&to (ADMIN): the period's invoices, saved as the file the server
 * names (`facturas-<from>-<to>.csv`). The server neutralises formulas and records the export in the
 * access trail. Throws {@link ApiError} with the server's message (e.g. a period over a year).
 */
export const exportInvoicesCsv = (from: string, to: string): Promise<string> =>
  downloadFile('/payments/invoices/export', {
    accept: 'text/csv',
    fallbackName: `facturas-${from}-${to}.csv`,
    query: { from, to },
  });
