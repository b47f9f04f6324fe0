import type { AddressInfo } from "node:net";
import { syncPermissions } from "@hisob/core";
import { createOutbox } from "@hisob/db";
import {
  createLoaders,
  createMemoryPubSub,
  createRegistry,
  GRAPHQL_MODULES,
  type GraphqlContext,
} from "@hisob/graphql";
import { graphql } from "graphql";
import type { App } from "../apps/server/src/app";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
import { median, percentile, seconds } from "./measure";
import type { Bench, BenchTable } from "./run";
import { benchEnv, benchTenantAdmin, openPglite, openPostgres, seedUsers } from "./users.bench";

/**
 * GraphQL: `users(limit: 50)` with a filter, and `me`, alternating, 8 concurrent callers, through the
 * whole server (real HTTP on loopback, auth hook, rate limit, yoga, graphql-armor, cost and timeout
 * plugins, error mapping, ETag) beside the same documents executed by bare graphql-js (`graphql()`, no
 * yoga, no plugins, no HTTP) on the same schema, services and database in the same run. Both resolve
 * the caller from the same bearer token per operation, so the database work is the same; the
 * difference is our transport's overhead. Five rounds, alternating which side goes first; the figure
 * is the median of the per-round ratios with their lowest and highest (`--iterations`: operations per
 * round). PGlite by default; a throwaway PostgreSQL database when
 * DATABASE_URL is set.
 */

const CONCURRENCY = 8;
const DEFAULT_OPERATIONS = 200;
const ROUNDS = 5;
const USERS = 5_000;

const USERS_QUERY = /* GraphQL */ `
  query {
    users(limit: 50, sortBy: ["lastName"], filters: [{ field: "email", operator: like, value: "bench1" }]) {
      total
      data { id email firstName lastName uiLanguage createdAt updatedAt }
    }
  }
`;
const ME_QUERY = "query { me { id email firstName lastName } }";

type Run = { opsPerSecond: number; p50: number; p99: number };

/** `operations` calls of `call`, `CONCURRENCY` at a time; latency of each in ms. */
const drive = async (operations: number, call: (i: number) => Promise<void>): Promise<Run> => {
  const latencies: number[] = [];
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < operations) {
        const i = next++;
        const began = performance.now();
        await call(i);
        latencies.push(performance.now() - began);
      }
    }),
  );
  const elapsed = seconds(start);
  return {
    opsPerSecond: operations / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
};

export const graphqlBench: Bench = {
  name: "graphql",
  run: async ({ iterations, users }) => {
    const operations = iterations ?? DEFAULT_OPERATIONS;
    const adminUrl = process.env.DATABASE_URL;
    const database = adminUrl ? await openPostgres(adminUrl) : await openPglite();
    const { db } = database;
    let app: App | undefined;
    try {
      const outbox = createOutbox(db, { unhandled: "settle" }); // as the server's
      await syncPermissions(db);
      const env = benchEnv({ GRAPHQL_RATE_LIMIT: "100000000" });
      const { services } = composeServices(db, outbox, env);
      app = await buildServer({ env, db, services, logger: false, events: outbox });
      await app.listen({ host: "127.0.0.1", port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/graphql`;

      const { tenant, token } = await benchTenantAdmin(db, outbox, services);
      await seedUsers(db, tenant.id, users ?? USERS);

      const documents = [USERS_QUERY, ME_QUERY];
      const ours = async (i: number) => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: documents[i % 2] }),
        });
        const body = (await response.json()) as { errors?: unknown };
        if (response.status !== 200 || body.errors)
          throw new Error(`GraphQL failed: ${JSON.stringify(body)}`);
      };

      const registry = createRegistry();
      for (const module of GRAPHQL_MODULES) registry.register(module);
      const schema = registry.buildSchema();
      const pubsub = createMemoryPubSub();
      const bare = async (i: number) => {
        const caller = await services.context.resolveContext({ bearerToken: token, requestId: "bench" });
        const contextValue: GraphqlContext = {
          caller,
          requestId: "bench",
          locale: "en",
          client: { ip: "127.0.0.1", userAgent: "bench" },
          sessionCookie: { set: () => {}, clear: () => {} },
          transport: "http",
          executed: { operations: new Set() },
          services,
          loaders: createLoaders(),
          pubsub,
        };
        const result = await graphql({ schema, source: documents[i % 2] as string, contextValue });
        JSON.stringify(result);
        if (result.errors) throw new Error(`graphql-js failed: ${JSON.stringify(result.errors)}`);
      };

      // Warm-up of both paths, then rounds in alternating order (bare first, then ours first, …), so a
      // shared machine's drifting load falls on both alike; each round's ratio is ours ÷ bare ops/s.
      await drive(40, bare);
      await drive(40, ours);
      const bareRuns: Run[] = [];
      const oursRuns: Run[] = [];
      for (let index = 0; index < ROUNDS; index++) {
        if (index % 2 === 0) {
          bareRuns.push(await drive(operations, bare));
          oursRuns.push(await drive(operations, ours));
        } else {
          oursRuns.push(await drive(operations, ours));
          bareRuns.push(await drive(operations, bare));
        }
      }
      const ratios = oursRuns.map(
        (run, index) => run.opsPerSecond / (bareRuns[index]?.opsPerSecond ?? Number.NaN),
      );
      const medianOf = (runs: Run[], key: keyof Run) => median(runs.map((run) => run[key]));
      const row = (label: string, runs: Run[]) => ({
        case: label,
        "ops/s (median)": Math.round(medianOf(runs, "opsPerSecond")),
        "p50 ms (median)": medianOf(runs, "p50").toFixed(1),
        "p99 ms (median)": medianOf(runs, "p99").toFixed(1),
        "ops/s per round": runs.map((run) => Math.round(run.opsPerSecond)).join(", "),
      });
      const table: BenchTable = {
        title: `${database.label}; ${operations} operations per round (users(limit: 50) + filter, me, alternating), ${CONCURRENCY} concurrent, ${ROUNDS} rounds alternating which side goes first`,
        rows: [
          row("bare graphql-js (baseline)", bareRuns),
          row("server (HTTP + yoga + plugins)", oursRuns),
          {
            case: "server ÷ bare ops/s per round",
            "ops/s (median)": median(ratios).toFixed(2),
            "p50 ms (median)": "",
            "p99 ms (median)": "",
            "ops/s per round": ratios.map((ratio) => ratio.toFixed(2)).join(", "),
          },
        ],
      };
      return {
        name: "graphql",
        rows: [],
        figures: [
          {
            case: `server over HTTP vs bare graphql-js: throughput (median of ${ROUNDS} rounds)`,
            ours: `${Math.round(medianOf(oursRuns, "opsPerSecond"))}/s`,
            baseline: `${Math.round(medianOf(bareRuns, "opsPerSecond"))}/s`,
            ratio: median(ratios),
            spread: [Math.min(...ratios), Math.max(...ratios)],
            better: "higher",
          },
        ],
        tables: [table],
      };
    } finally {
      await app?.close();
      await database.close();
    }
  },
};
