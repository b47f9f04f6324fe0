import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitForPort } from "./ports";
import { TEST_OWNER_ROLE } from "./test-databases";

const PGBOUNCER = "/usr/sbin/pgbouncer";

/**
 * Debian's PgBouncer on a loopback port in transaction pooling mode, in front of the PostgreSQL at
 * `server` (host:port), as docs/deployment.md configures it: `connectQuery` sets each server
 * connection's session (null: none, to see the server refuse to start without it). Few server
 * connections, so that client connections really share them. PgBouncer refuses to run as root: as
 * root it runs as `postgres`.
 */
export const startPgBouncer = async (
  options: { server?: { host: string; port: number }; connectQuery?: string | null; poolSize?: number } = {},
) => {
  const { host, port: serverPort } = options.server ?? { host: "127.0.0.1", port: 5432 };
  const connectQuery =
    options.connectQuery === undefined ? "SET TimeZone = 'UTC'; SET jit = off" : options.connectQuery;
  const dir = mkdtempSync(path.join(tmpdir(), "hisob-pgbouncer-"));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const quoted = connectQuery === null ? "" : ` connect_query='${connectQuery.replaceAll("'", "''")}'`;
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${host} port=${serverPort}${quoted}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 3}`,
      "max_client_conn = 200",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  // "trust" still needs each user listed (with any password): the tests' owner role and the administrator.
  writeFileSync(path.join(dir, "users.txt"), `"${TEST_OWNER_ROLE}" ""\n"postgres" ""\n`);
  chmodSync(ini, 0o644);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = asRoot
    ? spawn("runuser", ["-u", "postgres", "--", PGBOUNCER, ini], { stdio: "ignore" })
    : spawn(PGBOUNCER, [ini], { stdio: "ignore" });
  await waitForPort(port, child, `pgbouncer (see ${path.join(dir, "pgbouncer.log")})`);
  return {
    port,
    /** The same database's URL through the pooler. */
    via: (url: string) => {
      const pooled = new URL(url);
      pooled.hostname = "127.0.0.1";
      pooled.port = String(port);
      return pooled.toString();
    },
    stop: async () => {
      const exited = child.exitCode === null ? new Promise((resolve) => child.once("exit", resolve)) : null;
      // PgBouncer itself, by its pid file: runuser does not pass a signal on.
      try {
        process.kill(Number(readFileSync(path.join(dir, "pgbouncer.pid"), "utf8")), "SIGTERM");
      } catch {
        child.kill("SIGTERM"); // not running as another user, or already gone
      }
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
