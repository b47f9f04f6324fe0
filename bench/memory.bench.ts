import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  TEST_OWNER_ROLE,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { runConcurrent } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult } from "./run";

/**
 * Resident memory of the server as `npm start` runs it (`node apps/server/dist/main.mjs`, the bundle
 * `scripts/build-server.mjs` builds at install and before each start when a source changed; a process of its own): idle once /readyz answers, and the peak and the end of 8 clients reading
 * `GET /finance/accounts` as a signed-in administrator — on PostgreSQL and on the embedded database,
 * each at its first start (whose setup runs in a process of its own first) and started again on the
 * same database.
 * Baseline: the bare Fastify + `pg` route of the authenticated-read benchmark in a process of its own,
 * loaded the same way (started with the tsx loader, as it is a script of the benchmark). `--iterations`: requests per client
 * (default 250). The PostgreSQL rows need DATABASE_URL.
 */

const CLIENTS = 8;
const DEFAULT_ITERATIONS = 250;
const ROOT = path.resolve(import.meta.dirname, "..");
const ADMIN_EMAIL = "memory-bench@example.com";
const ADMIN_PASSWORD = "Bench-Passw0rd!";

/** `npm start`'s command (`VAR=value … node <flags> <bundle>`), run here without npm in between. */
const npmStart = (): { env: Record<string, string>; args: string[] } => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0] as string)) {
    const [name, ...value] = (words.shift() as string).split("=");
    env[name as string] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`npm start is not a node command: ${pkg.scripts.start}`);
  return { env, args: words };
};
const SERVER = "npm start";

const ON_POSTGRES = "ours on PostgreSQL, first start";
const EMBEDDED = "ours embedded (PGlite), first start";
// A first start sets up the platform (tenant, administrator, signing key, the app's client) through
// Prisma, whose query compiler then stays loaded — in a short-lived process of its own
// (apps/server/src/first-start.ts), so the serving process starts as it does when started again.
const ON_POSTGRES_AGAIN = "ours on PostgreSQL, restarted";
const EMBEDDED_AGAIN = "ours embedded (PGlite), restarted";
const BARE = "bare Fastify + pg (baseline)";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const rssMiB = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

type Measured = { idle: number; peak: number; after: number; opsPerSecond: number; cookie: string };

const waitFor = async (what: string, check: () => Promise<boolean>, child: ChildProcess, ms = 180_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what}: not ready after ${ms / 1000}s`);
};

/** Starts `script` (`npm start`'s command, or a `.ts` file with the tsx loader), waits for `ready`, measures idle and loaded RSS, stops it. */
const measureProcess = async (
  script: string,
  env: Record<string, string>,
  ready: (base: string) => Promise<boolean>,
  signIn: (base: string) => Promise<string>,
  perClient: number,
): Promise<Measured> => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const start = script === SERVER ? npmStart() : { env: {}, args: ["--import", "tsx", script] };
  const child = spawn(process.execPath, start.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...start.env,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitFor(script, () => ready(base), child);
    const pid = child.pid as number;
    await sleep(3_000); // let start-up garbage settle as it would on an idle server
    const idle = rssMiB(pid);
    const cookie = await signIn(base);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(pid));
    }, 50);
    const run = await runConcurrent(CLIENTS, perClient, async () => {
      const res = await fetch(`${base}/finance/accounts`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`${script}: HTTP ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    });
    clearInterval(sampler);
    const after = rssMiB(pid);
    return { idle, peak: Math.max(peak, after), after, opsPerSecond: run.opsPerSecond, cookie };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
};

const serverReady = async (base: string) => (await fetch(`${base}/readyz`)).status === 200;

const signInAsAdmin = async (base: string): Promise<string> => {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const cookie = /session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")?.[0];
  if (res.status !== 200 || !cookie) throw new Error(`sign-in: HTTP ${res.status} ${await res.text()}`);
  return cookie;
};

const SERVER_ENV = {
  NODE_ENV: "development",
  LOG_LEVEL: "warn",
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  OIDC_CRYPTO_KEY: "m".repeat(40),
  OIDC_RATE_LIMIT_ENABLED: "false",
  API_RATE_LIMIT: "100000000",
};

export const memoryBench: Bench = {
  name: "memory",
  run: async ({ iterations }): Promise<BenchResult> => {
    const perClient = iterations ?? DEFAULT_ITERATIONS;
    const rows: Array<Record<string, string | number>> = [];
    const measured = new Map<string, Measured>();
    const describe = (label: string, m: Measured) => {
      measured.set(label, m);
      return {
        process: label,
        "idle RSS MiB": Math.round(m.idle),
        "peak RSS MiB under load": Math.round(m.peak),
        "RSS MiB after load": Math.round(m.after),
        "ops/s": Math.round(m.opsPerSecond),
      };
    };
    // What `npm start` does before it starts the server: rebuild the bundle if a source changed.
    execFileSync(process.execPath, ["scripts/build-server.mjs", "--if-stale"], {
      cwd: ROOT,
      stdio: "inherit",
    });
    const adminUrl = process.env.DATABASE_URL;
    let template: TestTemplate | undefined;
    mkdirSync(path.join(ROOT, ".tmp"), { recursive: true });
    const dataDir = mkdtempSync(path.join(ROOT, ".tmp", "memory-bench-"));
    try {
      if (adminUrl) {
        template = await prepareTemplate({ adminUrl, tmpDir: dataDir });
        const db = await createTestDbFromTemplate(template, { poolSize: 1 });
        const [{ name }] = await db.withPlatform(
          (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
        );
        await db.close();
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        url.username = TEST_OWNER_ROLE;
        url.password = TEST_OWNER_ROLE;
        const ours = await measureProcess(
          SERVER,
          { ...SERVER_ENV, DATABASE_URL: url.toString(), OIDC_ISSUER_URL: "http://localhost:3000" },
          serverReady,
          signInAsAdmin,
          perClient,
        );
        rows.push(describe(ON_POSTGRES, ours));
        const env = { ...SERVER_ENV, DATABASE_URL: url.toString(), OIDC_ISSUER_URL: "http://localhost:3000" };
        rows.push(
          describe(
            ON_POSTGRES_AGAIN,
            await measureProcess(SERVER, env, serverReady, signInAsAdmin, perClient),
          ),
        );
        // The bare route reads the session our server opened for the administrator.
        const bare = await measureProcess(
          "bench/bare-read-server.ts",
          { DATABASE_URL: url.toString() },
          async (base) => (await fetch(`${base}/finance/accounts`)).status === 401,
          async () => ours.cookie,
          perClient,
        );
        rows.push(describe(BARE, bare));
      } else {
        console.log("memory: PostgreSQL rows skipped — set DATABASE_URL to a PostgreSQL admin URL.");
      }
      const embedded = await measureProcess(
        SERVER,
        { ...SERVER_ENV, DATA_DIR: path.join(dataDir, "embedded") },
        serverReady,
        signInAsAdmin,
        perClient,
      );
      rows.push(describe(EMBEDDED, embedded));
      const embeddedEnv = { ...SERVER_ENV, DATA_DIR: path.join(dataDir, "embedded") };
      rows.push(
        describe(
          EMBEDDED_AGAIN,
          await measureProcess(SERVER, embeddedEnv, serverReady, signInAsAdmin, perClient),
        ),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      if (template) await dropTemplate(template);
    }
    const bare = measured.get(BARE);
    const figures: Figure[] = [];
    for (const label of [ON_POSTGRES, ON_POSTGRES_AGAIN, EMBEDDED, EMBEDDED_AGAIN]) {
      const ours = measured.get(label);
      if (!ours || !bare) continue;
      for (const [what, key] of [
        ["idle", "idle"],
        ["peak under load", "peak"],
      ] as const) {
        figures.push({
          case: `RSS ${what}, ${label} vs the bare route's process`,
          ours: `${Math.round(ours[key])} MiB`,
          baseline: `${Math.round(bare[key])} MiB`,
          ratio: ours[key] / bare[key],
          better: "lower",
        });
      }
    }
    return {
      figures,
      name: `Server RSS (a process of its own), idle and under ${CLIENTS} clients × ${perClient} GET /finance/accounts`,
      rows: [],
      tables: [{ title: "Resident memory", rows }],
    };
  },
};
