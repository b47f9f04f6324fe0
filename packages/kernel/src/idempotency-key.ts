import { AppError, validationError } from "./errors";

/*
 * The `Idempotency-Key` request header (IETF draft "The Idempotency-Key HTTP Header Field"): a client
 * names one intent — one posting — and may send it again after a lost answer without posting twice.
 * The draft makes it a structured-field string ("…" in quotes); the bare form most APIs take is
 * accepted too. Browser-safe: the apps make keys with `newId`.
 */

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** 1–255 visible ASCII characters (a UUID is what our apps send). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The header's key; undefined without the header; a VALIDATION_ERROR for one that is not a key. */
export const parseIdempotencyKey = (header: string | string[] | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  const key = value?.trim().replace(/^"(.*)"$/, "$1");
  if (key !== undefined && KEY.test(key)) return key;
  throw validationError([
    { path: "Idempotency-Key", message: "must be one value of 1 to 255 visible ASCII characters" },
  ]);
};

/** The key named another request (another operation, other input, or another user). */
export const idempotencyKeyReused = () =>
  new AppError("BUSINESS_RULE", {
    reason: "idempotency.key_reused",
    message: "This Idempotency-Key was already used for another request; send a new key for a new posting",
  });
