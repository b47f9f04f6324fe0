import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type BackendCanceller, backendCanceller } from "./cancel-backend";
import { PrismaClient, type Tx } from "./client";
import { type DataDirLock, lockDataDir } from "./data-dir-lock";
import { deferBegin, withPendingScope } from "./deferred-begin";
import { connectionError, DatabaseSetupError, describeServer } from "./errors";
import { MIGRATION_LOCK_KEY, type MigrateResult, type MigrationLog, migrate } from "./migrate";
import { PGLITE_EXTENSIONS } from "./pglite-extensions";
import { pgliteRawTransactions, postgresRawTransactions, type RawTransactions } from "./raw-tenant";
import type { CallerRow } from "./resolved-caller";
import { DB_ROLES, type DbRole } from "./roles";
import { connectPostgres, pgliteConnection, type SqlConnection } from "./sql-connection";
import { createSystemQueries, type SystemQueries } from "./system";
import { scopeStatement, UUID } from "./tenant-scope";
import { beginHooks, runHooks } from "./tx-hooks";

export type DbConfig = {
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  /** Folder for embedded data (PGlite lives in `<dataDir>/pglite`). */
  dataDir: string;
  /** An already open PGlite (tests load one from a migrated template). */
  pglite?: PGlite;
  /** Who holds the embedded data, shown to a second process that finds it locked. */
  purpose?: string;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number;
  /** Hears every SQL statement the client sends (tests count them to prove batching). */
  onQuery?: (sql: string) => void;
  /**
   * Hears a PostgreSQL connection lost outside any query (the server restarted, an administrator ended
   * the backend). The pool has already dropped it; the process carries on. Default: a warning on stderr.
   */
  onConnectionLost?: (error: Error) => void;
  /**
   * `databaseUrl` is a PgBouncer in transaction pooling mode (docs/decisions/0030-pgbouncer.md): no named
   * prepared statements and no per-connection startup options (the pooler's `connect_query` sets
   * TimeZone=UTC, checked at start, and jit=off); migrations, which hold a session lock, go to
   * `directUrl`, PostgreSQL itself.
   */
  pooler?: { directUrl: string };
  /**
   * How long a Prisma interactive transaction may run on PostgreSQL (default 15 s). Benchmarks over
   * 1,000,000 rows on a loaded machine raise it; the application keeps the default.
   */
  transactionTimeoutMs?: number;
};

/**
 * How long a request waits for a PostgreSQL connection (a free one of the pool, or a new one) before it
 * fails with 503 rather than hang on a server that does not answer.
 */
const CONNECT_TIMEOUT_MS = 10_000;

export type TxOptions = {
  /**
   * Every statement sees one snapshot (REPEATABLE READ, read only): a report made of several
   * queries then adds up even while postings commit around it.
   */
  snapshot?: boolean;
  /**
   * The request's: when it aborts (the client went away), no further statement starts and, on
   * PostgreSQL, the one running is cancelled (docs/decisions/0088-report-filters-and-comparison.md).
   */
  signal?: AbortSignal | undefined;
};

/**
 * `fn` in a transaction whose running statement is cancelled when `signal` aborts: the backend's pid
 * is read first (the real backend's, behind PgBouncer too), and on abort a connection of the
 * canceller's own pool (never the request pool, whose connections this transaction may be waiting
 * for) asks `pg_cancel_backend` of it; the transaction waits for that ask (2 s at most) before it
 * ends, so a late cancel never reaches the next user of the connection. An error after the abort is
 * the abort's reason.
 */
const cancelledWith =
  <T>(canceller: BackendCanceller, signal: AbortSignal, fn: (tx: Tx) => Promise<T>) =>
  async (tx: Tx): Promise<T> => {
    const [backend] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
    let cancelling: Promise<unknown> | undefined;
    const cancel = () => {
      if (backend) cancelling = canceller.cancel(backend.pid);
    };
    signal.addEventListener("abort", cancel, { once: true });
    try {
      signal.throwIfAborted();
      return await fn(tx);
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      signal.removeEventListener("abort", cancel);
      await cancelling;
    }
  };

export type Db = {
  readonly kind: "pglite" | "postgres";
  /** The one way tenant-owned data is read or written: a transaction that can see only `tenantId`'s rows. */
  withTenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Platform-wide tables (currencies, permissions, OIDC clients and keys); tenant rows stay invisible. */
  withPlatform<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** The named lookups that happen before a tenant is known; nothing else. */
  readonly system: SystemQueries;
  /** `withTenant`/system transactions on the driver for hot write paths (raw-tenant.ts), same wall and after-commit hooks. */
  readonly rawTx: RawTransactions;
  /**
   * Applies pending migrations, then runs `whileLocked` (first-start bootstrap) still holding the
   * migration lock, so instances starting together neither migrate nor bootstrap twice.
   */
  migrate(log?: MigrationLog, whileLocked?: () => Promise<void>): Promise<MigrateResult>;
  /** Throws when the database does not answer (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/** PGlite throws plain objects (e.g. `{ name: "ErrnoError", errno: 54 }`), not Errors. */
const describeOpenError = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object") {
    const { name, errno, code } = error as { name?: unknown; errno?: unknown; code?: unknown };
    return (
      [name, code, errno === undefined ? undefined : `errno ${String(errno)}`].filter(Boolean).join(" ") ||
      "unknown error"
    );
  }
  return String(error);
};

/** Where createDb keeps the embedded database of `dataDir`. */
const embeddedDir = (dataDir: string) => path.join(dataDir, "pglite");

/**
 * Whether `dataDir` already holds an embedded database (PostgreSQL's PG_VERSION file is there), i.e.
 * whether createDb would open one rather than create it. Reads the file system only.
 */
export const embeddedDatabaseExists = (dataDir: string): boolean =>
  existsSync(path.join(embeddedDir(dataDir), "PG_VERSION"));

/** PostgreSQL's shared_buffers inside the embedded database (its default is 128MB). */
const EMBEDDED_SHARED_BUFFERS = "16MB";

/** The names PostgreSQL reports for UTC. */
const UTC_NAMES = new Set(["UTC", "Etc/UTC"]);

/**
 * Behind a pooler every server connection must read timestamps as UTC, as our own connections do
 * (Prisma's adapter sends zone-less UTC): a pooler that leaves the server's zone would shift every time.
 */
const checkPoolerSessions = async (pool: pg.Pool, databaseUrl: string): Promise<void> => {
  const { rows } = await pool.query<{ timezone: string }>("SELECT current_setting('TimeZone') AS timezone");
  const timezone = rows[0]?.timezone ?? "";
  if (!UTC_NAMES.has(timezone)) {
    await pool.end();
    throw new DatabaseSetupError(
      `The connection pooler at ${describeServer(databaseUrl)} gives sessions TimeZone=${timezone}; Hisob needs UTC: ` +
        "set connect_query = 'SET TimeZone = ''UTC''; SET jit = off' on its database in pgbouncer.ini " +
        "(or ALTER DATABASE … SET timezone = 'UTC').",
    );
  }
};

export const createDb = async (config: DbConfig): Promise<Db> => {
  const queryLog = config.onQuery ? { log: [{ emit: "event" as const, level: "query" as const }] } : {};
  let lock: DataDirLock | undefined;
  let pglite: PGlite | undefined;
  let prisma: PrismaClient;
  let openConnection: () => Promise<SqlConnection>;
  let rawTx: RawTransactions;
  let pool: pg.Pool | undefined;
  let canceller: BackendCanceller | undefined;

  if (config.databaseUrl) {
    const databaseUrl = config.databaseUrl;
    // Migrations take a session-level lock: behind a transaction pooler they go to PostgreSQL itself.
    const sessionUrl = config.pooler?.directUrl ?? databaseUrl;
    openConnection = async () => {
      try {
        return await connectPostgres(sessionUrl);
      } catch (error) {
        throw connectionError(sessionUrl, error);
      }
    };
    // Fail fast with a clear message when the server is unreachable.
    await (await openConnection()).close();
    // The adapter sends timestamps as zone-less UTC strings: make every session read them as UTC.
    // No JIT: our statements are short, and JIT switches on by estimated cost, not by time — one
    // estimate gone wrong cost a 3 ms statement page 350 ms of compilation (its lookup had lost its
    // index under row-level security); the reports over 1,000,000 entries measured the same without.
    // PgBouncer refuses startup options: behind it its connect_query sets them (checked below).
    const sessionOptions = config.pooler ? {} : { options: "-c TimeZone=UTC -c jit=off" };
    pool = new pg.Pool({
      connectionString: databaseUrl,
      max: config.poolSize ?? 10,
      ...sessionOptions,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const cancels = backendCanceller({ connectionString: databaseUrl, ...sessionOptions });
    canceller = cancels;
    // Without these listeners a connection the server drops is an unhandled 'error' event, which ends
    // the process. Each client's own listener hears it, idle or checked out (pg-pool listens only while
    // it idles): a query using it fails on its own, and the pool discards it (idle: at once; checked
    // out: on release, as it is no longer queryable). The pool repeats an idle one's error: heard above.
    const lost =
      config.onConnectionLost ??
      ((error: Error) => console.warn(`hisob: a database connection was lost: ${error.message}`));
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", lost);
      deferBegin(client, config.onQuery);
    });
    rawTx = postgresRawTransactions(pool, config.onQuery, !config.pooler, cancels.cancel);
    if (config.pooler) await checkPoolerSessions(pool, databaseUrl);
    prisma = new PrismaClient({
      // The pool is ours (so its connections defer BEGIN) and the adapter ends it on $disconnect.
      adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0], {
        disposeExternalPool: true,
      }),
      transactionOptions: { maxWait: 5_000, timeout: config.transactionTimeoutMs ?? 15_000 },
      ...queryLog,
    });
  } else {
    if (config.pglite) {
      pglite = config.pglite;
    } else {
      lock = await lockDataDir(config.dataDir, config.purpose ?? "a Hisob process");
      try {
        pglite = new PGlite(embeddedDir(config.dataDir), {
          extensions: PGLITE_EXTENSIONS,
          // PostgreSQL's 128 MB of shared buffers live in the WebAssembly memory, which never
          // shrinks; the files are in the OS page cache anyway (see README, "Memory").
          startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
        });
        await pglite.waitReady;
      } catch (error) {
        await lock.release();
        throw new DatabaseSetupError(
          `Cannot open the embedded database in ${config.dataDir}: ${describeOpenError(error)}`,
          { cause: error },
        );
      }
    }
    const embedded = pglite;
    openConnection = async () => pgliteConnection(embedded);
    rawTx = pgliteRawTransactions(embedded, config.onQuery);
    prisma = new PrismaClient({
      adapter: new PrismaPGlite(embedded),
      // One connection serialises every transaction: allow a queue to form rather than time out.
      transactionOptions: { maxWait: 30_000, timeout: 60_000 },
      ...queryLog,
    });
  }
  if (config.onQuery) {
    const onQuery = config.onQuery;
    (prisma as unknown as { $on(event: "query", listener: (event: { query: string }) => void): void }).$on(
      "query",
      (event) => onQuery(event.query),
    );
  }

  /** A transaction as `role`, optionally scoped to a tenant; after-commit hooks run once it commits. */
  const runAs = async <T>(
    role: DbRole,
    tenantId: string | null,
    fn: (tx: Tx) => Promise<T>,
    options: TxOptions = {},
  ): Promise<T> => {
    let hooks: Array<() => void> = [];
    options.signal?.throwIfAborted();
    if (canceller && options.signal) fn = cancelledWith(canceller, options.signal, fn);
    // The scoping statement (tenant-scope.ts), written with validated literals so that on
    // PostgreSQL it can travel with the BEGIN in one round trip (deferred-begin.ts).
    const scoped = scopeStatement(role, tenantId);
    const statement = scoped.text;
    const check = scoped.checksCaller;
    const acceptRow = scoped.accept;
    let result: T;
    if (pool) {
      // PostgreSQL: the connection sends the scoping statement with the BEGIN, ahead of the
      // transaction's first statement, without a Prisma call of its own (deferred-begin.ts).
      // A changed caller fails the first statement; Prisma's adapter wraps that error, so the
      // original (CallerChangedError) is kept here and rethrown.
      let refused: unknown;
      try {
        result = await withPendingScope(
          {
            begin: options.snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN",
            text: statement,
            onRows: check
              ? (rows) => {
                  try {
                    acceptRow(rows[0] as CallerRow | undefined);
                  } catch (error) {
                    refused = error;
                    throw error;
                  }
                }
              : undefined,
            used: false,
          },
          () =>
            prisma.$transaction(async (tx) => {
              hooks = beginHooks(tx);
              return fn(tx);
            }),
        );
      } catch (error) {
        throw refused ?? error;
      }
    } else {
      result = await prisma.$transaction(async (tx) => {
        hooks = beginHooks(tx);
        if (options.snapshot)
          await tx.$executeRaw`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`;
        // Both settings are transaction-local and vanish at commit/rollback.
        const [row] = await tx.$queryRawUnsafe<Array<Partial<CallerRow> & { scoped: unknown }>>(statement);
        acceptRow(row);
        return fn(tx);
      });
    }
    runHooks(hooks);
    return result;
  };

  const db: Db = {
    kind: config.databaseUrl ? "postgres" : "pglite",
    withTenant: (tenantId, fn, options) => {
      if (!UUID.test(tenantId)) throw new Error(`withTenant needs a tenant UUID, got "${tenantId}"`);
      return runAs(DB_ROLES.tenant, tenantId, fn, options);
    },
    withPlatform: (fn) => runAs(DB_ROLES.platform, null, fn),
    rawTx,
    system: createSystemQueries((fn) => runAs(DB_ROLES.system, null, fn), rawTx),
    migrate: async (log, whileLocked) => {
      const connection = await openConnection();
      try {
        // Advisory locks nest per session: migrate() takes and releases the same lock inside.
        await connection.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        const result = await migrate(connection, { log });
        if (whileLocked) await whileLocked();
        return result;
      } finally {
        await connection.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        await connection.close();
      }
    },
    // On the driver, not Prisma: a readiness probe must not be what loads Prisma's query compiler
    // into an idle server (see README, "Memory").
    ping: async () => {
      if (pool) await pool.query("SELECT 1");
      else await pglite?.query("SELECT 1");
    },
    close: async () => {
      await prisma.$disconnect();
      await canceller?.end();
      // A PGlite handed in by the caller stays open; one we opened is closed cleanly (flushes to disk).
      if (pglite && !config.pglite) await pglite.close();
      await lock?.release();
    },
  };
  return db;
};
