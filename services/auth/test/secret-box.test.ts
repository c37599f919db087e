import { SecretBox } from '../src/data/secret-box';

describe('SecretBox', () => {
  it('opens what it sealed, and names the key when another key sealed it', () => {
    const box = new SecretBox('the-at-rest-key-of-this-deployment-0123456789');
    const sealed = box.seal('a signing key');
    expect(box.open(sealed)).toBe('a signing key');
    const other = new SecretBox('another-at-rest-key-made-by-another-checkout-01');
    expect(() => other.open(sealed)).toThrow(/does not open with MFA_ENCRYPTION_KEY/);
  });
});
