import { z } from "zod";
import type { TenantContext } from "./context";
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
const KEY_RULE = "must be one value of 1 to 255 visible ASCII characters";

/**
 * The key as a field of the input (tRPC's `idempotencyKey` on a posting), for a client that cannot
 * set headers per call: the same rule as the header, without its quoted form.
 */
export const ZIdempotencyKeyField = z.object({
  idempotencyKey: z.string().regex(KEY, { error: KEY_RULE }).optional(),
});

/** The header's key; undefined without the header; a VALIDATION_ERROR for one that is not a key. */
export const parseIdempotencyKey = (header: string | string[] | undefined): string | undefined => {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  const key = value?.trim().replace(/^"(.*)"$/, "$1");
  if (key !== undefined && KEY.test(key)) return key;
  throw validationError([{ path: "Idempotency-Key", message: KEY_RULE }]);
};

/**
 * The caller with the key a field or argument names (GraphQL's `idempotencyKey` argument, tRPC's
 * field; docs/decisions/0083-idempotency-key-in-the-input.md). Absent: the header's key stays. Both
 * given must agree: a client that sends two keys cannot mean both.
 */
export const withIdempotencyKey = (caller: TenantContext, key: string | null | undefined): TenantContext => {
  if (key === undefined || key === null) return caller;
  if (!KEY.test(key)) throw validationError([{ path: "idempotencyKey", message: KEY_RULE }]);
  if (caller.idempotencyKey !== undefined && caller.idempotencyKey !== key) {
    throw validationError([
      { path: "idempotencyKey", message: "differs from the Idempotency-Key header: send one key" },
    ]);
  }
  return { ...caller, idempotencyKey: key };
};

/** The key named another request (another operation, other input, or another user). */
export const idempotencyKeyReused = () =>
  new AppError("BUSINESS_RULE", {
    reason: "idempotency.key_reused",
    message: "This Idempotency-Key was already used for another request; send a new key for a new posting",
  });
