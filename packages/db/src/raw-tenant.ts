import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import { DB_ROLES, type DbRole } from "./roles";
import { scopeStatement } from "./tenant-scope";
import { runHooks } from "./tx-hooks";

/**
 * `withTenant`'s twin on the driver (issue 16.2), for the write paths that must be as fast as the
 * work needs — a posting is one statement (balance, entry, document, outbox event, audit entry), so
 * its transaction is three round trips: BEGIN with the scoping statement, the posting, COMMIT.
 * The wall is the same as `withTenant`'s, built by the same code (tenant-scope.ts): the statements
 * run as `hisob_tenant` with `app.tenant_id` set (both transaction-local), so row-level security
 * filters them, and a cached caller is confirmed by the scoping statement. Callbacks registered
 * with `afterCommit` run once the transaction committed, never after a rollback (the outbox kicks
 * its dispatcher there). Values travel as parameters (`$1…`, see `SqlParams`); the only literals are
 * the scoping statement's, validated there.
 */
export type RawTenantTx = {
  readonly tenantId: string;
  /** One statement with parameters; its rows. */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** `callback` runs once this transaction committed (not on rollback); a throwing one is ignored. */
  afterCommit(callback: () => void): void;
};

export type RawTransactions = {
  /** A transaction that sees only `tenantId`'s rows: commits when `fn` resolves, rolls back when it throws. */
  withTenant<T>(tenantId: string, fn: (tx: RawTenantTx) => Promise<T>): Promise<T>;
  /**
   * The same as `hisob_system` (the outbox dispatcher's statements); no tenant rows are visible.
   * `lazyCommit`: COMMIT does not wait for the WAL flush (`synchronous_commit = off` for this
   * transaction only) — for bookkeeping whose loss in a crash is harmless (an outbox event marked
   * dispatched is delivered again: delivery is at least once).
   */
  withSystem<T>(fn: (tx: RawTenantTx) => Promise<T>, options?: { lazyCommit?: boolean }): Promise<T>;
};

/** Numbered parameters for one statement: `add(value)` returns its placeholder. */
export type SqlParams = { add(value: unknown): string; readonly values: unknown[] };
export const sqlParams = (): SqlParams => {
  const values: unknown[] = [];
  return {
    values,
    add: (value) => {
      // bigint and Date travel as text (both drivers, one format); the statement casts.
      values.push(
        typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : value,
      );
      return `$${values.length}`;
    },
  };
};

type ScopedRun = <T>(
  role: DbRole,
  tenantId: string | null,
  fn: (tx: RawTenantTx) => Promise<T>,
  lazyCommit: boolean,
) => Promise<T>;

const transactions = (run: ScopedRun): RawTransactions => ({
  withTenant: (tenantId, fn) => run(DB_ROLES.tenant, tenantId, fn, false),
  withSystem: (fn, options) => run(DB_ROLES.system, null, fn, options?.lazyCommit === true),
});

/** The opening statements after BEGIN: the scope (its row is the last result), then any setting. */
const opening = (scopeText: string, lazyCommit: boolean) =>
  lazyCommit ? `SET LOCAL synchronous_commit = off; ${scopeText}` : scopeText;

type Row = Record<string, unknown>;
const firstRowOfLast = (results: unknown): Row | undefined => {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  return (last as { rows?: Row[] } | undefined)?.rows?.[0];
};

export const postgresRawTransactions = (pool: pg.Pool, onQuery?: (sql: string) => void): RawTransactions =>
  transactions(async (role, tenantId, fn, lazyCommit) => {
    const scope = scopeStatement(role, tenantId);
    const hooks: Array<() => void> = [];
    const client = await pool.connect();
    // A connection that failed mid-transaction is not handed to the next request.
    let broken: Error | undefined;
    try {
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        onQuery?.(scope.text);
        // One round trip: BEGIN and the scoping statement as one simple query (literals, validated).
        scope.accept(
          firstRowOfLast(await client.query(`BEGIN; ${opening(scope.text, lazyCommit)}`)) as never,
        );
        result = await fn({
          tenantId: tenantId ?? "",
          query: async <T>(text: string, params: readonly unknown[] = []) => {
            onQuery?.(text);
            return (await client.query({ text, values: [...params] })).rows as T[];
          },
          afterCommit: (callback) => {
            hooks.push(callback);
          },
        });
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      }
      await client.query("COMMIT").catch((commitError: Error) => {
        // A statement error (a deferred constraint) ended the transaction; anything else, the connection.
        if (!("code" in commitError)) broken = commitError;
        throw commitError;
      });
      runHooks(hooks);
      return result;
    } finally {
      client.release(broken);
    }
  });

export const pgliteRawTransactions = (pglite: PGlite, onQuery?: (sql: string) => void): RawTransactions =>
  transactions(async (role, tenantId, fn, lazyCommit) => {
    const scope = scopeStatement(role, tenantId);
    const hooks: Array<() => void> = [];
    // PGlite's transaction sends BEGIN and COMMIT/ROLLBACK itself and serialises with Prisma's.
    const result = await pglite.transaction(async (ptx: PGliteTransaction) => {
      onQuery?.(scope.text);
      scope.accept(firstRowOfLast(await ptx.exec(opening(scope.text, lazyCommit))) as never);
      return fn({
        tenantId: tenantId ?? "",
        query: async <T>(text: string, params: readonly unknown[] = []) => {
          onQuery?.(text);
          return (await ptx.query<T>(text, [...params])).rows;
        },
        afterCommit: (callback) => {
          hooks.push(callback);
        },
      });
    });
    runHooks(hooks);
    return result;
  });
