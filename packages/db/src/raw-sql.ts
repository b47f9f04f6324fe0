import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import { statementName } from "./raw-tenant";
import { DB_ROLES } from "./roles";

/**
 * Hot paths without the ORM (issue 16.2): the OpenID provider's token endpoint and userinfo speak
 * SQL to the driver directly — `pg` on PostgreSQL, PGlite embedded — while everything else keeps
 * Prisma. The tenancy wall is the same as `withTenant`'s: the statements run as `hisob_tenant` with
 * `app.tenant_id` set, so row-level security filters them; the only thing done as `hisob_system`
 * is the named lookup of the tenant a credential belongs to (the same lookup `db.system` offers).
 *
 * What makes it fast is the round trips, not only the missing ORM: the tenant lookup, the switch to
 * the tenant's role and the request's first read go to the server as one simple-protocol query
 * (`BEGIN; …; …; <first statement>`), the values in it written as literals — so every value that
 * goes there is validated first (a credential hash is 64 hex digits; callers validate the rest).
 */

/** The credentials whose tenant may be looked up before it is known (as `hisob_system`). */
const CREDENTIAL_TENANT = {
  oidcToken: "SELECT tenant_id::text FROM oidc_tokens WHERE token_hash = '%'",
  oidcCode: "SELECT tenant_id::text FROM oidc_authorization_codes WHERE code_hash = '%'",
} as const;
export type CredentialKind = keyof typeof CREDENTIAL_TENANT;
export type Credential = { kind: CredentialKind; hash: string };

const HASH = /^[0-9a-f]{64}$/;

/**
 * Statements that make a transaction see only the tenant that `credential` belongs to (nothing at
 * all when no such credential exists). The tenant is looked up as `hisob_system` in the statement
 * that then sets it and switches to `hisob_tenant` (each statement of a simple query is planned
 * after the previous one ran, so the lookup is planned and checked as the system role).
 */
const scopeToCredential = (credential: Credential): string => {
  if (!HASH.test(credential.hash)) throw new Error("A credential lookup needs a SHA-256 hex hash");
  const lookup = CREDENTIAL_TENANT[credential.kind].replace("%", credential.hash);
  return (
    `SELECT set_config('role', '${DB_ROLES.system}', true); ` +
    `SELECT set_config('app.tenant_id', coalesce((${lookup}), ''), true), ` +
    `set_config('role', '${DB_ROLES.tenant}', true)`
  );
};

/** A transaction scoped to one tenant, spoken to in SQL. */
export type RawTx = {
  /**
   * One statement. Parameters go as `$1…`; a statement without parameters may be sent together
   * with the transaction's opening statements (so it must contain only validated literals).
   */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
};

export type RawSql = {
  /**
   * One read in the tenant of `credential`, as one round trip (one implicit transaction). `text`
   * must have no parameters: it travels with the scoping statements, its literals validated.
   */
  readAsCredentialTenant<T>(credential: Credential, text: string): Promise<T[]>;
  /**
   * A transaction in the tenant of `credential`: commits when `fn` resolves, rolls back when it
   * throws. Its first statement travels with BEGIN and the scoping statements when it has no
   * parameters. No after-commit hooks and no outbox: paths that raise events use `withTenant`.
   */
  withCredentialTenant<T>(credential: Credential, fn: (tx: RawTx) => Promise<T>): Promise<T>;
};

type Results = Array<{ rows: unknown[] }>;
const lastRows = <T>(results: Results | { rows: unknown[] }): T[] =>
  (Array.isArray(results) ? (results[results.length - 1]?.rows ?? []) : results.rows) as T[];

/** The shared part: one pending script prefix, sent with the first parameterless statement. */
const makeTx = (
  prefix: string,
  send: {
    script(text: string): Promise<Results | { rows: unknown[] }>;
    query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
  },
  onQuery?: (sql: string) => void,
) => {
  let pending: string | undefined = prefix;
  const sendHead = (text: string) => send.script(text);
  const tx: RawTx = {
    query: async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
      onQuery?.(text);
      if (pending !== undefined) {
        const head = pending;
        pending = undefined;
        if (params.length === 0) return lastRows<T>(await sendHead(`${head}; ${text}`));
        await sendHead(head);
      }
      return (await send.query(text, params)).rows as T[];
    },
  };
  return {
    tx,
    /** Sends the opening statements if no statement did (so COMMIT has a transaction to end). */
    flush: async () => {
      if (pending !== undefined) {
        const head = pending;
        pending = undefined;
        await sendHead(head);
      }
    },
  };
};

export const postgresRawSql = (pool: pg.Pool, onQuery?: (sql: string) => void): RawSql => {
  /** One transaction on one pooled connection, opened by `prefix` (BEGIN and the scoping statements). */
  const transaction = async <T>(prefix: string, fn: (tx: RawTx) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A connection that failed mid-transaction is not handed to the next request.
    let broken: Error | undefined;
    try {
      const { tx, flush } = makeTx(
        prefix,
        {
          script: (text) => client.query(text) as unknown as Promise<Results>,
          // The hot paths' statements have fixed texts: prepared per connection, parsed once.
          query: (text, params) => client.query({ name: statementName(text), text, values: params }),
        },
        onQuery,
      );
      let result: T;
      try {
        result = await fn(tx);
        await flush();
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
      return result;
    } finally {
      client.release(broken);
    }
  };
  return {
    readAsCredentialTenant: async <T>(credential: Credential, text: string) => {
      onQuery?.(text);
      // A multi-statement simple query is one implicit transaction: the local settings hold for it.
      const results = (await pool.query(`${scopeToCredential(credential)}; ${text}`)) as unknown as Results;
      return lastRows<T>(results);
    },
    withCredentialTenant: (credential, fn) => transaction(`BEGIN; ${scopeToCredential(credential)}`, fn),
  };
};

export const pgliteRawSql = (pglite: PGlite, onQuery?: (sql: string) => void): RawSql => ({
  readAsCredentialTenant: async <T>(credential: Credential, text: string) => {
    onQuery?.(text);
    // exec waits for any open transaction (PGlite has one connection) and is one implicit transaction.
    return lastRows<T>(await pglite.exec(`${scopeToCredential(credential)}; ${text}`));
  },
  withCredentialTenant: <T>(credential: Credential, fn: (tx: RawTx) => Promise<T>) =>
    // PGlite's transaction sends BEGIN and COMMIT/ROLLBACK itself and serialises with Prisma's.
    pglite.transaction(async (ptx: PGliteTransaction) => {
      const { tx, flush } = makeTx(
        scopeToCredential(credential),
        {
          script: (text) => ptx.exec(text),
          query: (text, params) => ptx.query(text, params),
        },
        onQuery,
      );
      const result = await fn(tx);
      await flush();
      return result;
    }),
});
