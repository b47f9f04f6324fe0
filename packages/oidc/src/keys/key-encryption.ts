import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// Signing keys are stored as base64url(iv ‖ auth tag ‖ ciphertext), AES-256-GCM, under a key derived
// from OIDC_CRYPTO_KEY. Changing any of these constants makes every stored key unreadable.
const HKDF_SALT = "hisob/oidc/signing-keys/v1";
const HKDF_INFO = "hisob oidc signing key encryption (AES-256-GCM)";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The configuration contract (spec: "secret of at least 32 characters"). */
export const MIN_CRYPTO_KEY_LENGTH = 32;

const DECRYPT_FAILED = "failed to decrypt private key";
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The one error every decryption failure becomes, so a wrong key, tampering and garbage look alike. */
export class KeyDecryptionError extends Error {
  constructor(options?: ErrorOptions) {
    super(DECRYPT_FAILED, options);
    this.name = "KeyDecryptionError";
  }
}

/** HKDF-SHA256 so the AES key is uniformly random whatever the shape of the configured secret. */
export const deriveEncryptionKey = (cryptoKey: string): Buffer => {
  // Guard here too: a short secret would otherwise silently encrypt keys that are easy to brute-force.
  if (cryptoKey.length < MIN_CRYPTO_KEY_LENGTH) {
    throw new Error(`OIDC_CRYPTO_KEY must be at least ${MIN_CRYPTO_KEY_LENGTH} characters`);
  }
  return Buffer.from(hkdfSync("sha256", Buffer.from(cryptoKey, "utf8"), HKDF_SALT, HKDF_INFO, KEY_BYTES));
};

const assertKey = (key: Buffer) => {
  if (key.length !== KEY_BYTES) throw new Error(`encryption key must be ${KEY_BYTES} bytes`);
};

export const encryptPrivateKey = (pkcs8Der: Buffer, key: Buffer): string => {
  assertKey(key);
  // A fresh random IV per call: GCM must never see the same (key, IV) pair twice.
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(pkcs8Der), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
};

export const decryptPrivateKey = (blob: string, key: Buffer): Buffer => {
  // Buffer.from(…, "base64url") skips invalid characters: check the alphabet first so garbage is refused.
  if (!BASE64URL.test(blob)) throw new KeyDecryptionError();
  const raw = Buffer.from(blob, "base64url");
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new KeyDecryptionError();
  try {
    assertKey(key);
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch (error) {
    throw new KeyDecryptionError({ cause: error });
  }
};
