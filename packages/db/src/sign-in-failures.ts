import { createHash } from "node:crypto";
import type { AuditWho } from "./audit";

/*
 * Failed sign-ins in the audit log, counted rather than listed (docs/decisions/0001-sign-in-failures-per-network.md):
 * one entry per client network, audit owner (the user's tenant, or the platform for an unknown
 * email), user and window. Its `after` keeps what the first failure wrote (email, reason, the
 * window's bounds) and counts every further one: `failures`, the first distinct `emails`, `lastAt`. The entry's id is derived
 * from that key, so every instance adds to the same entry with one INSERT … ON CONFLICT, and the
 * log grows by at most one row per network, user and window however many guesses arrive. The
 * migration sign_in_failures_counted lets exactly this change through the append-only trigger.
 */

/** Failures of one network (and user) within one such window share an entry. */
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Distinct emails an entry lists; further ones are only counted. */
export const SIGN_IN_FAILURE_EMAILS = 10;
/** Stored lengths: an email as long as one may be (RFC 5321), a user agent enough to recognise it. */
const MAX_EMAIL = 254;
const MAX_USER_AGENT = 256;

/** Why a sign-in failed, as the audit log records it (the caller is told only "invalid credentials"). */
export type SignInFailureReason = "unknown_email" | "wrong_password" | "inactive";

export type SignInFailure = {
  /** The email tried, lower-cased. */
  email: string;
  reason: SignInFailureReason;
  /** The client network (see clientNetwork in @hisob/core): an IPv4 address or an IPv6 /64. */
  network: string;
  at: Date;
};

/** A UUID (version 8: RFC 9562's custom layout) from the entry's key. */
const entryId = (key: string): string => {
  const hex = createHash("sha256").update(key).digest("hex").slice(0, 32).split("");
  hex[12] = "8";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
};

/** The statement (run as the system role) that opens or adds to the entry of this failure's window. */
export const signInFailureEntry = (
  who: AuditWho,
  failure: SignInFailure,
): { text: string; values: unknown[] } => {
  const windowStart =
    Math.floor(failure.at.getTime() / SIGN_IN_FAILURE_WINDOW_MS) * SIGN_IN_FAILURE_WINDOW_MS;
  const from = new Date(windowStart).toISOString();
  const to = new Date(windowStart + SIGN_IN_FAILURE_WINDOW_MS).toISOString();
  const userId = who.actor?.userId ?? null;
  const id = entryId(
    ["sign_in_failed", who.tenantId ?? "platform", userId ?? "", failure.network, from].join("|"),
  );
  const email = failure.email.slice(0, MAX_EMAIL);
  const values = [
    id,
    who.tenantId,
    userId,
    failure.network.slice(0, 64),
    who.client?.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    who.requestId?.slice(0, 128) ?? null,
    email,
    failure.reason,
    failure.at.toISOString(),
    from,
    to,
    SIGN_IN_FAILURE_EMAILS,
  ];
  const text = `INSERT INTO audit_log AS entry (id, tenant_id, user_id, ip, user_agent, request_id, entity, entity_id, action, before, after)
    VALUES ($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, 'session', NULL, 'sign_in_failed', NULL,
      jsonb_build_object(
        'email', $7::text, 'reason', $8::text, 'windowFrom', $10::text, 'windowTo', $11::text,
        'failures', 1, 'emails', jsonb_build_array($7::text), 'lastAt', $9::text))
    ON CONFLICT (id) DO UPDATE SET after = entry.after || jsonb_build_object(
      'failures', (entry.after ->> 'failures')::int + 1,
      'emails', CASE
        WHEN entry.after -> 'emails' @> jsonb_build_array($7::text)
          OR jsonb_array_length(entry.after -> 'emails') >= $12::int THEN entry.after -> 'emails'
        ELSE entry.after -> 'emails' || jsonb_build_array($7::text) END,
      'lastAt', $9::text)`;
  return { text, values };
};
