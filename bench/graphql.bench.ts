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
import { percentile, seconds } from "./measure";
import type { Bench, BenchTable } from "./run";
import { benchEnv, benchTenantAdmin, openPglite, openPostgres, seedUsers } from "./users.bench";

/**
 * GraphQL: `users(limit: 50)` with a filter, and `me`, alternating, 8 concurrent callers, through the
 * whole server (real HTTP on loopback, auth hook, rate limit, yoga, graphql-armor, cost and timeout
 * plugins, error mapping, ETag) beside the same documents executed by bare graphql-js (`graphql()`, no
 * yoga, no plugins, no HTTP) on the same schema, services and database in the same run. Both resolve
 * the caller from the same bearer token per operation, so the database work is the same; the
 * difference is our transport's overhead. PGlite by default; a throwaway PostgreSQL database when
 * DATABASE_URL is set.
 */

const CONCURRENCY = 8;
const DEFAULT_OPERATIONS = 400;
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

      // Warm-up of both paths, then baseline, ours, and the baseline again (drift shows as a gap).
      await drive(40, bare);
      await drive(40, ours);
      const baseline1 = await drive(operations, bare);
      const measured = await drive(operations, ours);
      const baseline2 = await drive(operations, bare);
      const baseline: Run = {
        opsPerSecond: (baseline1.opsPerSecond + baseline2.opsPerSecond) / 2,
        p50: (baseline1.p50 + baseline2.p50) / 2,
        p99: (baseline1.p99 + baseline2.p99) / 2,
      };
      const ratio = baseline.opsPerSecond / measured.opsPerSecond;
      const table: BenchTable = {
        title: `${database.label}; ${operations} operations (users(limit: 50) + filter, me, alternating), ${CONCURRENCY} concurrent`,
        rows: [
          {
            case: "bare graphql-js (run 1)",
            "ops/s": Math.round(baseline1.opsPerSecond),
            "p50 ms": baseline1.p50.toFixed(1),
            "p99 ms": baseline1.p99.toFixed(1),
          },
          {
            case: "bare graphql-js (run 2)",
            "ops/s": Math.round(baseline2.opsPerSecond),
            "p50 ms": baseline2.p50.toFixed(1),
            "p99 ms": baseline2.p99.toFixed(1),
          },
          {
            case: "server (HTTP + yoga + plugins)",
            "ops/s": Math.round(measured.opsPerSecond),
            "p50 ms": measured.p50.toFixed(1),
            "p99 ms": measured.p99.toFixed(1),
          },
          {
            case: "overhead (time per op vs bare)",
            "ops/s": `${((ratio - 1) * 100).toFixed(1)} %`,
            "p50 ms": "",
            "p99 ms": "",
          },
        ],
      };
      return {
        name: "graphql",
        rows: [
          { label: "bare graphql-js", opsPerSecond: baseline.opsPerSecond, ratio: 1 },
          { label: "server over HTTP", opsPerSecond: measured.opsPerSecond, ratio },
        ],
        tables: [table],
      };
    } finally {
      await app?.close();
      await database.close();
    }
  },
};
