import { devEnvDefaults } from '../../../scripts/lib/dev-env';
import { loadAuthConfig } from '../src/config';
import { isCommonPassword, newPasswordField, PUBLISHED_PASSWORDS } from '../src/domain/password-policy';

const production = {
  NODE_ENV: 'production',
  MONGO_URL: 'mongodb://db:27017',
  AMQP_URL: 'amqp://crm:Xq7-real@broker:5672',
  MFA_ENCRYPTION_KEY: 'another-real-key-of-more-than-thirty-two-characters',
};

describe('new passwords', () => {
  it('are refused when on the list of common and breached passwords, whatever the case', () => {
    for (const common of ['password123', 'Qwerty123', 'iloveyou', '12345678'])
      expect(isCommonPassword(common)).toBe(true);
    expect(isCommonPassword('contraseña-buena')).toBe(false);
    const refused = newPasswordField.safeParse('PASSWORD1');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(
      'Esta contraseña es muy común o aparece en filtraciones de datos; elija otra',
    );
    expect(newPasswordField.safeParse('Ventana-Azul-2026').success).toBe(true);
  });
});

describe('production start', () => {
  it('requires its own at-rest key (MFA_ENCRYPTION_KEY)', () => {
    const { MFA_ENCRYPTION_KEY: _key, ...withoutKey } = production;
    expect(() => loadAuthConfig(withoutKey)).toThrow(/MFA_ENCRYPTION_KEY: required/);
    expect(loadAuthConfig({ ...withoutKey, NODE_ENV: 'development' }).MFA_ENCRYPTION_KEY).toBeUndefined();
    // A development start that listens beyond this machine needs it as well.
    expect(() => loadAuthConfig({ ...withoutKey, NODE_ENV: 'development', HOST: '0.0.0.0' })).toThrow(
      /MFA_ENCRYPTION_KEY: required when listening on 0\.0\.0\.0/,
    );
  });

  it('takes an operator’s signing key only as a PEM private key (empty: none, the service makes its own)', () => {
    expect(loadAuthConfig({ ...production, JWT_SIGNING_KEY: '' }).JWT_SIGNING_KEY).toBeUndefined();
    expect(() =>
      loadAuthConfig({ ...production, JWT_SIGNING_KEY: 'a-shared-secret-of-the-old-kind' }),
    ).toThrow(/JWT_SIGNING_KEY: must be a PEM private key/);
  });

  it('lists every published development password', () => {
    const dev = devEnvDefaults();
    for (const key of ['BOOTSTRAP_ADMIN_PASSWORD', 'BOOTSTRAP_DOCTOR_PASSWORD', 'BOOTSTRAP_KIOSK_PASSWORD'])
      expect(PUBLISHED_PASSWORDS).toContain(dev[key]);
  });

  it('refuses the published or a common bootstrap password, and accepts them in development', () => {
    const published = {
      ...production,
      BOOTSTRAP_ADMIN_PASSWORD: 'Admin1234!',
      BOOTSTRAP_KIOSK_PASSWORD: 'Kiosk1234!',
    };
    expect(() => loadAuthConfig(published)).toThrow(
      /BOOTSTRAP_ADMIN_PASSWORD: a published or common password[\s\S]*BOOTSTRAP_KIOSK_PASSWORD/,
    );
    for (const variant of ['admin1234!', 'ADMIN1234!', 'kIOSK1234!'])
      expect(() => loadAuthConfig({ ...production, BOOTSTRAP_ADMIN_PASSWORD: variant })).toThrow(
        /BOOTSTRAP_ADMIN_PASSWORD: a published or common password/,
      );
    expect(() => loadAuthConfig({ ...production, BOOTSTRAP_DOCTOR_PASSWORD: 'sunshine1' })).toThrow(
      /BOOTSTRAP_DOCTOR_PASSWORD/,
    );
    expect(loadAuthConfig({ ...production, BOOTSTRAP_ADMIN_PASSWORD: 'Ventana-Azul-2026' }).NODE_ENV).toBe(
      'production',
    );
    expect(loadAuthConfig({ ...published, NODE_ENV: 'development' }).BOOTSTRAP_ADMIN_PASSWORD).toBe(
      'Admin1234!',
    );
    expect(() => loadAuthConfig({ ...published, NODE_ENV: 'development', HOST: '0.0.0.0' })).toThrow(
      /BOOTSTRAP_ADMIN_PASSWORD: a published or common password is not allowed when listening on 0\.0\.0\.0/,
    );
  });
});
