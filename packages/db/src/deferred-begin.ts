import type pg from "pg";

/**
 * Saves a round trip per transaction on PostgreSQL: Prisma's pg adapter opens every interactive
 * transaction with its own `BEGIN`, and every transaction of ours then sends the statement that sets
 * its tenant and role (create-db.ts). On the pool's connections this holds `BEGIN` back and sends it
 * together with that statement as one simple-protocol query, `BEGIN; SELECT set_config(…)` — the
 * statement is then written with literals (validated values only) for exactly this reason. A
 * transaction that starts with any other statement gets its `BEGIN` first, as before; one that ends
 * before any statement never reaches the server at all.
 */
export const SCOPE_STATEMENT_PREFIX = "/* hisob:scope */ ";

type QueryConfig = { text: string; values?: unknown[] };
type AnyResult = pg.QueryResult | pg.QueryResult[];
const NOTHING = { command: "BEGIN", rowCount: 0, oid: 0, rows: [], fields: [] } as unknown as pg.QueryResult;

export const deferBegin = (client: pg.PoolClient): void => {
  const send = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => Promise<AnyResult>;
  let pending = false;
  const patched = (config: unknown, ...rest: unknown[]): unknown => {
    // Only Prisma's adapter calls these connections, always with a config object and a promise.
    if (typeof config !== "object" || config === null || rest.length > 0) return send(config, ...rest);
    const { text, values } = config as QueryConfig;
    const plain = !values || values.length === 0;
    if (plain && text === "BEGIN") {
      pending = true;
      return Promise.resolve(NOTHING);
    }
    if (!pending) return send(config);
    pending = false;
    if (plain && (text === "COMMIT" || text === "ROLLBACK"))
      return Promise.resolve({ ...NOTHING, command: text });
    if (plain && text.startsWith(SCOPE_STATEMENT_PREFIX)) {
      return send({ ...config, text: `BEGIN; ${text}` }).then((results) =>
        Array.isArray(results) ? results[results.length - 1] : results,
      );
    }
    return send({ text: "BEGIN" }).then(() => send(config));
  };
  client.query = patched as typeof client.query;
};
