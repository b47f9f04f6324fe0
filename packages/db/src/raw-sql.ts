import type { PGlite, Transaction as PGliteTransaction } from "@electric-sql/pglite";
import type pg from "pg";
import { type Credential, credentialScope } from "./credential-scope";
import { pipelined, statementName } from "./raw-tenant";

/**
 * The OpenID provider's bearer-token check without the ORM (issue 16.2): one read in the tenant a
 * credential belongs to, as ONE round trip and no explicit transaction — on PostgreSQL the tenant
 * lookup, the switch to the tenant's role and the read go as one extended-protocol pipeline (`…, …,
 * <read>`, one Sync: one implicit transaction, so the local settings hold for the read). The tenancy
 * wall is `withTenant`'s: the read runs as `hisob_tenant` with `app.tenant_id` set. Transactions in a
 * credential's tenant (the token endpoint, revocation, introspection) are
 * `db.rawTx.withCredentialTenant` (raw-tenant.ts).
 */
export type RawSql = {
  /**
   * One read in the tenant of `credential`. `text` is a fixed text with parameters `$1…` (on
   * PostgreSQL a prepared statement sent in one pipeline after the scoping statements).
   */
  readAsCredentialTenant<T>(credential: Credential, text: string, params?: unknown[]): Promise<T[]>;
};

export const postgresRawSql = (pool: pg.Pool, onQuery?: (sql: string) => void): RawSql => ({
  readAsCredentialTenant: async <T>(credential: Credential, text: string, params: unknown[] = []) => {
    const lead = credentialScope(credential);
    onQuery?.(text);
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      const results = await pipelined(client, lead, text, params, statementName(text));
      return (results[lead.length]?.rows ?? []) as T[];
    } catch (error) {
      // A statement error leaves the connection usable (the Sync ended the transaction); others not.
      if (!(error instanceof Error && "code" in error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  },
});

export const pgliteRawSql = (pglite: PGlite, onQuery?: (sql: string) => void): RawSql => ({
  readAsCredentialTenant: <T>(credential: Credential, text: string, params: unknown[] = []) => {
    const scope = credentialScope(credential).join("; ");
    onQuery?.(text);
    // PGlite's transaction serialises with Prisma's on its one connection.
    return pglite.transaction(async (ptx: PGliteTransaction) => {
      await ptx.exec(scope);
      return (await ptx.query<T>(text, params)).rows;
    });
  },
});
