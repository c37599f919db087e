import {
  fingerprint,
  GENESIS_HASH,
  invoiceNumber,
  taxSplit,
  verifyChain,
  type Invoice,
} from '../src/domain/invoice';
import { appointmentPaymentStatus, type Payment } from '../src/domain/payment';

function chain(count: number): Invoice[] {
  const out: Invoice[] = [];
  for (let i = 1; i <= count; i++) {
    const draft: Omit<Invoice, 'hash'> = {
      number: invoiceNumber('F', 2026, i),
      series: 'F',
      year: 2026,
      seq: i,
      chainSeq: i,
      kind: 'invoice',
      sourceKey: `payment:${i}`,
      paymentId: String(i),
      appointmentId: 'a',
      patientId: 'p',
      patientName: 'Paciente',
      issuer: { legalName: 'Centro S.L.', taxId: 'B00000000', address: 'Calle 1' },
      issuedAt: new Date(Date.UTC(2026, 0, i)),
      description: 'Reconocimiento médico',
      totalCents: 1900,
      baseCents: 1900,
      taxCents: 0,
      vatRatePercent: 0,
      currency: 'EUR',
      method: 'card',
      previousHash: out.at(-1)?.hash ?? GENESIS_HASH,
      qrUrl: 'https://example.test',
    };
    out.push({ ...draft, hash: fingerprint(draft) });
  }
  return out;
}

describe('the invoice chain', () => {
  it('accepts an intact chain and names the first edited, relinked or missing record', () => {
    expect(verifyChain(chain(5))).toEqual({ ok: true, checked: 5 });
    const edited = chain(5);
    edited[2] = { ...edited[2]!, totalCents: 100 };
    expect(verifyChain(edited)).toMatchObject({
      ok: false,
      firstBroken: { number: 'F2026-000003', reason: 'hash' },
    });
    const gap = chain(5);
    gap.splice(1, 1);
    expect(verifyChain(gap)).toMatchObject({
      ok: false,
      firstBroken: { number: 'F2026-000003', reason: 'sequence' },
    });
    const relinked = chain(3);
    relinked[1] = { ...relinked[1]!, previousHash: 'X' };
    expect(verifyChain(relinked).firstBroken).toEqual({ number: 'F2026-000002', reason: 'link' });
  });

  it('splits a total into base and VAT in whole cents', () => {
    expect(taxSplit(1900, 0)).toEqual({ baseCents: 1900, taxCents: 0 });
    expect(taxSplit(1210, 21)).toEqual({ baseCents: 1000, taxCents: 210 });
  });
});

describe('the appointment payment status', () => {
  const p = (status: Payment['status'], amountCents = 1900): Payment => ({ status, amountCents }) as Payment;
  it('is paid once the money kept covers the price, refunded when all was given back', () => {
    expect(appointmentPaymentStatus([], 1900)).toBe('unpaid');
    expect(appointmentPaymentStatus([p('pending')], 1900)).toBe('pending');
    expect(appointmentPaymentStatus([p('failed'), p('succeeded')], 1900)).toBe('paid');
    expect(appointmentPaymentStatus([p('refunded')], 1900)).toBe('refunded');
    expect(appointmentPaymentStatus([p('succeeded', 500)], 1900)).toBe('unpaid');
  });
});
