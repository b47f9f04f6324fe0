import { createHash } from "node:crypto";
import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import pg from "pg";
import { type Credential, credentialScope } from "./credential-scope";
import { DB_ROLES, type DbRole } from "./roles";
import { scopeStatement } from "./tenant-scope";
import { runHooks } from "./tx-hooks";

/**
 * `withTenant`'s twin on the driver, for the write paths that must be as fast as the
 * work needs — a posting is one statement (balance, entry, document, outbox event, audit entry), so
 * its transaction is one round trip: the scoping statement and the posting in one pipeline.
 * The wall is the same as `withTenant`'s, built by the same code (tenant-scope.ts): the statements
 * run as `hisob_tenant` with `app.tenant_id` set (both transaction-local), so row-level security
 * filters them, and a cached caller is confirmed by the scoping statement. Callbacks registered
 * with `afterCommit` run once the transaction committed, never after a rollback (the outbox kicks
 * its dispatcher there). Values travel as parameters (`$1…`, see `SqlParams`); the only literals are
 * the scoping statement's, validated there.
 */
export type QueryOptions = {
  /**
   * On PostgreSQL a named prepared statement of the connection (its name derived from the text), so
   * later runs skip parsing, and after five PostgreSQL may plan it once for all; PGlite ignores it.
   * For a statement run often with a fixed text.
   */
  prepared?: boolean;
  /**
   * The statement completes the transaction's work: the transaction commits right after it — on
   * PostgreSQL in the same round trip, with no BEGIN or COMMIT sent, when it is the transaction's
   * first statement — and its after-commit callbacks run. A statement after it runs in a new transaction with the same scope (on PGlite,
   * which commits when `fn` returns, in the same one), so only reads belong there: explaining why
   * the statement changed nothing, say. A posting is then one round trip.
   */
  commit?: boolean;
  /**
   * Each row as an array of its columns in the select list's order instead of an object: a page of
   * hundreds of wide rows skips building an object per row.
   */
  rowMode?: "array";
};

export type RawTenantTx = {
  readonly tenantId: string;
  /** One statement with parameters (see QueryOptions); its rows. */
  query<T>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /** `callback` runs once the work so far committed (not on rollback); a throwing one is ignored. */
  afterCommit(callback: () => void): void;
};

export type RawTransactions = {
  /**
   * A transaction that sees only `tenantId`'s rows: commits when `fn` resolves, rolls back when it
   * throws. `readOnly` (the typed read paths: list pages, reports): the database refuses any write
   * in it, so a statement marked `commit` may take COMMIT into its round trip even while a cached
   * caller awaits confirmation — a refused caller then only loses a read nobody sees.
   */
  withTenant<T>(
    tenantId: string,
    fn: (tx: RawTenantTx) => Promise<T>,
    /**
     * `signal`: the request's; when it aborts no further statement starts and, on PostgreSQL
     * connected directly, the running one is cancelled (docs/decisions/0088-report-filters-and-comparison.md).
     */
    options?: { readOnly?: boolean; signal?: AbortSignal | undefined },
  ): Promise<T>;
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
  /**
   * A transaction in the tenant `credential` belongs to (the OpenID provider's token endpoint,
   * revocation, introspection: the tenant is not known before): its opening looks the tenant up as
   * `hisob_system`, sets it and switches to `hisob_tenant` (credential-scope.ts), then everything is
   * as in `withTenant` — nothing visible when no such credential exists. `tx.tenantId` is "".
   */
  withCredentialTenant<T>(credential: Credential, fn: (tx: RawTenantTx) => Promise<T>): Promise<T>;
  /**
   * One statement outside any transaction, as the connection's own role: only for a lookup that a
   * SECURITY DEFINER function narrows itself (resolving the caller, which happens before any tenant
   * is known). Prepared on PostgreSQL; its text must be fixed, the values parameters.
   */
  once<T>(text: string, params: readonly unknown[]): Promise<T[]>;
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

type Mode = { lazyCommit: boolean; readOnly: boolean; signal?: AbortSignal | undefined };
/**
 * How a transaction is scoped, built afresh for each transaction opened (a later one no longer
 * confirms a caller the first confirmed): its statements after BEGIN, and what to do with the last
 * one's first row (confirm a cached caller, tenant-scope.ts).
 */
type Scope = { statements: string[]; checksCaller: boolean; accept(row: unknown): void };
type ScopedRun = <T>(
  tenantId: string,
  scope: (settings: readonly string[]) => Scope,
  fn: (tx: RawTenantTx) => Promise<T>,
  mode: Mode,
) => Promise<T>;

const roleScope =
  (role: DbRole, tenantId: string | null) =>
  (settings: readonly string[]): Scope => {
    const scope = scopeStatement(role, tenantId, settings);
    return { statements: [scope.text], checksCaller: scope.checksCaller, accept: scope.accept as never };
  };
const plain: Mode = { lazyCommit: false, readOnly: false };

const transactions = (run: ScopedRun, once: RawTransactions["once"]): RawTransactions => ({
  withTenant: (tenantId, fn, options) =>
    run(tenantId, roleScope(DB_ROLES.tenant, tenantId), fn, {
      ...plain,
      readOnly: options?.readOnly === true,
      signal: options?.signal,
    }),
  withSystem: (fn, options) =>
    run("", roleScope(DB_ROLES.system, null), fn, { ...plain, lazyCommit: options?.lazyCommit === true }),
  withPlatform: (fn) => run("", roleScope(DB_ROLES.platform, null), fn, plain),
  // The hash is validated (credentialScope) when the runner builds the scope, before anything is sent.
  withCredentialTenant: (credential, fn) =>
    run(
      "",
      (settings) => ({
        statements: credentialScope(credential, settings),
        checksCaller: false,
        accept: () => {},
      }),
      fn,
      plain,
    ),
  once,
});

/**
 * The settings a transaction starts with, set by its scoping statement (as SET TRANSACTION READ ONLY
 * and SET LOCAL would, without a statement each): turning `transaction_read_only` on is allowed at
 * any point of a transaction, and from then on it refuses writes.
 */
const settings = (mode: Mode): string[] => [
  ...(mode.readOnly ? ["set_config('transaction_read_only', 'on', true)"] : []),
  ...(mode.lazyCommit ? ["set_config('synchronous_commit', 'off', true)"] : []),
];

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
};
type ResultSet = { rows: unknown[]; fields: Array<{ name: string }> };
/**
 * A result's first row as an object. `rowMode` applies to every statement of a pipeline, the scope's
 * too, whose row is heard by name (the cached caller's confirmation).
 */
const firstRowObject = (result: ResultSet | undefined): Row | undefined => {
  const row = result?.rows[0];
  if (!Array.isArray(row)) return row as Row | undefined;
  return Object.fromEntries(result?.fields.map((field, i) => [field.name, row[i]]) ?? []);
};
const BaseQuery = pg.Query as unknown as new (config: {
  name?: string;
  text: string;
  values: unknown[];
  rowMode?: "array";
  queryMode: "extended";
  callback: (error: Error | null, results: ResultSet | ResultSet[]) => void;
}) => { prepare(connection: ProtocolConnection): void };

/**
 * `pg`'s own extended-protocol query with statements sent ahead of it in the same pipeline: Parse,
 * Bind, Describe and Execute for each of `lead` (no parameters), then the query's own messages and
 * its Sync — one write, one round trip. The server runs them in order (each is parsed, so planned and
 * checked for row-level security, after the previous one ran), as one transaction up to the Sync
 * unless a BEGIN among them keeps it open; the first error skips the rest. Its results are those of
 * every statement, in order. `prepare` is an internal of `pg`'s Query (pg 8.16, the protocol messages
 * it sends); the PostgreSQL runs of the posting and raw-transaction tests send every driver
 * transaction through it, so a `pg` upgrade that changes it fails those tests.
 */
class PipelinedQuery extends BaseQuery {
  constructor(
    private readonly lead: readonly string[],
    config: ConstructorParameters<typeof BaseQuery>[0],
    /** Statements sent after the query's own, before its Sync (COMMIT): skipped if it fails. */
    private readonly trail: readonly string[] = [],
  ) {
    super(config);
  }
  private send(connection: ProtocolConnection, texts: readonly string[]): void {
    for (const text of texts) {
      connection.parse({ text, name: "", types: [] });
      connection.bind({ portal: "", statement: "", values: [] });
      connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "", rows: 0 });
    }
  }
  override prepare(connection: ProtocolConnection): void {
    this.send(connection, this.lead);
    super.prepare(connection);
  }
  /** `pg`'s Execute of the query and its Sync (rows are never paged here): the trail goes between them. */
  _getRows(connection: ProtocolConnection & { sync(): void }, rows: number | undefined): void {
    connection.execute({ portal: "", rows: rows ?? 0 });
    this.send(connection, this.trail);
    connection.sync();
  }
}

const pipelined = (
  client: pg.PoolClient,
  lead: readonly string[],
  text: string,
  values: unknown[],
  name: string | undefined,
  rowMode?: "array",
  trail: readonly string[] = [],
) =>
  new Promise<ResultSet[]>((resolve, reject) => {
    const query = new PipelinedQuery(
      lead,
      {
        ...(name ? { name } : {}),
        ...(rowMode ? { rowMode } : {}),
        text,
        values,
        queryMode: "extended",
        callback: (error, results) => {
          if (error) reject(error);
          else resolve(Array.isArray(results) ? results : [results]);
        },
      },
      trail,
    );
    (client.query as unknown as (submittable: unknown) => unknown)(query);
  });

/** A prepared statement's name: the same text always gets the same name (per connection, in PostgreSQL). */
const statementNames = new Map<string, string>();
const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (!name) {
    name = `hisob_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    // Only fixed texts are prepared (a few per hot path); the bound is a guard, not a cache policy.
    if (statementNames.size < 1_000) statementNames.set(text, name);
  }
  return name;
};

/**
 * On PostgreSQL the transaction's opening — the scoping statement (which confirms a cached caller
 * and sets the transaction's settings) — travels in one pipeline with its first statement, with
 * parameters. A first statement marked `commit`, when nothing has to be checked before it commits
 * (no cached caller to confirm, or a read-only transaction), is the whole transaction: the pipeline's
 * own, committed at its Sync, so a posting is ONE round trip of two statements. Otherwise a BEGIN
 * leads the pipeline, the scope's row is checked before anything else is sent, and a refused caller
 * rolls back what the first statement did.
 */
export const postgresRawTransactions = (
  pool: pg.Pool,
  onQuery?: (sql: string) => void,
  /**
   * False behind a transaction-pooling PgBouncer (before 1.21): a named statement prepared on one
   * server connection is unknown on the next, so every statement goes unnamed.
   */
  namedStatements = true,
  /** Where the cancel of a request gone away is asked: not this pool (cancel-backend.ts). */
  cancelBackend: (pid: number) => Promise<boolean> = (pid) =>
    pool.query("SELECT pg_cancel_backend($1)", [pid]).then(
      () => true,
      () => false,
    ),
): RawTransactions =>
  transactions(
    async (tenantId, scopeOf, fn, mode) => {
      // Scoping is checked (a tenant UUID, a credential hash) before a connection is taken.
      let scope: Scope | undefined = scopeOf(settings(mode));
      const hooks: Array<() => void> = [];
      const { signal } = mode;
      signal?.throwIfAborted();
      const client = await pool.connect();
      // The request went away: its running statement is cancelled (the key is the backend's pid when
      // connected directly; behind PgBouncer it is the pooler's own, so there only no further
      // statement starts). The ask goes over a connection of its own and is awaited before the
      // connection is released; one whose cancel was not confirmed is closed rather than released, so
      // a late cancel never reaches its next user.
      let cancelling: Promise<boolean> | undefined;
      const processID = (client as unknown as { processID: number | null }).processID;
      const cancel = () => {
        if (processID) cancelling = cancelBackend(processID);
      };
      if (signal && namedStatements && processID) signal.addEventListener("abort", cancel, { once: true });
      // A connection that failed mid-transaction is not handed to the next request.
      let broken: Error | undefined;
      let open = false;
      const commit = async () => {
        open = false;
        await client.query("COMMIT").catch((commitError: Error) => {
          // A statement error (a deferred constraint) ended the transaction; anything else, the connection.
          if (!("code" in commitError)) broken = commitError;
          throw commitError;
        });
        runHooks(hooks.splice(0));
      };
      try {
        let result: Awaited<ReturnType<typeof fn>>;
        try {
          result = await fn({
            tenantId,
            query: async <T>(text: string, params: readonly unknown[] = [], options?: QueryOptions) => {
              signal?.throwIfAborted();
              const name = options?.prepared && namedStatements ? statementName(text) : undefined;
              let rows: T[];
              if (open && options?.commit) {
                // The transaction's last statement and its COMMIT in one pipeline (one round trip): a
                // failing statement skips the COMMIT and leaves the transaction open, rolled back below.
                onQuery?.(text);
                onQuery?.("COMMIT");
                const results = await pipelined(client, [], text, [...params], name, options.rowMode, [
                  "COMMIT",
                ]).catch((error: Error) => {
                  // A statement error (a deferred constraint at COMMIT) is the work's; anything else, the connection's.
                  if (!("code" in error)) broken = error;
                  throw error;
                });
                open = false;
                runHooks(hooks.splice(0));
                return (results[0]?.rows ?? []) as T[];
              }
              if (open) {
                onQuery?.(text);
                const rowMode = options?.rowMode ? { rowMode: options.rowMode } : {};
                rows = (
                  await client.query({ ...(name ? { name } : {}), ...rowMode, text, values: [...params] })
                ).rows as T[];
              } else {
                const opened: Scope = scope ?? scopeOf(settings(mode));
                scope = undefined;
                // A write waits for the caller's confirmation before it commits; a read need not.
                const completes = options?.commit === true && (mode.readOnly || !opened.checksCaller);
                // The statements of one pipeline up to its Sync are one transaction (PostgreSQL's
                // implicit one: committed at the Sync, rolled back at the first error), so work
                // that is one statement needs no BEGIN and no COMMIT of its own. Otherwise BEGIN
                // keeps the transaction open past the Sync.
                const lead = completes ? opened.statements : ["BEGIN", ...opened.statements];
                open = !completes; // a failed pipeline of an open one leaves it aborted: ROLLBACK below
                for (const statement of opened.statements) onQuery?.(statement);
                onQuery?.(text);
                const results = await pipelined(client, lead, text, [...params], name, options?.rowMode);
                opened.accept(firstRowObject(results[lead.length - 1]));
                rows = (results[lead.length]?.rows ?? []) as T[];
                if (completes) {
                  runHooks(hooks.splice(0));
                  return rows;
                }
              }
              if (options?.commit) await commit();
              return rows;
            },
            afterCommit: (callback) => {
              hooks.push(callback);
            },
          });
        } catch (error) {
          signal?.removeEventListener("abort", cancel);
          await cancelling;
          if (open) {
            await client.query("ROLLBACK").catch((rollbackError: Error) => {
              broken = rollbackError;
            });
          }
          throw signal?.aborted ? signal.reason : error;
        }
        // A transaction that sent no statement never began: nothing to commit.
        if (open) await commit();
        else runHooks(hooks.splice(0));
        return result;
      } finally {
        signal?.removeEventListener("abort", cancel);
        if (cancelling && !(await cancelling))
          broken ??= new Error("the statement's cancel was not confirmed");
        client.release(broken);
      }
    },
    async <T>(text: string, params: readonly unknown[]) => {
      onQuery?.(text);
      const name = namedStatements ? { name: statementName(text) } : {};
      return (await pool.query({ ...name, text, values: [...params] })).rows as T[];
    },
  );

export const pgliteRawTransactions = (pglite: PGlite, onQuery?: (sql: string) => void): RawTransactions =>
  transactions(
    async (tenantId, scopeOf, fn, mode) => {
      const scope = scopeOf(settings(mode));
      const hooks: Array<() => void> = [];
      // PGlite's transaction sends BEGIN and COMMIT/ROLLBACK itself and serialises with Prisma's.
      const result = await pglite.transaction(async (ptx: PGliteTransaction) => {
        for (const statement of scope.statements) onQuery?.(statement);
        // The scope's row is the last result.
        scope.accept(firstRowOfLast(await ptx.exec(scope.statements.join("; "))));
        return fn({
          tenantId,
          query: async <T>(text: string, params: readonly unknown[] = [], options?: QueryOptions) => {
            // The embedded database runs one statement at a time in this process: none starts
            // once the request went away.
            mode.signal?.throwIfAborted();
            onQuery?.(text);
            const rowMode = options?.rowMode ? { rowMode: options.rowMode } : {};
            return (await ptx.query<T>(text, [...params], rowMode)).rows;
          },
          afterCommit: (callback) => {
            hooks.push(callback);
          },
        });
      });
      runHooks(hooks);
      return result;
    },
    async <T>(text: string, params: readonly unknown[]) => {
      onQuery?.(text);
      // Outside a transaction PGlite's query waits for any running one (Prisma's included).
      return (await pglite.query<T>(text, [...params])).rows;
    },
  );
