import { createHash } from "node:crypto";
import { idempotencyKeyReused, type TenantContext } from "@hisob/kernel";
import type { Tx } from "./client";
import type { RawTenantTx } from "./raw-tenant";

/*
 * One posting per intent (docs/decisions/0018-one-posting-per-intent.md). A request that carries an
 * `Idempotency-Key` (ctx.idempotencyKey, from the header, whatever the transport) claims the key in
 * the posting's own transaction before it posts, and stores the posting's answer in that same
 * transaction: the key and the posting commit or roll back together. A repeat of the request — a
 * double click, a retry after a lost answer — finds the key and gets the first answer, posting
 * nothing; a concurrent repeat waits on the key's row until the first commits (then replays) or
 * rolls back (then posts). The same key on another request (operation, input or user) is refused.
 * A key is kept for EXPIRY_HOURS; after that it may name a new request, and the hourly sweep
 * (deleteExpiredIdempotencyKeys) removes it. A key's age is judged by the database's clock, the one
 * that wrote its created_at: an application server whose clock runs ahead or behind neither frees a
 * live key nor keeps an expired one.
 */

export const IDEMPOTENCY_KEY_EXPIRY_HOURS = 24;
/** The age past which a key is expired, as SQL on the database's clock. */
const EXPIRED_BEFORE = `now() - make_interval(hours => ${IDEMPOTENCY_KEY_EXPIRY_HOURS})`;

/** Statements of the caller's transaction, whichever kind it is. */
type Run = <T>(text: string, values: unknown[]) => Promise<T[]>;

const runOnRaw =
  (tx: RawTenantTx): Run =>
  (text, values) =>
    tx.query(text, values);
const runOnPrisma =
  (tx: Tx): Run =>
  <T>(text: string, values: unknown[]) =>
    tx.$queryRawUnsafe<T[]>(text, ...values);

type Stored = { user_id: string; operation: string; request_hash: string; response: unknown };

const withKey = async <T>(
  run: Run,
  ctx: TenantContext,
  operation: string,
  input: unknown,
  post: () => Promise<T>,
): Promise<T> => {
  const key = ctx.idempotencyKey;
  if (!key) return post();
  const hash = createHash("sha256")
    .update(`${operation}\n${JSON.stringify(input)}`)
    .digest("hex");
  // A new key is ours; so is an expired one. Otherwise this waits for the transaction that holds the
  // key (if any) to end, then finds nothing to claim.
  const claimed = await run<{ claimed: boolean }>(
    `INSERT INTO idempotency_keys (tenant_id, key, user_id, operation, request_hash)
     VALUES ($1::uuid, $2, $3::uuid, $4, $5)
     ON CONFLICT (tenant_id, key) DO UPDATE
        SET user_id = EXCLUDED.user_id, operation = EXCLUDED.operation,
            request_hash = EXCLUDED.request_hash, response = NULL, created_at = now()
      WHERE idempotency_keys.created_at < ${EXPIRED_BEFORE}
     RETURNING true AS claimed`,
    [ctx.tenantId, key, ctx.actor.userId, operation, hash],
  );
  if (claimed.length === 0) {
    const [stored] = await run<Stored>(
      `SELECT user_id::text AS user_id, operation, request_hash, response
         FROM idempotency_keys WHERE tenant_id = $1::uuid AND key = $2`,
      [ctx.tenantId, key],
    );
    const same =
      stored?.user_id === ctx.actor.userId && stored.operation === operation && stored.request_hash === hash;
    if (!same || stored.response === null) throw idempotencyKeyReused();
    return stored.response as T;
  }
  const answer = await post();
  await run(`UPDATE idempotency_keys SET response = $3::jsonb WHERE tenant_id = $1::uuid AND key = $2`, [
    ctx.tenantId,
    key,
    JSON.stringify(answer),
  ]);
  return answer;
};

/**
 * `post` at most once per idempotency key, in the driver transaction `tx` (whose statements must not
 * commit on their own: see QueryOptions.commit). Without a key, just `post`.
 */
export const idempotentRaw = <T>(
  tx: RawTenantTx,
  ctx: TenantContext,
  operation: string,
  input: unknown,
  post: () => Promise<T>,
): Promise<T> => withKey(runOnRaw(tx), ctx, operation, input, post);

/** The same in a Prisma transaction (`db.withTenant`). */
export const idempotent = <T>(
  tx: Tx,
  ctx: TenantContext,
  operation: string,
  input: unknown,
  post: () => Promise<T>,
): Promise<T> => withKey(runOnPrisma(tx), ctx, operation, input, post);

/**
 * Deletes every tenant's expired keys (older than IDEMPOTENCY_KEY_EXPIRY_HOURS by the database's
 * clock) in one statement, in the driver transaction of the system role; returns how many went.
 */
export const deleteExpiredIdempotencyKeys = async (run: RawTenantTx): Promise<number> => {
  const rows = await run.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM idempotency_keys WHERE created_at < ${EXPIRED_BEFORE} RETURNING 1)
     SELECT count(*)::int AS deleted FROM gone`,
    [],
  );
  return rows[0]?.deleted ?? 0;
};
