import { z } from 'zod';
import { baseEnvSchema, ConfigError, durationToSeconds, loadConfig } from '../src/config';

const schema = baseEnvSchema.extend({ PORT: z.coerce.number().int().default(4001) });

describe('loadConfig', () => {
  it('lists every problem at once', () => {
    expect(() => loadConfig(schema, { JWT_SECRET: 'short', PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { JWT_SECRET: 'short', PORT: 'abc' });
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });

  it('refuses development secrets in production', () => {
    const env = { NODE_ENV: 'production', JWT_SECRET: 'dev-only-0123456789abcdef0123456789abcdef' };
    expect(() => loadConfig(schema, env)).toThrow(/not allowed in production/);
  });

  it('applies defaults', () => {
    const config = loadConfig(schema, { JWT_SECRET: 'x'.repeat(40) });
    expect(config).toMatchObject({ PORT: 4001, JWT_TTL: '8h', NODE_ENV: 'development' });
  });

  it('reads durations', () => {
    expect(durationToSeconds('15m')).toBe(900);
    expect(durationToSeconds('8h')).toBe(28800);
    expect(durationToSeconds('30')).toBe(30);
  });
});
