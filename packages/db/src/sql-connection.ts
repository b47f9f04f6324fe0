import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/**
 * One raw database connection, used where Prisma cannot help: the migration runner (which
 * needs one session for its advisory lock and the simple query protocol for multi-statement
 * files) and test-database setup.
 */
export type SqlConnection = {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script as one simple-protocol query (keeps `$$` bodies intact). */
  exec(script: string): Promise<void>;
  close(): Promise<void>;
};

export const pgliteConnection = (pglite: PGlite): SqlConnection => ({
  query: async <T>(sql: string, params: unknown[] = []) => (await pglite.query<T>(sql, params)).rows,
  exec: async (script) => {
    await pglite.exec(script);
  },
  // The PGlite instance belongs to the caller.
  close: async () => {},
});

export const connectPostgres = async (connectionString: string): Promise<SqlConnection> => {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
  // An idle connection that the server drops must not crash the process.
  client.on("error", () => {});
  await client.connect();
  return {
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
    exec: async (script) => {
      await client.query(script);
    },
    close: () => client.end(),
  };
};
