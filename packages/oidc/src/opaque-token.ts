import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, base64url: codes, access and refresh tokens, client secrets. */
export const newOpaqueToken = (): string => randomBytes(32).toString("base64url");

/** Only hashes are stored; the inputs are high-entropy, so a plain SHA-256 suffices. */
export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex");

export const sha256Base64Url = (value: string): string =>
  createHash("sha256").update(value, "ascii").digest("base64url");

/** Constant-time comparison of two strings. */
export const safeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Opaque tokens are base64url of 32 bytes: reject anything else before touching the database. */
export const looksLikeOpaqueToken = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);
