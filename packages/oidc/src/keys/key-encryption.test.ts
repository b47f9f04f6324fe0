import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  decryptPrivateKey,
  deriveEncryptionKey,
  encryptPrivateKey,
  KeyDecryptionError,
  MIN_CRYPTO_KEY_LENGTH,
} from "./key-encryption";

const CRYPTO_KEY = "correct horse battery staple, 32+ characters long";
const OTHER_CRYPTO_KEY = "another secret that is also at least 32 chars";
const MESSAGE = "failed to decrypt private key";

const key = deriveEncryptionKey(CRYPTO_KEY);
const plaintext = randomBytes(1200);

/** Flips one bit of the decoded blob at `index` and re-encodes it. */
const flipByte = (blob: string, index: number): string => {
  const raw = Buffer.from(blob, "base64url");
  raw[index] = (raw[index] ?? 0) ^ 0x01;
  return raw.toString("base64url");
};

const expectDecryptFailure = (blob: string, withKey: Buffer = key) => {
  let caught: unknown;
  try {
    decryptPrivateKey(blob, withKey);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(KeyDecryptionError);
  expect(caught).toBeInstanceOf(Error);
  expect((caught as Error).message).toBe(MESSAGE);
};

describe("deriveEncryptionKey", () => {
  it("derives 32 deterministic bytes that depend on the secret", () => {
    expect(key).toHaveLength(32);
    expect(deriveEncryptionKey(CRYPTO_KEY).equals(key)).toBe(true);
    expect(deriveEncryptionKey(OTHER_CRYPTO_KEY).equals(key)).toBe(false);
    // Not the secret itself, nor a plain hash prefix of it.
    expect(key.equals(Buffer.from(CRYPTO_KEY).subarray(0, 32))).toBe(false);
  });

  it("refuses a secret shorter than the configuration minimum", () => {
    expect(() => deriveEncryptionKey("x".repeat(MIN_CRYPTO_KEY_LENGTH - 1))).toThrow(/at least 32/);
    expect(deriveEncryptionKey("x".repeat(MIN_CRYPTO_KEY_LENGTH))).toHaveLength(32);
  });
});

describe("encryptPrivateKey / decryptPrivateKey", () => {
  it("round-trips", () => {
    const blob = encryptPrivateKey(plaintext, key);
    expect(blob).toMatch(/^[A-Za-z0-9_-]+$/);
    // iv (12) + tag (16) + ciphertext (same length as the plaintext under GCM)
    expect(Buffer.from(blob, "base64url")).toHaveLength(12 + 16 + plaintext.length);
    expect(decryptPrivateKey(blob, key).equals(plaintext)).toBe(true);
  });

  it("uses a fresh random IV on every call", () => {
    const blobs = Array.from({ length: 20 }, () => encryptPrivateKey(plaintext, key));
    const ivs = new Set(blobs.map((b) => Buffer.from(b, "base64url").subarray(0, 12).toString("hex")));
    expect(ivs.size).toBe(blobs.length);
    expect(new Set(blobs).size).toBe(blobs.length);
  });

  it("does not carry the plaintext", () => {
    const blob = Buffer.from(encryptPrivateKey(plaintext, key), "base64url");
    expect(blob.includes(plaintext.subarray(0, 32))).toBe(false);
  });

  it("fails with the spec's message under the wrong crypto key", () => {
    const blob = encryptPrivateKey(plaintext, key);
    expectDecryptFailure(blob, deriveEncryptionKey(OTHER_CRYPTO_KEY));
  });

  it("fails with the same message when the IV, tag or ciphertext was tampered with", () => {
    const blob = encryptPrivateKey(plaintext, key);
    expectDecryptFailure(flipByte(blob, 0)); // iv
    expectDecryptFailure(flipByte(blob, 11)); // iv, last byte
    expectDecryptFailure(flipByte(blob, 12)); // tag
    expectDecryptFailure(flipByte(blob, 27)); // tag, last byte
    expectDecryptFailure(flipByte(blob, 28)); // ciphertext
    expectDecryptFailure(flipByte(blob, 12 + 16 + plaintext.length - 1)); // ciphertext, last byte
  });

  it("fails with the same message on a truncated or extended blob", () => {
    const raw = Buffer.from(encryptPrivateKey(plaintext, key), "base64url");
    expectDecryptFailure(raw.subarray(0, raw.length - 1).toString("base64url"));
    expectDecryptFailure(Buffer.concat([raw, Buffer.from([0])]).toString("base64url"));
    // Tag dropped: the ciphertext slides into the tag position.
    expectDecryptFailure(Buffer.concat([raw.subarray(0, 12), raw.subarray(28)]).toString("base64url"));
  });

  it("fails with the same message on short or garbage input", () => {
    for (const blob of [
      "",
      "A",
      "AAAA",
      Buffer.alloc(28).toString("base64url"), // iv + tag, nothing to decrypt
      Buffer.alloc(29).toString("base64url"),
      "not base64url at all!",
      "-----BEGIN PRIVATE KEY-----",
      `${encryptPrivateKey(plaintext, key)}=`,
      encryptPrivateKey(plaintext, key).replace(/^./, "*"),
    ]) {
      expectDecryptFailure(blob);
    }
  });

  it("fails with the same message when handed a key of the wrong size", () => {
    expectDecryptFailure(encryptPrivateKey(plaintext, key), key.subarray(0, 16));
  });

  it("refuses to encrypt under a key of the wrong size", () => {
    expect(() => encryptPrivateKey(plaintext, key.subarray(0, 16))).toThrow(/32 bytes/);
  });
});
