import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
import type { App } from "../apps/server/src/app";
import { composeServices } from "../apps/server/src/app-context";
import { buildServer } from "../apps/server/src/server";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { median } from "./measure";
import { benchEnv, benchTenantAdmin } from "./users.bench";

/**
 * CPU of this process per authenticated read on each transport, through `app.inject` (no sockets, no
 * load generator): what the transport itself costs beside REST, on the same server and database.
 * `npx tsx bench/profile-transports.ts [requests per round]` with DATABASE_URL set (PGlite otherwise
 * is not supported here). Rounds alternate the order; prints the median CPU ms per request and the
 * spread. With PROFILE=<dir>, a V8 CPU profile of the measured rounds only (not the start, the
 * template or the warm-up) is written there: with PROFILE_SIDES=graphql (say), of one transport.
 */
const GRAPHQL_DOCUMENT =
  "query { moneyAccounts { total data { id name number currency balance allowOverdraft description createdAt updatedAt } } }";
const ROUNDS = 7;

const main = async () => {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error("set DATABASE_URL");
  const perRound = Number(process.argv[2] ?? 300);
  let template: TestTemplate | undefined;
  let db: Db | undefined;
  let app: App | undefined;
  try {
    template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
    db = await createTestDbFromTemplate(template, { poolSize: 4 });
    const outbox = createOutbox(db, { unhandled: "settle" });
    await syncPermissions(db);
    const env = benchEnv({ GRAPHQL_RATE_LIMIT: "100000000" });
    const { services, oidc } = composeServices(db, outbox, env);
    await oidc.start();
    app = await buildServer({ env, db, services, oidc, logger: false });
    await app.ready();
    const { token } = await benchTenantAdmin(db, outbox, services, "profile-transports@example.com");
    const cookie = `session=${token}`;
    const server = app;
    const graphqlPost = (url: string) =>
      server.inject({
        method: "POST",
        url,
        headers: { cookie, "content-type": "application/json" },
        payload: JSON.stringify({ query: GRAPHQL_DOCUMENT }),
      });
    const sides = {
      rest: () => server.inject({ method: "GET", url: "/finance/accounts", headers: { cookie } }),
      trpc: () => server.inject({ method: "GET", url: "/trpc/accounts.list", headers: { cookie } }),
      // The same call through tRPC's own resolveResponse (a parameter the fast path leaves to tRPC).
      trpcResolve: () =>
        server.inject({ method: "GET", url: "/trpc/accounts.list?batch=0", headers: { cookie } }),
      graphql: () => graphqlPost("/api/graphql"),
      // The same operation through yoga's own handler (a query string the JSON path leaves to yoga).
      graphqlYoga: () => graphqlPost("/api/graphql?via=yoga"),
    };
    type Side = keyof typeof sides;
    // PROFILE_SIDES=trpc (say): only those, for a CPU profile of one transport.
    const only = (process.env.PROFILE_SIDES ?? "").split(",").filter(Boolean);
    const names = (Object.keys(sides) as Side[]).filter((name) => only.length === 0 || only.includes(name));
    const cpu = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Side, number[]>;
    for (const name of names) {
      for (let i = 0; i < 50; i++) {
        const res = await sides[name]();
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
      }
    }
    const inspector = new Session();
    const profileDir = process.env.PROFILE;
    if (profileDir) {
      inspector.connect();
      await inspector.post("Profiler.enable");
      await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
      await inspector.post("Profiler.start");
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const before = process.cpuUsage();
        for (let i = 0; i < perRound; i++) await sides[name]();
        const used = process.cpuUsage(before);
        cpu[name].push((used.user + used.system) / 1000 / perRound);
      }
    }
    if (profileDir) {
      const { profile } = await inspector.post("Profiler.stop");
      const file = path.join(profileDir, `transports-${names.join("-")}-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile: ${file}`);
      inspector.disconnect();
    }
    for (const name of names) {
      const ratios = cpu[name].map((ms, k) => ms / (cpu.rest?.[k] ?? Number.NaN));
      if (!cpu.rest?.length) {
        console.log(`${name.padEnd(11)} CPU ms/request ${median(cpu[name]).toFixed(3)}`);
        continue;
      }
      console.log(
        `${name.padEnd(11)} CPU ms/request ${median(cpu[name]).toFixed(3)} (${Math.min(...cpu[name]).toFixed(3)}–${Math.max(...cpu[name]).toFixed(3)}); ÷ REST ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
      );
    }
  } finally {
    await app?.close();
    await db?.close();
    if (template) await dropTemplate(template);
  }
};

await main();
