import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  baseEnvSchema,
  ConfigError,
  durationToSeconds,
  isLoopbackHost,
  loadConfig,
  needsRealSecrets,
} from '../src/config';

const schema = baseEnvSchema.extend({ PORT: z.coerce.number().int().default(4001) });

describe('loadConfig', () => {
  it('lists every problem at once', () => {
    expect(() => loadConfig(schema, { JWT_TTL: 'forever', PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { JWT_TTL: 'forever', PORT: 'abc' });
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('refuses development secrets in production', () => {
    const keySchema = schema.extend({ MFA_ENCRYPTION_KEY: z.string() });
    const env = { NODE_ENV: 'production', MFA_ENCRYPTION_KEY: 'dev-only-0123456789abcdef0123456789abcdef' };
    expect(() => loadConfig(keySchema, env)).toThrow(
      /MFA_ENCRYPTION_KEY: a development value is not allowed/,
    );
  });

  it('refuses development passwords inside URLs in production', () => {
    const urlSchema = schema.extend({ AMQP_URL: z.string() });
    const env = {
      NODE_ENV: 'production',
      AMQP_URL: 'amqp://crm:dev-only-rabbitmq@rabbitmq:5672',
    };
    expect(() => loadConfig(urlSchema, env)).toThrow(/AMQP_URL: a development value/);
    expect(
      loadConfig(urlSchema, { ...env, AMQP_URL: 'amqp://crm:s3cr3t-Xy@rabbitmq:5672' }).AMQP_URL,
    ).toMatch(/^amqp:/);
  });

  describe('on an address other machines reach, whatever NODE_ENV says', () => {
    const exposedSchema = schema.extend({
      HOST: z.string().default('127.0.0.1'),
      SOME_SECRET: z.string().optional(),
    });

    it('tells loopback addresses from the others', () => {
      for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
        expect(isLoopbackHost(host)).toBe(true);
      for (const host of ['0.0.0.0', '::', '192.168.1.10', 'crm.example.org', '128.0.0.1'])
        expect(isLoopbackHost(host)).toBe(false);
      expect(needsRealSecrets({ NODE_ENV: 'development', HOST: '127.0.0.1' })).toBe(false);
      expect(needsRealSecrets({ NODE_ENV: 'development', HOST: '0.0.0.0' })).toBe(true);
      expect(needsRealSecrets({ NODE_ENV: 'production', HOST: '127.0.0.1' })).toBe(true);
    });

    it('refuses a development secret and a missing required one, and names both', () => {
      const env = { NODE_ENV: 'development', HOST: '0.0.0.0', SOME_SECRET: 'dev-only-secret' };
      expect(() => loadConfig(exposedSchema, env, ['SOME_SECRET'])).toThrow(
        /SOME_SECRET: a development value is not allowed when listening on 0\.0\.0\.0/,
      );
      const { SOME_SECRET: _secret, ...withoutSecret } = env;
      expect(() => loadConfig(exposedSchema, withoutSecret, ['SOME_SECRET'])).toThrow(
        /SOME_SECRET: required/,
      );
      // On loopback the same development start is allowed.
      expect(loadConfig(exposedSchema, { ...env, HOST: '127.0.0.1' }, ['SOME_SECRET']).SOME_SECRET).toBe(
        'dev-only-secret',
      );
      expect(loadConfig(exposedSchema, { ...env, SOME_SECRET: 'a-real-one' }, ['SOME_SECRET']).HOST).toBe(
        '0.0.0.0',
      );
    });
  });

  describe('NAME_FILE', () => {
    const fileSchema = schema.extend({ SOME_SECRET: z.string().optional() });
    const dir = mkdtempSync(path.join(tmpdir(), 'crm-config-'));

    it('reads a value from the named file, without its final newline', () => {
      const file = path.join(dir, 'secret');
      writeFileSync(file, 'from-a-file\n');
      expect(loadConfig(fileSchema, { SOME_SECRET_FILE: file }).SOME_SECRET).toBe('from-a-file');
      // A value given directly wins over the file.
      expect(loadConfig(fileSchema, { SOME_SECRET_FILE: file, SOME_SECRET: 'direct' }).SOME_SECRET).toBe(
        'direct',
      );
    });

    it('names the variable when the file cannot be read', () => {
      expect(() => loadConfig(fileSchema, { SOME_SECRET_FILE: path.join(dir, 'missing') })).toThrow(
        /SOME_SECRET_FILE: cannot read .*missing \(ENOENT\)/,
      );
    });
  });

  it('applies defaults', () => {
    const config = loadConfig(schema, {});
    expect(config).toMatchObject({
      PORT: 4001,
      JWT_TTL: '8h',
      NODE_ENV: 'development',
      AUTH_SERVICE_URL: 'http://127.0.0.1:4001',
    });
  });

  it('reads durations', () => {
    expect(durationToSeconds('15m')).toBe(900);
    expect(durationToSeconds('8h')).toBe(28800);
    expect(durationToSeconds('30')).toBe(30);
  });
});
