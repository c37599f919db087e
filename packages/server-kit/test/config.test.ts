import { z } from 'zod';
import { baseEnvSchema, ConfigError, durationToSeconds, loadConfig } from '../src/config';

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
    expect(() => loadConfig(keySchema, env)).toThrow(/not allowed in production/);
  });

  it('refuses development passwords inside URLs in production', () => {
    const urlSchema = schema.extend({ AMQP_URL: z.string() });
    const env = {
      NODE_ENV: 'production',
      AMQP_URL: 'amqp://crm:dev-only-rabbitmq@rabbitmq:5672',
    };
    expect(() => loadConfig(urlSchema, env)).toThrow(/AMQP_URL: development default/);
    expect(
      loadConfig(urlSchema, { ...env, AMQP_URL: 'amqp://crm:s3cr3t-Xy@rabbitmq:5672' }).AMQP_URL,
    ).toMatch(/^amqp:/);
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
