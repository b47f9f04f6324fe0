export {
  decryptPrivateKey,
  deriveEncryptionKey,
  encryptPrivateKey,
  KeyDecryptionError,
  MIN_CRYPTO_KEY_LENGTH,
} from "./key-encryption";
export {
  createSigningKeys,
  type Jwks,
  KeyStillNeededError,
  type PublicJwk,
  SIGNING_ALGORITHM,
  type SigningKeyInfo,
  type SigningKeys,
  type SigningKeysDeps,
  type SignJwtOptions,
} from "./signing-keys";
