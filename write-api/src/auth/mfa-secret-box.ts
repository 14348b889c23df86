import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { generateTokenKey, getOrCreateSecret } from '@bugtrail/platform';
import type pg from 'pg';

/** The generated key's name in `platform.secrets` (used when MFA_ENCRYPTION_KEY is unset). */
export const MFA_KEY_SECRET_NAME = 'mfa_encryption_key';
const VERSION = 'v1:';

/**
 * TOTP secrets at rest (api.md "Account safety"): AES-256-GCM, a fresh 96-bit IV per secret, the
 * user id as associated data (a sealed secret copied onto another user's row does not open).
 * Stored as `v1:<base64url(iv | tag | ciphertext)>`. The key comes from MFA_ENCRYPTION_KEY, else
 * one generated and kept in `platform.secrets`, apart from the rows it protects, as the uploads
 * signing secret is: a copy of `auth.mfa` alone gives no one's secret. A row written before the
 * encryption (a bare base32 secret) is still read as it is.
 */
export class MfaSecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(material: string): MfaSecretBox {
    // Any length of configured text becomes a 256-bit key.
    return new MfaSecretBox(createHash('sha256').update(material).digest());
  }

  seal(userId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(userId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  open(userId: string, stored: string): string {
    if (!stored.startsWith(VERSION)) return stored; // kept in plain text before the encryption
    const bytes = Buffer.from(stored.slice(VERSION.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/** The box, made once per process (a failed read of the generated key is tried again next time). */
export function lazyMfaSecretBox(pool: pg.Pool, configuredKey: string | undefined): () => Promise<MfaSecretBox> {
  let box: Promise<MfaSecretBox> | null = null;
  return () => {
    box ??= (
      configuredKey ? Promise.resolve(configuredKey) : getOrCreateSecret(pool, MFA_KEY_SECRET_NAME, generateTokenKey)
    )
      .then(MfaSecretBox.fromKey)
      .catch((error: unknown) => {
        box = null;
        throw error;
      });
    return box;
  };
}
