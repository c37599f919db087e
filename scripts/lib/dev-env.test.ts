import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyDevEnv, devEnvDefaults, localSecrets, localSecretsFile, withDevEnv } from './dev-env';
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

  it('makes random secrets once per machine, kept owner-only outside the repository, never a published one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-secrets-'));
    const file = path.join(dir, 'secrets.env');
    try {
      const first = localSecrets(file);
      expect(first.MFA_ENCRYPTION_KEY.length).toBeGreaterThanOrEqual(32);
      expect(first.MFA_ENCRYPTION_KEY).not.toMatch(/^dev-only-/);
      // No shared token secret any more: the auth service signs with keys of its own.
      expect(first.JWT_SECRET).toBeUndefined();
      expect(fs.statSync(file).mode & 0o077).toBe(0);
      expect(localSecrets(file)).toEqual(first);
      const env = withDevEnv({}, { dotEnv: false, secretsFile: file });
      expect(env.MFA_ENCRYPTION_KEY).toBe(first.MFA_ENCRYPTION_KEY);
      expect(localSecrets(path.join(dir, 'other.env')).MFA_ENCRYPTION_KEY).not.toBe(first.MFA_ENCRYPTION_KEY);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(devEnvDefaults().JWT_SECRET).toBeUndefined();
    expect(fs.readFileSync(path.join(REPO_ROOT, '.gitignore'), 'utf8')).toMatch(/^\.infra\/$/m);
  });

  it('keeps them per machine: two checkouts share one file, and an older checkout file is taken over', () => {
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-state-'));
    const checkouts = [
      fs.mkdtempSync(path.join(os.tmpdir(), 'crm-a-')),
      fs.mkdtempSync(path.join(os.tmpdir(), 'crm-b-')),
    ];
    const saved = { XDG_STATE_HOME: process.env.XDG_STATE_HOME, INFRA_DIR: process.env.INFRA_DIR };
    try {
      process.env.XDG_STATE_HOME = state;
      fs.writeFileSync(
        path.join(checkouts[0], 'secrets.env'),
        'MFA_ENCRYPTION_KEY=from-the-older-checkout-file-0123456789\n',
      );
      const files = checkouts.map((dir) => {
        process.env.INFRA_DIR = dir;
        return localSecretsFile();
      });
      expect(files[0]).toBe(path.join(state, 'crm-platform', 'secrets.env'));
      expect(files[1]).toBe(files[0]);
      expect(path.relative(REPO_ROOT, files[0]).startsWith('..')).toBe(true);
      expect(localSecrets(files[0]).MFA_ENCRYPTION_KEY).toBe('from-the-older-checkout-file-0123456789');
      expect(fs.statSync(files[0]).mode & 0o077).toBe(0);
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      for (const dir of [state, ...checkouts]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has the three bootstrap accounts', () => {
    const d = devEnvDefaults();
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
