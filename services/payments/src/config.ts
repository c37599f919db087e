import { z } from 'zod';
import { ConfigError, loadConfig, serviceEnvSchema } from '@crm/server-kit';
import { VERIFACTU_MODES, verifactuProblems } from './data/invoice-submitters';

/**
 * The key Redsys publishes for its test environment (and that every sample uses): anyone can sign
 * a "payment accepted" notification with it, so production refuses it.
 */
export const REDSYS_PUBLISHED_TEST_KEY = 'sq7HjrUOBfKmC576ILgskD5srU870gJ7';

const url = z.url({ protocol: /^https?$/ });

export const paymentsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4008),
  MONGO_DB: z.string().min(1).default('payments'),
  /** The centre profile (`GET /config/centre`): price, `payments.online`, legal data for invoices. */
  CONFIG_SERVICE_URL: url.default('http://127.0.0.1:4005'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** How long the centre profile read from the config service is trusted (`config.centre.updated.v1` drops it). */
  PAYMENTS_CENTRE_CACHE_MS: z.coerce.number().int().min(0).default(300_000),
  /** Base of the addresses the payment page sends the patient back to and notifies (`/user?payment=ok`). */
  PUBLIC_URL: url.default('http://127.0.0.1:8080'),
  REDSYS_MERCHANT_CODE: z.string().regex(/^\d{1,9}$/, 'must be the 9-digit merchant code (FUC)'),
  REDSYS_TERMINAL: z.string().regex(/^\d{1,3}$/, 'must be a terminal number (1-3 digits)'),
  /** The terminal's secret (base64 of 24 bytes, as the Redsys portal shows it). */
  REDSYS_SECRET_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 24, 'must be base64 of 24 bytes'),
  /** Base of the gateway: `<REDSYS_URL>/sis/realizarPago` and `<REDSYS_URL>/sis/rest/trataPeticionREST`. */
  REDSYS_URL: url,
  /** First wait before retrying a refund the gateway did not confirm; doubles each time up to an hour. */
  REFUND_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  /** How often refunds to retry and payments still without an invoice are looked for. */
  PAYMENTS_SWEEP_MS: z.coerce.number().int().positive().default(10_000),
  /** Submission of invoice records to the tax agency (VERI*FACTU): `off` keeps them ready. */
  VERIFACTU_MODE: z.enum(VERIFACTU_MODES).default('off'),
  /** The issuer's PKCS12 certificate and its password: required by every mode but `off`. */
  VERIFACTU_CERT_FILE: z.string().min(1).optional(),
  VERIFACTU_CERT_PASSWORD: z.string().min(1).optional(),
});

export type PaymentsConfig = z.infer<typeof paymentsEnvSchema>;

/**
 * Loads the settings; in production the published Redsys test key is refused, like `dev-only-`
 * secrets; a VERI*FACTU mode naming the tax agency is refused without its certificate settings (and,
 * in this version, with them: no adapter sends records yet).
 */
export function loadPaymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const config = loadConfig(paymentsEnvSchema, env);
  const problems = verifactuProblems(config);
  if (config.NODE_ENV === 'production' && config.REDSYS_SECRET_KEY === REDSYS_PUBLISHED_TEST_KEY)
    problems.unshift('REDSYS_SECRET_KEY: the published Redsys test key is not allowed in production');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
