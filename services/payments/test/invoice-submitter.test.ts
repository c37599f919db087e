import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@crm/server-kit';
import { loadPaymentsConfig } from '../src/config';
import { selectInvoiceSubmitter, verifactuProblems } from '../src/data/invoice-submitters';

/** The tax agency's submission (VERI*FACTU): `off` by default, and no mode naming the agency half set up. */
const base = {
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  REDSYS_URL: 'https://sis.redsys.es',
  REDSYS_MERCHANT_CODE: '999008881',
  REDSYS_TERMINAL: '1',
  REDSYS_SECRET_KEY: Buffer.alloc(24, 7).toString('base64'),
};

let dir: string;
let certificate: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verifactu-'));
  certificate = path.join(dir, 'emisor.p12');
  fs.writeFileSync(certificate, Buffer.from([0x30, 0x82]));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('is off by default: every new record is "not-configured", and nothing is sent', async () => {
  const config = loadPaymentsConfig(base);
  expect(config.VERIFACTU_MODE).toBe('off');
  const submitter = selectInvoiceSubmitter(config);
  expect(submitter.mode).toBe('off');
  expect(submitter.initial()).toEqual({ status: 'not-configured' });
  expect(await submitter.submit([])).toEqual([]);
});

it.each(['aeat-test', 'aeat'])(
  'refuses to start with VERIFACTU_MODE=%s without the certificate settings, naming each',
  (mode) => {
    const attempt = () => loadPaymentsConfig({ ...base, VERIFACTU_MODE: mode });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/VERIFACTU_CERT_FILE: required with VERIFACTU_MODE=/);
    expect(attempt).toThrow(/VERIFACTU_CERT_PASSWORD: required with VERIFACTU_MODE=/);
    // A password alone is not enough either.
    expect(() =>
      loadPaymentsConfig({ ...base, VERIFACTU_MODE: mode, VERIFACTU_CERT_PASSWORD: 'clave' }),
    ).toThrow(/VERIFACTU_CERT_FILE: required/);
  },
);

it('refuses a certificate file that cannot be read, and never echoes the password', () => {
  const problems = verifactuProblems({
    VERIFACTU_MODE: 'aeat',
    VERIFACTU_CERT_FILE: path.join(dir, 'missing.p12'),
    VERIFACTU_CERT_PASSWORD: 'secreto-del-certificado',
  });
  expect(problems).toEqual([`VERIFACTU_CERT_FILE: ${path.join(dir, 'missing.p12')} cannot be read`]);
  expect(problems.join(' ')).not.toContain('secreto-del-certificado');
});

it('refuses a complete agency mode too, since no adapter sends records in this version', () => {
  const settings = {
    VERIFACTU_MODE: 'aeat-test' as const,
    VERIFACTU_CERT_FILE: certificate,
    VERIFACTU_CERT_PASSWORD: 'clave',
  };
  expect(verifactuProblems(settings)).toEqual([
    expect.stringMatching(/^VERIFACTU_MODE: aeat-test is not available/),
  ]);
  expect(() => selectInvoiceSubmitter(settings)).toThrow(ConfigError);
});

it('refuses an unknown mode', () => {
  expect(() => loadPaymentsConfig({ ...base, VERIFACTU_MODE: 'log' })).toThrow(/VERIFACTU_MODE/);
});
