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
import { median, percentile, runConcurrent } from "./measure";
import type { Figure } from "./report";
import type { Bench, BenchResult } from "./run";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/**
 * An authenticated read over HTTP, 8 concurrent clients, through each of our transports — REST
 * `GET /finance/accounts`, tRPC `GET /trpc/accounts.list`, GraphQL `POST /api/graphql { moneyAccounts }`
 * (an empty page, the caller resolved from the same session cookie) — beside a bare Fastify + `pg`
 * route doing the same work in one transaction: the session by its token hash with its user and
 * tenant, the user's permissions, `set_config` of tenant and role, the tenant's page of accounts and
 * its count, on the same PostgreSQL database in the same process and run. Two more GraphQL sides: the
 * same POST through yoga's own handler (the A/B of decision 0112), and one caller per client (each in
 * an organization of its own), beside the one caller every other side shares: GraphQL gives one caller
 * at most GRAPHQL_CONCURRENCY_PER_CALLER service calls at a time, so eight clients of one caller queue.
 *
 * Five rounds (at least); in each, every side runs once, in an order that rotates and reverses from
 * round to round, so a shared machine's drifting load falls on every side alike. Each transport's
 * figure is its throughput ÷ the bare route's in the same round: the median of the rounds, with the
 * lowest and highest (the spread; a target counts as met when the low end meets it). Latency p50/p99
 * over every request of the rounds. `--iterations` is requests per client over all rounds (default
 * 500). Needs DATABASE_URL.
 */

const CLIENTS = 8;
const ROUNDS = 5;
const DEFAULT_ITERATIONS = 500;

const GRAPHQL_DOCUMENT =
  "query { moneyAccounts { total data { id name number currency balance allowOverdraft description createdAt updatedAt } } }";

type Side = "bare" | "rest" | "trpc" | "graphql" | "graphqlYoga" | "graphqlCallers";
const SIDES: readonly Side[] = ["bare", "rest", "trpc", "graphql", "graphqlYoga", "graphqlCallers"];
const LABELS: Record<Side, string> = {
  bare: "bare Fastify + pg, 7 statements in 1 transaction (baseline)",
  rest: "REST GET /finance/accounts",
  trpc: "tRPC GET /trpc/accounts.list",
  graphql: "GraphQL POST /api/graphql { moneyAccounts }",
  graphqlYoga: "GraphQL, the same POST through yoga's own handler (A/B of decision 0112)",
  graphqlCallers: `GraphQL POST, one caller per client (${CLIENTS} organizations): no client waits for GraphQL's per-caller share`,
};

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
      const env = benchEnv({ GRAPHQL_RATE_LIMIT: "100000000" });
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

      const origin = (app: { server: { address(): unknown } }) =>
        `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const cookie = `session=${token}`;
      // GraphQL runs at most GRAPHQL_CONCURRENCY_PER_CALLER (4) service calls of one caller at a time, and
      // of one organization 6: eight clients of one caller queue there; one caller per client does not.
      const callers = [cookie];
      for (let index = 1; index < CLIENTS; index++) {
        const other = await benchTenantAdmin(appDb, outbox, services, `read-bench-${index}@example.com`);
        callers.push(`session=${other.token}`);
      }
      const graphqlPost = (path: string, session: string) =>
        fetch(`${origin(ours as App)}${path}`, {
          method: "POST",
          headers: { cookie: session, "content-type": "application/json" },
          body: JSON.stringify({ query: GRAPHQL_DOCUMENT }),
        });
      const requests: Record<Side, (client: number) => Promise<Response>> = {
        bare: () => fetch(`${origin(bare)}/finance/accounts`, { headers: { cookie } }),
        rest: () => fetch(`${origin(ours as App)}/finance/accounts`, { headers: { cookie } }),
        trpc: () => fetch(`${origin(ours as App)}/trpc/accounts.list`, { headers: { cookie } }),
        graphql: () => graphqlPost("/api/graphql", cookie),
        // A query string the single-JSON-POST path leaves to yoga: the same operation through its handler.
        graphqlYoga: () => graphqlPost("/api/graphql?via=yoga", cookie),
        graphqlCallers: (client) => graphqlPost("/api/graphql", callers[client % CLIENTS] ?? cookie),
      };
      // Each answer as the bare route words it, so all four are checked to do the same work.
      const pageOf = async (side: Side, client = 0): Promise<unknown> => {
        const response = await requests[side](client);
        const body = (await response.json()) as Record<string, unknown>;
        if (response.status !== 200)
          throw new Error(`${side}: HTTP ${response.status} ${JSON.stringify(body)}`);
        if (side === "trpc") return (body.result as { data: unknown }).data;
        if (side.startsWith("graphql")) {
          const page = (body.data as { moneyAccounts: { data: unknown[]; total: number } } | undefined)
            ?.moneyAccounts;
          if (!page) throw new Error(`graphql: ${JSON.stringify(body)}`);
          return { items: page.data, total: page.total, limit: 20, offset: 0 };
        }
        return body;
      };
      const expected = JSON.stringify(await pageOf("bare"));
      for (const side of SIDES) {
        for (const client of side === "graphqlCallers" ? callers.keys() : [0]) {
          const answer = JSON.stringify(await pageOf(side, client));
          if (answer !== expected) throw new Error(`${side} answers ${answer}, the bare route ${expected}`);
        }
      }
      const read = (side: Side) => async (client: number) => {
        const response = await requests[side](client);
        if (response.status !== 200)
          throw new Error(`${side}: HTTP ${response.status} ${await response.text()}`);
        const body = await response.text();
        if (side.startsWith("graphql") && body.includes('"errors"')) throw new Error(`${side}: ${body}`);
      };
      for (const side of SIDES) await runConcurrent(CLIENTS, warmup, read(side));

      // CPU of this process per request (server, load and, for "bare", the bare route): on a shared
      // machine this moves less than throughput; the load generator's share is much the same for all.
      type Round = { opsPerSecond: number; cpuMsPerRequest: number; latenciesMs: number[] };
      const runs = Object.fromEntries(SIDES.map((side) => [side, [] as Round[]])) as Record<Side, Round[]>;
      const perRound = Math.max(20, Math.floor(perClient / ROUNDS));
      for (let index = 0; index < ROUNDS; index++) {
        const rotated = SIDES.map((_, k) => SIDES[(index + k) % SIDES.length] as Side);
        for (const side of index % 2 === 0 ? rotated : rotated.reverse()) {
          const cpu = process.cpuUsage();
          const run = await runConcurrent(CLIENTS, perRound, read(side));
          const used = process.cpuUsage(cpu);
          runs[side].push({
            opsPerSecond: run.opsPerSecond,
            latenciesMs: run.latenciesMs,
            cpuMsPerRequest: (used.user + used.system) / 1000 / (CLIENTS * perRound),
          });
        }
      }
      const summary = (side: Side) => {
        const rounds = runs[side];
        const latencies = rounds.flatMap((round) => round.latenciesMs);
        return {
          opsPerSecond: median(rounds.map((round) => round.opsPerSecond)),
          cpuMs: median(rounds.map((round) => round.cpuMsPerRequest)),
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
        };
      };
      const baseline = summary("bare");
      const figures: Figure[] = [];
      for (const side of SIDES.filter((s) => s !== "bare")) {
        const mine = summary(side);
        const throughput = runs[side].map(
          (round, index) => round.opsPerSecond / (runs.bare[index]?.opsPerSecond ?? Number.NaN),
        );
        const cpu = runs[side].map(
          (round, index) => round.cpuMsPerRequest / (runs.bare[index]?.cpuMsPerRequest ?? Number.NaN),
        );
        figures.push(
          {
            case: `${LABELS[side]}: throughput vs the bare route (median of ${ROUNDS} rounds)`,
            ours: `${Math.round(mine.opsPerSecond)}/s`,
            baseline: `${Math.round(baseline.opsPerSecond)}/s`,
            ratio: median(throughput),
            spread: [Math.min(...throughput), Math.max(...throughput)],
            better: "higher",
          },
          {
            case: `${LABELS[side]}: CPU ms per request (this process, load generator included) vs the bare route`,
            ours: mine.cpuMs.toFixed(2),
            baseline: baseline.cpuMs.toFixed(2),
            ratio: median(cpu),
            spread: [Math.min(...cpu), Math.max(...cpu)],
            better: "lower",
          },
        );
      }
      return {
        name: `Authenticated read over HTTP (accounts, empty page), ${CLIENTS} clients × ${perClient} in ${ROUNDS} alternating rounds (PostgreSQL)`,
        rows: [],
        figures,
        tables: [
          {
            title: `Per side: ops/s and CPU the median of the rounds; p50/p99 over every request of the rounds; × bare is ops/s ÷ the bare route's in the same round, median (lowest–highest)`,
            rows: SIDES.map((side) => {
              const mine = summary(side);
              const ratios = runs[side].map(
                (round, index) => round.opsPerSecond / (runs.bare[index]?.opsPerSecond ?? Number.NaN),
              );
              return {
                case: LABELS[side],
                "ops/s": Math.round(mine.opsPerSecond),
                "× bare": `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
                "p50 ms": mine.p50.toFixed(2),
                "p99 ms": mine.p99.toFixed(2),
                "CPU ms per request (incl. client)": mine.cpuMs.toFixed(2),
                "ops/s per round": runs[side].map((round) => Math.round(round.opsPerSecond)).join(", "),
              };
            }),
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
