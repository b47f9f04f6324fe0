import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import { pipelined, statementName } from "./raw-tenant";
import { DB_ROLES } from "./roles";

/**
 * Hot paths without the ORM (issue 16.2): the OpenID provider's token endpoint and userinfo speak
 * SQL to the driver directly — `pg` on PostgreSQL, PGlite embedded — while everything else keeps
 * Prisma. The tenancy wall is the same as `withTenant`'s: the statements run as `hisob_tenant` with
 * `app.tenant_id` set, so row-level security filters them; the only thing done as `hisob_system`
 * is the named lookup of the tenant a credential belongs to (the same lookup `db.system` offers).
 *
 * What makes it fast is the round trips, not only the missing ORM: on PostgreSQL the tenant lookup,
 * the switch to the tenant's role and the request's first statement go to the server as one
 * extended-protocol pipeline (`BEGIN`, …, …, <first statement>, one Sync), and a transaction's last
 * statement may take its COMMIT along (`queryThenCommit`). The scoping statements carry the hash as a
 * literal, validated first (64 hex digits); the request's statements are prepared, values parameters.
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
 * that then sets it and switches to `hisob_tenant` (each statement is planned after the previous one
 * ran, in a simple query as in a pipeline, so the lookup is planned and checked as the system role).
 */
const credentialScope = (credential: Credential): [string, string] => {
  if (!HASH.test(credential.hash)) throw new Error("A credential lookup needs a SHA-256 hex hash");
  const lookup = CREDENTIAL_TENANT[credential.kind].replace("%", credential.hash);
  return [
    `SELECT set_config('role', '${DB_ROLES.system}', true)`,
    `SELECT set_config('app.tenant_id', coalesce((${lookup}), ''), true), ` +
      `set_config('role', '${DB_ROLES.tenant}', true)`,
  ];
};
const scopeToCredential = (credential: Credential): string => credentialScope(credential).join("; ");

/** A transaction scoped to one tenant, spoken to in SQL. */
export type RawTx = {
  /**
   * One statement. Parameters go as `$1…`; a statement without parameters may be sent together
   * with the transaction's opening statements (so it must contain only validated literals).
   */
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
};

/** A `withCredentialTenant` transaction. */
export type CredentialTx = RawTx & {
  /**
   * The transaction's last statement, and COMMIT in the same round trip (one pipeline on
   * PostgreSQL); nothing may be sent after it. When it fails, nothing commits (the server skips the
   * COMMIT; the transaction rolls back) and its error is thrown as `query`'s would be.
   */
  queryThenCommit<T>(text: string, params?: unknown[]): Promise<T[]>;
};

export type RawSql = {
  /**
   * One read in the tenant of `credential`, as one round trip (one implicit transaction). `text` is a
   * fixed text with parameters `$1…` (on PostgreSQL a prepared statement sent in one pipeline after
   * the scoping statements).
   */
  readAsCredentialTenant<T>(credential: Credential, text: string, params?: unknown[]): Promise<T[]>;
  /**
   * A transaction in the tenant of `credential`: commits when `fn` resolves (or with its
   * `queryThenCommit`), rolls back when it throws. Its first statement travels with BEGIN and the
   * scoping statements (PostgreSQL: a pipeline; PGlite: when it has no parameters). No after-commit
   * hooks and no outbox: paths that raise events use `withTenant`.
   */
  withCredentialTenant<T>(credential: Credential, fn: (tx: CredentialTx) => Promise<T>): Promise<T>;
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
  /**
   * A credential's transaction: one pipeline sends BEGIN, the scoping statements and the first
   * statement (prepared: fixed texts only); `queryThenCommit` sends its statement and COMMIT as one
   * more. A grant is then two round trips — the read, the write with COMMIT — and no statement of it
   * is parsed or planned again on the connection.
   */
  const credentialTransaction = async <T>(
    credential: Credential,
    fn: (tx: CredentialTx) => Promise<T>,
  ): Promise<T> => {
    const lead = ["BEGIN", ...credentialScope(credential)];
    const client = await pool.connect();
    // A connection that failed mid-transaction is not handed to the next request.
    let broken: Error | undefined;
    let begun = false;
    let committed = false;
    const send = async <R>(text: string, params: unknown[], commit: boolean): Promise<R[]> => {
      if (committed) throw new Error("The transaction has committed: nothing may be sent after it");
      onQuery?.(text);
      const head = begun ? [] : lead;
      begun = true;
      const results = await pipelined(
        client,
        head,
        text,
        params,
        statementName(text),
        commit ? ["COMMIT"] : [],
      );
      if (commit) committed = true;
      return (results[head.length]?.rows ?? []) as R[];
    };
    try {
      let result: T;
      try {
        result = await fn({
          query: <R>(text: string, params: unknown[] = []) => send<R>(text, params, false),
          queryThenCommit: <R>(text: string, params: unknown[] = []) => send<R>(text, params, true),
        });
      } catch (error) {
        if (begun && !committed) {
          await client.query("ROLLBACK").catch((rollbackError: Error) => {
            broken = rollbackError;
          });
        }
        throw error;
      }
      // A transaction that sent no statement never began; one that committed is over.
      if (begun && !committed) {
        await client.query("COMMIT").catch((commitError: Error) => {
          // A statement error (a deferred constraint) ended the transaction; anything else, the connection.
          if (!("code" in commitError)) broken = commitError;
          throw commitError;
        });
      }
      return result;
    } finally {
      client.release(broken);
    }
  };
  return {
    readAsCredentialTenant: async <T>(credential: Credential, text: string, params: unknown[] = []) => {
      onQuery?.(text);
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        // One pipeline without BEGIN is one implicit transaction (it ends at the Sync): the local
        // settings hold for the read.
        const lead = credentialScope(credential);
        const results = await pipelined(client, lead, text, params, statementName(text), []);
        return (results[lead.length]?.rows ?? []) as T[];
      } catch (error) {
        // A statement error leaves the connection usable (the Sync ended the transaction); others not.
        if (!(error instanceof Error && "code" in error)) broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    withCredentialTenant: credentialTransaction,
  };
};

export const pgliteRawSql = (pglite: PGlite, onQuery?: (sql: string) => void): RawSql => ({
  readAsCredentialTenant: async <T>(credential: Credential, text: string, params: unknown[] = []) => {
    if (params.length === 0) {
      onQuery?.(text);
      // exec waits for any open transaction (PGlite has one connection) and is one implicit transaction.
      return lastRows<T>(await pglite.exec(`${scopeToCredential(credential)}; ${text}`));
    }
    return pglite.transaction(async (ptx: PGliteTransaction) => {
      await ptx.exec(scopeToCredential(credential));
      onQuery?.(text);
      return (await ptx.query<T>(text, params)).rows;
    });
  },
  withCredentialTenant: <T>(credential: Credential, fn: (tx: CredentialTx) => Promise<T>) =>
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
      let committed = false;
      const result = await fn({
        query: <R>(text: string, params?: unknown[]) => {
          if (committed) throw new Error("The transaction has committed: nothing may be sent after it");
          return tx.query<R>(text, params);
        },
        // The transaction commits when this callback resolves (nothing is sent after this statement).
        queryThenCommit: async <R>(text: string, params?: unknown[]) => {
          if (committed) throw new Error("The transaction has committed: nothing may be sent after it");
          const rows = await tx.query<R>(text, params);
          committed = true;
          return rows;
        },
      });
      await flush();
      return result;
    }),
});
