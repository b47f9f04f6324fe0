import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate, readMigrations } from "../packages/db/src/migrate";
import { PGLITE_EXTENSIONS } from "../packages/db/src/pglite-extensions";
import { pgliteConnection } from "../packages/db/src/sql-connection";

// Running the real server and CLI the README's way, for end-to-end tests: the server as `npm start`
// runs it (the bundle, rebuilt first when a source changed, with the start script's Node flags and
// environment), the CLI as `npm run cli` does (tsx on the sources).

export const ROOT = path.resolve(import.meta.dirname, "..");
// Node itself, not npm or the tsx CLI: one process, so SIGTERM reaches the server itself (npm and the
// tsx CLI relay signals, the latter with a 30 ms handshake, then SIGKILL a busy child).
const NODE = process.execPath;
const TSX_LOADER = ["--import", "tsx"];

/**
 * `npm start`'s command line, read from package.json so the tests cannot drift from it:
 * `VAR=value … node <flags> <bundle>` → the variables, and Node's arguments.
 */
const startCommand = () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/).filter(Boolean);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`npm start does not run node: ${pkg.scripts.start}`);
  const env = Object.fromEntries(words.slice(0, node).map((word) => word.split("=", 2) as [string, string]));
  return { env, args: words.slice(node + 1) };
};

let built = false;
/** `npm start`'s prestart: the bundle rebuilt when a source changed (safe when two workers race). */
const ensureBundle = () => {
  if (built) return;
  execFileSync(NODE, [path.join(ROOT, "scripts/build-server.mjs"), "--if-stale"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  built = true;
};

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });

export type ProcessResult = { code: number | null; stdout: string; stderr: string };

export const collect = (child: ChildProcess): Promise<ProcessResult> =>
  new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

/** An environment for a server on a fresh embedded database in `dataDir`. */
export const serverEnv = (dataDir: string, port: number): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    PORT: String(port),
  };
  for (const name of ["DATABASE_URL", "ADMIN_EMAIL", "ADMIN_PASSWORD", "OIDC_CRYPTO_KEY", "OIDC_ISSUER_URL"])
    delete env[name];
  env.OIDC_ISSUER_URL = `http://127.0.0.1:${port}`;
  return env;
};

export const runCli = (args: string[], env: NodeJS.ProcessEnv) =>
  collect(
    spawn(NODE, [...TSX_LOADER, path.join(ROOT, "apps/server/src/cli.ts"), ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );

/** The server process as `npm start` runs it (the bundle, its flags and variables), with `env`. */
export const spawnServer = (env: NodeJS.ProcessEnv) => {
  ensureBundle();
  const start = startCommand();
  return spawn(NODE, start.args, {
    cwd: ROOT,
    env: { ...start.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
};

/**
 * An empty embedded database with every migration applied, made once per set of migrations (keyed by
 * their checksums and PGlite's version) and copied into each browser suite's data folder. Creating a
 * PGlite data folder (initdb) is most of a fresh server's start: 25 s of 30 on a loaded machine, where
 * opening a copy takes 3. Two test workers may make it at once: each builds its own and renames it in.
 */
const migratedTemplate = async (): Promise<string> => {
  const pgliteVersion = (
    JSON.parse(readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const key = createHash("sha256")
    .update(pgliteVersion)
    .update(
      readMigrations()
        .map((m) => `${m.name}:${m.checksum}`)
        .join("\n"),
    )
    .digest("hex")
    .slice(0, 16);
  const template = path.join(ROOT, ".tmp", `e2e-pglite-${key}`);
  if (existsSync(path.join(template, "PG_VERSION"))) return template;
  const building = `${template}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(path.dirname(building), { recursive: true });
  const pglite = new PGlite(building, { extensions: PGLITE_EXTENSIONS });
  await migrate(pgliteConnection(pglite));
  await pglite.close();
  try {
    renameSync(building, template);
  } catch {
    // Another worker renamed its copy in first: use that one.
    rmSync(building, { recursive: true, force: true });
  }
  return template;
};

/**
 * Starts the server as `npm start` does and resolves once /healthz answers, within `startTimeoutMs`
 * (90 s unless a spec on a loaded machine asks for longer). Each probe gives up after 5 s: a probe
 * that reached a server still starting must not wait for undici's 300 s header timeout.
 *
 * On the embedded database a new data folder starts from a copy of the migrated empty database
 * (the server then applies nothing and bootstraps as on a first start); `database: "fresh"` lets the
 * server create it, as the first-start tests need.
 */
export const startServer = async (
  env: NodeJS.ProcessEnv,
  options: { startTimeoutMs?: number; database?: "migrated" | "fresh" } = {},
) => {
  const dataDir = env.DATA_DIR;
  if (options.database !== "fresh" && !env.DATABASE_URL && dataDir) {
    const embedded = path.join(dataDir, "pglite");
    if (!existsSync(embedded)) cpSync(await migratedTemplate(), embedded, { recursive: true });
  }
  const child = spawnServer(env);
  const done = collect(child);
  const base = env.OIDC_ISSUER_URL ?? "";
  const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
  for (;;) {
    if (
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGTERM");
      const result = await done;
      throw new Error(`server did not start (exit ${result.code}): ${result.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    base,
    child,
    done,
    stop: async () => {
      child.kill("SIGTERM");
      return done;
    },
  };
};

/**
 * PostgreSQL for the process tests: it runs on every machine of this project and in CI (.ci/run
 * starts it); DATABASE_URL points elsewhere when set. `reachable` is false (and says so, naming
 * `suite`) when no server answers, so the PostgreSQL cases are skipped rather than failed.
 */
export const postgresForProcessTests = async (suite: string) => {
  const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  let reachable = true;
  try {
    await probe.connect();
    await probe.end();
  } catch {
    console.warn(`${suite}: no PostgreSQL at ${url}; the PostgreSQL case is skipped`);
    reachable = false;
  }
  /** A fresh database named `prefix_<random>`, dropped by the returned cleanup; its URL. */
  const freshDatabase = async (prefix: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const database = `${prefix}_${randomBytes(4).toString("hex")}`;
    await admin.query(`CREATE DATABASE ${database}`);
    const databaseUrl = new URL(url);
    databaseUrl.pathname = `/${database}`;
    return {
      url: databaseUrl.toString(),
      drop: async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      },
    };
  };
  return { reachable, freshDatabase };
};
