import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connectPostgres, freePort, startPgBouncer, waitForPort } from "@hisob/db/testing";
import { startTcpProxy } from "../testing/tcp-proxy";

/*
 * Hisob as operators run it: several instances of the built server (apps/server/dist/main.mjs) behind
 * nginx with deploy/nginx/hisob.conf, on one PostgreSQL database (reached through a TCP proxy the test
 * can cut, as a restart of PostgreSQL would) and one Redis of the test's own.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER = path.resolve(here, "../../dist/main.mjs");
const NGINX_SITE = path.resolve(here, "../../../../deploy/nginx/hisob.conf");
const ROOT_PACKAGE = path.resolve(here, "../../../../package.json");
export const ADMIN_EMAIL = "admin@resilience.test";
export const ADMIN_PASSWORD = "Resilience-Passw0rd!";

const waitUntil = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
};

const stopChild = async (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
};

/**
 * `npm start`'s command without npm: its environment (the allocator's settings) and node's flags
 * (the young generation's size, --expose-gc). The memory an instance keeps depends on both, so the
 * cluster runs what operators run (deploy/hisob.service and the Containerfile say the same).
 */
const npmStart = (): { env: Record<string, string>; nodeArgs: string[] } => {
  const { scripts } = JSON.parse(readFileSync(ROOT_PACKAGE, "utf8")) as { scripts: { start: string } };
  const words = scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? "")) {
    const [name = "", ...value] = (words.shift() ?? "").split("=");
    env[name] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`npm start is not a node command: ${scripts.start}`);
  return { env, nodeArgs: words.filter((word) => word.startsWith("--")) };
};

export type Instance = { port: number; process: ChildProcess; url: string; inspectorPort: number | null };

export const startCluster = async (options: {
  instances: number;
  adminUrl: string;
  /** The instances reach PostgreSQL through PgBouncer in transaction pooling mode (decision 0030). */
  pgbouncer?: boolean;
  /** Each instance opens the inspector on a loopback port of its own (the soak's heap figures and snapshots). */
  inspect?: boolean;
  /** `node main.mjs` without `npm start`'s allocator settings and flags (to compare; the soak's SOAK_PLAIN_NODE=1). */
  plainNode?: boolean;
}) => {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build:server first`);
  const dir = mkdtempSync(path.join(tmpdir(), "hisob-cluster-"));
  const children: ChildProcess[] = [];

  // A database of its own, dropped at the end.
  const database = `hisob_resilience_${process.pid}`;
  const admin = await connectPostgres(options.adminUrl);
  await admin.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.exec(`CREATE DATABASE ${database}`);
  await admin.close();
  const server = new URL(options.adminUrl);
  const proxy = await startTcpProxy({ host: server.hostname, port: Number(server.port || 5432) });
  const databaseUrl = new URL(options.adminUrl);
  databaseUrl.host = `127.0.0.1:${proxy.port}`;
  databaseUrl.pathname = `/${database}`;
  // PgBouncer sits behind the cuttable proxy's port as PostgreSQL's clients see it; migrations go direct.
  const pgbouncer = options.pgbouncer
    ? await startPgBouncer({ server: { host: "127.0.0.1", port: proxy.port }, poolSize: 10 })
    : null;
  const pooledUrl = pgbouncer ? pgbouncer.via(databaseUrl.toString()) : null;

  const redisPort = await freePort();
  const redis = spawn(
    "redis-server",
    ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  children.push(redis);
  await waitForPort(redisPort, redis, "redis-server");

  const nginxPort = await freePort();
  const base = `http://127.0.0.1:${nginxPort}`;
  const ports = await Promise.all(Array.from({ length: options.instances }, () => freePort()));
  const production = options.plainNode ? { env: {}, nodeArgs: [] } : npmStart();
  const env = (port: number): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    ...production.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: pooledUrl ?? databaseUrl.toString(),
    ...(pooledUrl ? { DATABASE_DIRECT_URL: databaseUrl.toString() } : {}),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    OIDC_CRYPTO_KEY: "resilience-test crypto key, comfortably over 32 chars",
    OIDC_ISSUER_URL: base,
    // nginx is the one proxy: the client is the right-most X-Forwarded-For entry, the address nginx saw.
    // (A list of addresses must not include those clients come from: here they share the loopback.)
    TRUST_PROXY: "1",
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    UPLOADS_STORAGE: "database",
    SHUTDOWN_DRAIN_DELAY_MS: "1500",
    // One client address drives all the load: the budgets are not what is tested here.
    API_RATE_LIMIT: "0",
    GRAPHQL_RATE_LIMIT: "1000000",
    OIDC_RATE_LIMIT_AUTHORIZE: "1000000",
    OIDC_RATE_LIMIT_TOKEN: "1000000",
    LOG_LEVEL: "error",
  });
  const instances: Instance[] = [];
  const start = async (index: number): Promise<number> => {
    const port = ports[index] ?? 0;
    const child = spawn(
      process.execPath,
      // The inspector opens once the instance serves (SIGUSR1 below), on a port the system picks then:
      // one picked earlier could be another instance's port, not yet bound.
      [...production.nodeArgs, ...(options.inspect ? ["--inspect-port=127.0.0.1:0"] : []), SERVER],
      { env: env(port), stdio: ["ignore", "ignore", options.inspect ? "pipe" : "inherit"] },
    );
    children.push(child);
    const instance: Instance = { port, process: child, url: `http://127.0.0.1:${port}`, inspectorPort: null };
    instances[index] = instance;
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      const announced = /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
      if (announced) instance.inspectorPort ??= Number(announced[1]);
      else if (!text.startsWith("For help")) process.stderr.write(text);
    });
    const readyMs = await waitUntil(
      `instance ${index + 1} ready`,
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200,
      60_000,
    );
    if (options.inspect) {
      child.kill("SIGUSR1");
      await waitUntil(
        `instance ${index + 1}'s inspector`,
        async () => instance.inspectorPort !== null,
        10_000,
      );
    }
    return readyMs;
  };
  // The first start migrates and creates the administrator; the others then start together.
  await start(0);
  await Promise.all(ports.slice(1).map((_, i) => start(i + 1)));

  // nginx with the deployment's own site file, on the test's ports.
  const site = readFileSync(NGINX_SITE, "utf8")
    .replace(/listen 80;/, `listen 127.0.0.1:${nginxPort};`)
    .replace(
      /(\s*server 127\.0\.0\.1:300\d[^\n]*\n)+/,
      `\n${ports.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;\n`).join("")}`,
    );
  for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, temp));
  writeFileSync(path.join(dir, "hisob.conf"), site);
  writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log error;`,
      "events { worker_connections 1024; }",
      "http {",
      "  access_log off;",
      ...["body", "proxy", "fastcgi", "uwsgi", "scgi"].map(
        (temp) => `  ${temp === "body" ? "client_body" : temp}_temp_path ${dir}/${temp};`,
      ),
      `  include ${dir}/hisob.conf;`,
      "}",
      "",
    ].join("\n"),
  );
  const nginx = spawn(
    "/usr/sbin/nginx",
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  children.push(nginx);
  await waitForPort(nginxPort, nginx, "nginx");

  /** Resident memory of an instance's process, in MiB (Linux). */
  const rssMiB = (instance: Instance): number => {
    const status = readFileSync(`/proc/${instance.process.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };

  return {
    base,
    instances,
    proxy,
    rssMiB,
    /**
     * Restarts the PostgreSQL server itself (`pg_ctlcluster … restart -m fast`, as an operator or a
     * managed failover would): every connection of every client ends. Only where the test may
     * (RESILIENCE_RESTART_POSTGRES=1: CI, whose PostgreSQL serves nothing else by then).
     */
    restartPostgres: async (): Promise<number> => {
      const [version] = readdirSync("/etc/postgresql");
      const started = Date.now();
      const child = spawn(
        "pg_ctlcluster",
        ["--skip-systemctl-redirect", version ?? "", "main", "restart", "-m", "fast"],
        {
          stdio: "inherit",
        },
      );
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      if (code !== 0) throw new Error(`pg_ctlcluster restart exited with ${code}`);
      return Date.now() - started;
    },
    /** kill -9: no drain, no goodbye. */
    kill: async (index: number) => {
      const instance = instances[index];
      if (instance) await stopChild(instance.process, "SIGKILL");
    },
    /** SIGTERM: the drain, then exit; answers the exit code. */
    terminate: async (index: number) => {
      const instance = instances[index];
      if (!instance) return null;
      await stopChild(instance.process, "SIGTERM");
      return instance.process.exitCode;
    },
    /** Starts the instance again on its port; answers the milliseconds until /readyz said 200. */
    restart: (index: number) => start(index),
    /** Every instance answers /readyz 200; the milliseconds it took. */
    allReady: (timeoutMs: number) =>
      waitUntil(
        "every instance ready",
        async () =>
          (await Promise.all(instances.map((i) => fetch(`${i.url}/readyz`).then((r) => r.status)))).every(
            (status) => status === 200,
          ),
        timeoutMs,
      ),
    stop: async () => {
      for (const child of children.reverse()) await stopChild(child).catch(() => {});
      await pgbouncer?.stop();
      await proxy.close();
      const cleanup = await connectPostgres(options.adminUrl);
      await cleanup.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
      await cleanup.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
