import fs from 'node:fs';
import { ConfigError } from '@crm/server-kit';
import { notConfiguredSubmitter, type InvoiceSubmitter } from '../domain/invoice-submitter';

/**
 * `VERIFACTU_MODE`: `off` (the default) keeps records ready and sends nothing; `aeat-test` and `aeat`
 * name the agency's test and production web services, which accept only mutual TLS with the issuer's
 * certificate.
 */
export const VERIFACTU_MODES = ['off', 'aeat-test', 'aeat'] as const;
export type VerifactuMode = (typeof VERIFACTU_MODES)[number];

/** The agency's SOAP services each mode names (issuer's own certificate; a seal certificate uses others). */
export const VERIFACTU_ENDPOINTS: Record<Exclude<VerifactuMode, 'off'>, string> = {
  'aeat-test': 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  aeat: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
};

export interface VerifactuSettings {
  VERIFACTU_MODE: VerifactuMode;
  /** The issuer's certificate and key (PKCS12, `.p12` / `.pfx`). */
  VERIFACTU_CERT_FILE?: string | undefined;
  VERIFACTU_CERT_PASSWORD?: string | undefined;
}

/**
 * The problems of the settings, one line per variable (empty: fine). A mode naming the agency needs
 * its certificate settings, a readable certificate file, and an adapter, which this version does not
 * have: such a mode is refused rather than started as if it sent anything.
 */
export function verifactuProblems(settings: VerifactuSettings): string[] {
  const mode = settings.VERIFACTU_MODE;
  if (mode === 'off') return [];
  const problems: string[] = [];
  const file = settings.VERIFACTU_CERT_FILE;
  if (!file)
    problems.push(
      `VERIFACTU_CERT_FILE: required with VERIFACTU_MODE=${mode} (the issuer's PKCS12 certificate; the agency accepts only mutual TLS)`,
    );
  else if (!readable(file)) problems.push(`VERIFACTU_CERT_FILE: ${file} cannot be read`);
  if (!settings.VERIFACTU_CERT_PASSWORD)
    problems.push(
      `VERIFACTU_CERT_PASSWORD: required with VERIFACTU_MODE=${mode} (the certificate's password)`,
    );
  if (problems.length === 0)
    problems.push(
      `VERIFACTU_MODE: ${mode} is not available in this version (no submission adapter is built; records are kept ready with VERIFACTU_MODE=off)`,
    );
  return problems;
}

/** The submitter of the settings; refuses (ConfigError) what `verifactuProblems` names. */
export function selectInvoiceSubmitter(settings: VerifactuSettings): InvoiceSubmitter {
  const problems = verifactuProblems(settings);
  if (problems.length > 0) throw new ConfigError(problems);
  return notConfiguredSubmitter;
}

function readable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
