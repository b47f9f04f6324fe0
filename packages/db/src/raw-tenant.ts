import { createHash } from "node:crypto";
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import pg from "pg";
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
  /**
   * One statement with parameters; its rows. `prepared`: for a long statement run often with a fixed
   * text (a report's). On PostgreSQL it is a named prepared statement of the connection (its name
   * derived from the text), so later runs skip parsing, and after five PostgreSQL may plan it once for
   * all; PGlite ignores it.
   */
  query<T>(text: string, params?: readonly unknown[], options?: { prepared?: boolean }): Promise<T[]>;
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
  /**
   * The same as `hisob_platform` (`withPlatform`'s role: permissions, OIDC keys and clients; no tenant
   * rows): the start-up checks, so a server that has served no request has not loaded Prisma.
   */
  withPlatform<T>(fn: (tx: RawTenantTx) => Promise<T>): Promise<T>;
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
  withPlatform: (fn) => run(DB_ROLES.platform, null, fn, false),
});

/** The opening statements after BEGIN: the scope (its row is the last result), then any setting. */
const opening = (scopeText: string, lazyCommit: boolean) =>
  lazyCommit ? `SET LOCAL synchronous_commit = off; ${scopeText}` : scopeText;

type Row = Record<string, unknown>;
const firstRowOfLast = (results: unknown): Row | undefined => {
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  return (last as { rows?: Row[] } | undefined)?.rows?.[0];
};

/** The protocol messages `pg`'s Query sends for a statement; used to send more statements ahead of it. */
type ProtocolConnection = {
  parse(message: { text: string; name: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  describe(message: { type: "P"; name: string }): void;
  execute(message: { portal: string; rows: number }): void;
  sync(): void;
};
type ResultSet = { rows: unknown[] };
const BaseQuery = pg.Query as unknown as new (config: {
  name?: string;
  text: string;
  values: unknown[];
  queryMode: "extended";
  callback: (error: Error | null, results: ResultSet | ResultSet[]) => void;
}) => {
  prepare(connection: ProtocolConnection): void;
  _getRows(connection: ProtocolConnection, rows: number | undefined): void;
};

/** Parse, Bind, Describe and Execute of a statement without parameters (unnamed: parsed each time). */
const sendUnnamed = (connection: ProtocolConnection, text: string) => {
  connection.parse({ text, name: "", types: [] });
  connection.bind({ portal: "", statement: "", values: [] });
  connection.describe({ type: "P", name: "" });
  connection.execute({ portal: "", rows: 0 });
};

/**
 * `pg`'s own extended-protocol query with statements sent ahead of it and after it in the same
 * pipeline: Parse, Bind, Describe and Execute for each of `lead` (no parameters), then the query's
 * own messages, then each of `trail` (no parameters: a `COMMIT`) and one Sync — one write, one round
 * trip. The server runs them in order (each is parsed, so planned and checked for row-level
 * security, after the previous one ran); the first error skips the rest. Its results are those of
 * every statement, in order. `prepare` and `_getRows` are internals of `pg`'s Query (pg 8.16, the
 * protocol messages it sends; `_getRows` sends the Execute and the Sync); the PostgreSQL runs of the
 * posting, raw-transaction and OIDC tests send every driver transaction through it, so a `pg` upgrade
 * that changes them fails them.
 */
class PipelinedQuery extends BaseQuery {
  constructor(
    private readonly lead: readonly string[],
    private readonly trail: readonly string[],
    config: ConstructorParameters<typeof BaseQuery>[0],
  ) {
    super(config);
  }
  override prepare(connection: ProtocolConnection): void {
    for (const text of this.lead) sendUnnamed(connection, text);
    super.prepare(connection);
  }
  override _getRows(connection: ProtocolConnection, rows: number | undefined): void {
    if (this.trail.length === 0 || rows) {
      super._getRows(connection, rows);
      return;
    }
    // What pg sends for a statement read whole (unnamed portal, all rows), then the trail, then Sync.
    connection.execute({ portal: "", rows: 0 });
    for (const text of this.trail) sendUnnamed(connection, text);
    connection.sync();
  }
}

export const pipelined = (
  client: pg.PoolClient,
  lead: readonly string[],
  text: string,
  values: unknown[],
  name: string | undefined,
  trail: readonly string[] = [],
) =>
  new Promise<ResultSet[]>((resolve, reject) => {
    const query = new PipelinedQuery(lead, trail, {
      ...(name ? { name } : {}),
      text,
      values,
      queryMode: "extended",
      callback: (error, results) => {
        if (error) reject(error);
        else resolve(Array.isArray(results) ? results : [results]);
      },
    });
    (client.query as unknown as (submittable: unknown) => unknown)(query);
  });

/** A prepared statement's name: the same text always gets the same name (per connection, in PostgreSQL). */
const statementNames = new Map<string, string>();
export const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (!name) {
    name = `hisob_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    // Only fixed texts are prepared (a few per hot path); the bound is a guard, not a cache policy.
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  return name;
};

/**
 * On PostgreSQL the transaction's opening — BEGIN, the scoping statement (which confirms a cached
 * caller) — travels in one pipeline with its first statement, with parameters: a posting is two
 * round trips, that pipeline and COMMIT. The scope's row is checked before anything else is sent;
 * a refused caller rolls back what the first statement did.
 */
export const postgresRawTransactions = (pool: pg.Pool, onQuery?: (sql: string) => void): RawTransactions =>
  transactions(async (role, tenantId, fn, lazyCommit) => {
    const scope = scopeStatement(role, tenantId);
    const lead = ["BEGIN", ...(lazyCommit ? ["SET LOCAL synchronous_commit = off"] : []), scope.text];
    const hooks: Array<() => void> = [];
    const client = await pool.connect();
    // A connection that failed mid-transaction is not handed to the next request.
    let broken: Error | undefined;
    let begun = false;
    try {
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          tenantId: tenantId ?? "",
          query: async <T>(
            text: string,
            params: readonly unknown[] = [],
            options?: { prepared?: boolean },
          ) => {
            const name = options?.prepared ? statementName(text) : undefined;
            if (begun) {
              onQuery?.(text);
              return (await client.query({ ...(name ? { name } : {}), text, values: [...params] }))
                .rows as T[];
            }
            begun = true;
            onQuery?.(scope.text);
            onQuery?.(text);
            const results = await pipelined(client, lead, text, [...params], name);
            scope.accept(results[lead.length - 1]?.rows[0] as never);
            return (results[results.length - 1]?.rows ?? []) as T[];
          },
          afterCommit: (callback) => {
            hooks.push(callback);
          },
        });
      } catch (error) {
        if (begun) {
          await client.query("ROLLBACK").catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        }
        throw error;
      }
      // A transaction that sent no statement never began: nothing to commit.
      if (begun) {
        await client.query("COMMIT").catch((commitError: Error) => {
          // A statement error (a deferred constraint) ended the transaction; anything else, the connection.
          if (!("code" in commitError)) broken = commitError;
          throw commitError;
        });
      }
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
