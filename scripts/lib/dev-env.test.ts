import fs from 'node:fs';
import path from 'node:path';
import { applyDevEnv, devEnvDefaults, withDevEnv } from './dev-env';
import { REPO_ROOT } from './paths';

describe('development environment defaults', () => {
  it('fills unset and empty variables and never changes ones already set', () => {
    const env: NodeJS.ProcessEnv = { MONGO_URL: 'mongodb://elsewhere:27017', REDIS_URL: '' };
    applyDevEnv(env, { dotEnv: false });
    expect(env.MONGO_URL).toBe('mongodb://elsewhere:27017');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.NODE_ENV).toBe('development');
    expect(env.PORT).toBeUndefined();
  });

  it('leaves NODE_ENV alone for tests and does not touch the source of a copy', () => {
    const base: NodeJS.ProcessEnv = {};
    const copy = withDevEnv(base, { dotEnv: false, nodeEnv: null });
    expect(copy.NODE_ENV).toBeUndefined();
    expect(copy.AMQP_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(base).toEqual({});
  });

  it('has a development JWT secret of at least 32 characters and the three bootstrap accounts', () => {
    const d = devEnvDefaults();
    expect(d.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect([d.BOOTSTRAP_ADMIN_EMAIL, d.BOOTSTRAP_DOCTOR_EMAIL, d.BOOTSTRAP_KIOSK_EMAIL]).toEqual([
      'admin@crm.local',
      'doctor@crm.local',
      'kiosk@crm.local',
    ]);
  });

  it('documents every default in .env.example', () => {
    const example = fs.readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
    const missing = Object.keys(devEnvDefaults()).filter((k) => !new RegExp(`^${k}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });
});
