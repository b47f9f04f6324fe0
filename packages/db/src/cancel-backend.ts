import pg from "pg";

/** How long asking PostgreSQL to cancel a statement may take (connecting, then the ask itself). */
const CANCEL_TIMEOUT_MS = 2_000;

/**
 * Asks `pg_cancel_backend` over a tiny pool of its own (docs/decisions/0088-report-filters-and-comparison.md):
 * on the request pool the ask would wait for a free connection while its transaction holds one, so
 * under load (or with a pool of one) the cancel would come only after the statement it cancels.
 * `cancel` resolves true once PostgreSQL took the ask, false when it failed or took longer than 2 s.
 */
export type BackendCanceller = {
  cancel(pid: number): Promise<boolean>;
  end(): Promise<void>;
};

export const backendCanceller = (config: pg.PoolConfig): BackendCanceller => {
  const pool = new pg.Pool({
    ...config,
    max: 2,
    idleTimeoutMillis: 5_000,
    connectionTimeoutMillis: CANCEL_TIMEOUT_MS,
    query_timeout: CANCEL_TIMEOUT_MS,
  });
  pool.on("error", () => {});
  return {
    cancel: (pid) =>
      pool.query("SELECT pg_cancel_backend($1)", [pid]).then(
        () => true,
        () => false,
      ),
    end: () => pool.end(),
  };
};
