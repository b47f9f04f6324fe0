import { AsyncLocalStorage } from "node:async_hooks";
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

/**
 * The statement that scopes a transaction, handed to the driver instead of sent through Prisma: the
 * connection sends it with the BEGIN in front of the transaction's first statement (one Prisma call
 * less per transaction — its runtime cost is per call). `onRows` hears its result (the caller check).
 */
export type PendingScope = {
  begin: string;
  text: string;
  onRows?: ((rows: unknown[]) => void) | undefined;
  used: boolean;
};
const scopes = new AsyncLocalStorage<PendingScope>();
/** Runs `fn` (a Prisma interactive transaction) so that its BEGIN carries `scope`. */
export const withPendingScope = <T>(scope: PendingScope, fn: () => Promise<T>): Promise<T> =>
  scopes.run(scope, fn);

type QueryConfig = { text: string; values?: unknown[] };
type AnyResult = pg.QueryResult | pg.QueryResult[];
const NOTHING = { command: "BEGIN", rowCount: 0, oid: 0, rows: [], fields: [] } as unknown as pg.QueryResult;

export const deferBegin = (client: pg.PoolClient, onQuery?: (sql: string) => void): void => {
  const send = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => Promise<AnyResult>;
  let pending = false;
  let scope: PendingScope | undefined;
  const patched = (config: unknown, ...rest: unknown[]): unknown => {
    // Only Prisma's adapter calls these connections, always with a config object and a promise.
    if (typeof config !== "object" || config === null || rest.length > 0) return send(config, ...rest);
    const { text, values } = config as QueryConfig;
    const plain = !values || values.length === 0;
    if (plain && text === "BEGIN") {
      pending = true;
      const store = scopes.getStore();
      scope = store && !store.used ? store : undefined;
      if (scope) scope.used = true;
      return Promise.resolve(NOTHING);
    }
    if (!pending) return send(config);
    pending = false;
    if (plain && (text === "COMMIT" || text === "ROLLBACK"))
      return Promise.resolve({ ...NOTHING, command: text });
    const last = (results: AnyResult) => (Array.isArray(results) ? results[results.length - 1] : results);
    if (scope) {
      const { begin, text: scopeText, onRows } = scope;
      scope = undefined;
      onQuery?.(scopeText);
      return send({ text: `${begin}; ${scopeText}` }).then((results) => {
        onRows?.(last(results)?.rows ?? []);
        return send(config);
      });
    }
    if (plain && text.startsWith(SCOPE_STATEMENT_PREFIX)) {
      return send({ ...config, text: `BEGIN; ${text}` }).then(last);
    }
    return send({ text: "BEGIN" }).then(() => send(config));
  };
  client.query = patched as typeof client.query;
};
