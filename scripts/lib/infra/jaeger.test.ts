import { parse } from 'yaml';
import { infraEnv } from '../infra';
import { jaegerConfig, JAEGER } from './jaeger';

type Config = { extensions: { jaeger_query: { ui?: { assets_path: string }; http: { endpoint: string } } } };

describe('the local Jaeger configuration', () => {
  it('serves the API on loopback, and no UI of its own', () => {
    const config = parse(jaegerConfig()) as Config;
    expect(config.extensions.jaeger_query.http.endpoint).toBe(`127.0.0.1:${JAEGER.uiPort}`);
    expect(config.extensions.jaeger_query.ui).toBeUndefined();
  });

  it('serves a built jaeger-ui from JAEGER_UI_DIR, by its absolute path', () => {
    const config = parse(jaegerConfig('ui build/with "quotes"')) as Config;
    expect(config.extensions.jaeger_query.ui?.assets_path).toBe(`${process.cwd()}/ui build/with "quotes"`);
    // What infra-up reads it from.
    expect(infraEnv({ JAEGER_UI_DIR: '/opt/jaeger-ui' }).JAEGER_UI_DIR).toBe('/opt/jaeger-ui');
  });
});
