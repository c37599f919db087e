import { ConfigError } from '@crm/server-kit';
import { loadPaymentsConfig, REDSYS_PUBLISHED_TEST_KEY } from '../src/config';

const base = {
  MONGO_URL: 'mongodb://127.0.0.1:27017',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  REDSYS_URL: 'https://sis.redsys.es',
  REDSYS_MERCHANT_CODE: '999008881',
  REDSYS_TERMINAL: '1',
};
const ownKey = Buffer.alloc(24, 7).toString('base64');

describe('payments configuration', () => {
  it('starts with a terminal key of 24 bytes, port 4008 by default', () => {
    expect(loadPaymentsConfig({ ...base, REDSYS_SECRET_KEY: ownKey })).toMatchObject({
      PORT: 4008,
    });
  });

  it('refuses missing or malformed Redsys settings, naming each', () => {
    expect(() =>
      loadPaymentsConfig({ ...base, REDSYS_MERCHANT_CODE: 'abc', REDSYS_SECRET_KEY: 'short' }),
    ).toThrow(/REDSYS_MERCHANT_CODE[\s\S]*REDSYS_SECRET_KEY/);
    expect(() => loadPaymentsConfig({ ...base, REDSYS_SECRET_KEY: ownKey, REDSYS_URL: '' })).toThrow(
      ConfigError,
    );
  });

  it('refuses the published test key in production, and accepts it in development', () => {
    expect(
      loadPaymentsConfig({ ...base, REDSYS_SECRET_KEY: REDSYS_PUBLISHED_TEST_KEY }).REDSYS_SECRET_KEY,
    ).toBe(REDSYS_PUBLISHED_TEST_KEY);
    expect(() =>
      loadPaymentsConfig({ ...base, NODE_ENV: 'production', REDSYS_SECRET_KEY: REDSYS_PUBLISHED_TEST_KEY }),
    ).toThrow(/published Redsys test key/);
    expect(loadPaymentsConfig({ ...base, NODE_ENV: 'production', REDSYS_SECRET_KEY: ownKey }).NODE_ENV).toBe(
      'production',
    );
  });
});
