/**
 * The gateway has no database: loading everything it runs (its start-up module and what that imports)
 * must not load mongoose or the MongoDB driver (issue: `@crm/event-bus` used to pull them in).
 */
import { modulesLoadedBy } from '@crm/testing';

const MONGO_MODULE = /[\\/]node_modules[\\/](mongoose|mongodb|bson)[\\/]/;

describe('the gateway process', () => {
  it('loads no mongoose, MongoDB driver or BSON, but does load its proxy and the AMQP client', () => {
    const loaded = modulesLoadedBy('./gateway/src/start-gateway.ts');
    expect(loaded.filter((file) => MONGO_MODULE.test(file))).toEqual([]);
    expect(loaded.some((file) => /[\\/]node_modules[\\/]amqplib[\\/]/.test(file))).toBe(true);
    expect(loaded.some((file) => /[\\/]node_modules[\\/]http-proxy-middleware[\\/]/.test(file))).toBe(true);
  });
});
