import { tmpdir } from "node:os";
import { syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
import Fastify from "fastify";
import pg from "pg";
import type { App } from "../apps/server/src/app";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  TEST_OWNER_ROLE,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { registerBareRead } from "./bare-read-route";
import { type ConcurrentRun, median, medianRun, percentile, runConcurrent } from "./measure";
import type { Bench, BenchResult } from "./run";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/**
 * An authenticated read over HTTP, 8 concurrent clients: our `GET /finance/accounts` (an
 * empty page, the caller resolved from a session cookie) beside a bare Fastify + `pg` route doing the
 * same work in one transaction — the session by its token hash with its user and tenant, the user's
 * permissions, `set_config` of tenant and role, the tenant's page of accounts and its count — on the
 * same PostgreSQL database in the same process and run. Ratio: bare ÷ ours throughput (× baseline
 * time; 1.0 is parity), medians of three rounds in alternating order. `--iterations` is requests per client (default 500). Needs DATABASE_URL.
 */

const CLIENTS = 8;
const ROUNDS = 3;
const DEFAULT_ITERATIONS = 500;
const _PASSWORD = "Bench-Passw0rd!";

export const authenticatedReadBench: Bench = {
  name: "authenticated-read",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "authenticated-read: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres).";
      console.log(message);
      return { name: message, rows: [] };
    }
    const perClient = iterations ?? DEFAULT_ITERATIONS;
    const warmup = Math.max(10, Math.floor(perClient / 10));
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let ours: App | undefined;
    let pool: pg.Pool | undefined;
    const bare = Fastify({ logger: false });
    try {
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      db = await createTestDbFromTemplate(template, { poolSize: CLIENTS + 2 });
      const appDb = db;
      const outbox = createOutbox(appDb, { unhandled: "settle" }); // as the server's
      await syncPermissions(appDb);
      const env = benchEnv();
      const { services, oidc } = composeServices(appDb, outbox, env);
      await oidc.start();
      ours = await buildServer({ env, db: appDb, services, oidc, logger: false });
      await ours.listen({ port: 0, host: "127.0.0.1" });

      const { tenant, token } = await benchTenantAdmin(appDb, outbox, services, "read-bench@example.com");

      // The bare route connects as the same owner role to the same database.
      const [{ name }] = await appDb.withTenant(
        tenant.id,
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      // The test databases' owner role (its password is its name, see test-databases.ts).
      url.username = TEST_OWNER_ROLE;
      url.password = TEST_OWNER_ROLE;
      pool = new pg.Pool({ connectionString: url.toString(), max: CLIENTS + 2 });
      registerBareRead(bare, pool);
      await bare.listen({ port: 0, host: "127.0.0.1" });

      const base = (app: { server: { address(): unknown } }) => {
        const address = app.server.address() as { port: number };
        return `http://127.0.0.1:${address.port}/finance/accounts`;
      };
      const headers = { cookie: `session=${token}` };
      const read = (target: string) => async () => {
        const res = await fetch(target, { headers });
        if (res.status !== 200) throw new Error(`${target}: HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      };
      const oursUrl = base(ours);
      const bareUrl = base(bare);
      // Same answer first: the comparison is only fair if both do the work.
      const [a, b] = await Promise.all([
        fetch(oursUrl, { headers }).then((r) => r.json()),
        fetch(bareUrl, { headers }).then((r) => r.json()),
      ]);
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        throw new Error(`answers differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
      // Warm up both, then rounds in alternating order to share out the drift of a shared machine's
      // load; each side's median round counts.
      await runConcurrent(CLIENTS, warmup, read(bareUrl));
      await runConcurrent(CLIENTS, warmup, read(oursUrl));
      // CPU of this process per request (server, load and, for "bare", the bare route): on a shared
      // machine this moves less than throughput; the load generator's share is the same for both.
      type Round = ConcurrentRun & { cpuMsPerRequest: number };
      const round = async (target: string, perRound: number): Promise<Round> => {
        const cpu = process.cpuUsage();
        const run = await runConcurrent(CLIENTS, perRound, read(target));
        const used = process.cpuUsage(cpu);
        return { ...run, cpuMsPerRequest: (used.user + used.system) / 1000 / (CLIENTS * perRound) };
      };
      const bareRuns: Round[] = [];
      const oursRuns: Round[] = [];
      const perRound = Math.max(20, Math.floor(perClient / ROUNDS));
      for (let index = 0; index < ROUNDS; index++) {
        if (index % 2 === 0) {
          bareRuns.push(await round(bareUrl, perRound));
          oursRuns.push(await round(oursUrl, perRound));
        } else {
          oursRuns.push(await round(oursUrl, perRound));
          bareRuns.push(await round(bareUrl, perRound));
        }
      }
      const bareRun = medianRun(bareRuns);
      const oursRun = medianRun(oursRuns);
      const cpuOf = (runs: Round[]) => median(runs.map((run) => run.cpuMsPerRequest));
      return {
        name: `Authenticated read over HTTP (GET /finance/accounts, empty page), ${CLIENTS} clients × ${perClient} (PostgreSQL)`,
        rows: [
          {
            label: "bare Fastify + pg, 7 statements in 1 transaction (baseline)",
            opsPerSecond: bareRun.opsPerSecond,
            ratio: 1,
          },
          {
            label: "ours (cookie → cached caller, confirmed inside the service's one transaction)",
            opsPerSecond: oursRun.opsPerSecond,
            ratio: bareRun.opsPerSecond / oursRun.opsPerSecond,
          },
        ],
        tables: [
          {
            title:
              "Latency and CPU (medians of the rounds; CPU of this process: server, load and baseline together)",
            rows: [bareRun, oursRun].map((run, index) => ({
              case: index === 0 ? "bare" : "ours",
              "p50 ms": percentile(run.latenciesMs, 50).toFixed(2),
              "p99 ms": percentile(run.latenciesMs, 99).toFixed(2),
              "CPU ms per request (incl. client)": cpuOf(index === 0 ? bareRuns : oursRuns).toFixed(2),
            })),
          },
        ],
        figures: [
          {
            case: "CPU ms per request (this process, load generator included) vs bare",
            ours: cpuOf(oursRuns).toFixed(2),
            baseline: cpuOf(bareRuns).toFixed(2),
            ratio: cpuOf(oursRuns) / cpuOf(bareRuns),
            better: "lower",
          },
        ],
      };
    } finally {
      await bare.close();
      await ours?.close();
      await pool?.end();
      await db?.close();
      if (template) await dropTemplate(template);
    }
  },
};
