import { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import {
  ADMIN_ROLE_NAME,
  createCoreServices,
  insertUser,
  provisionTenant,
  syncPermissions,
} from "@hisob/core";
import { createDb, createOutbox, migrate } from "@hisob/db";
import "../apps/server/src/app-context";
import { loadEnv } from "../apps/server/src/env";
import { buildServer } from "../apps/server/src/server";
import { pgliteConnection } from "../packages/db/src/sql-connection";
import { seedUsers } from "./users.bench";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const N = Number(process.env.N ?? 100000);
const log: Array<{ sql: string; ms: number }> = [];
let recording = false;

const main = async () => {
  const pglite = new PGlite();
  const orig = pglite.transaction.bind(pglite);
  // biome-ignore lint/suspicious/noExplicitAny: diag
  (pglite as any).transaction = (fn: (tx: Transaction) => Promise<unknown>) =>
    orig((tx) => {
      const q = tx.query.bind(tx);
      // biome-ignore lint/suspicious/noExplicitAny: diag
      (tx as any).query = async (sql: string, params?: unknown[], opts?: any) => {
        const t = performance.now();
        const r = await q(sql, params, opts);
        if (recording) log.push({ sql, ms: performance.now() - t });
        return r;
      };
      return fn(tx);
    });
  await migrate(pgliteConnection(pglite));
  const db = await createDb({ dataDir: "", pglite });
  const outbox = createOutbox(db);
  await syncPermissions(db);
  const services = createCoreServices({ db, outbox, uploadsDir: "/tmp/diag-uploads" });
  const env = loadEnv({
    NODE_ENV: "test",
    OIDC_ISSUER_URL: "http://localhost:3000",
    OIDC_CRYPTO_KEY: "b".repeat(40),
  });
  const app = await buildServer({ env, db, services, logger: false });
  await app.ready();
  const tenant = await provisionTenant({ db, outbox }, { name: "Bench", isPlatform: false });
  await db.withTenant(tenant.id, (tx) =>
    insertUser(tx, outbox, tenant.id, {
      email: "a@example.com",
      password: "Bench-Passw0rd!",
      firstName: "A",
      lastName: "A",
      roleNames: [ADMIN_ROLE_NAME],
    }),
  );
  const { token } = await services.auth.login(
    { email: "a@example.com", password: "Bench-Passw0rd!" },
    { ip: "1", userAgent: "d" },
  );
  const headers = { authorization: `Bearer ${token}` };
  recording = true;
  let t = performance.now();
  await seedUsers(db, tenant.id, N);
  console.log("seed total ms", performance.now() - t);
  for (const e of log) console.log(e.ms.toFixed(0).padStart(7), e.sql.replace(/\s+/g, " ").slice(0, 120));
  log.length = 0;
  await pglite.exec("ANALYZE");
  if (process.env.PART === "seed") return;

  const mode = process.env.MODE ?? "list";
  if (mode === "list") {
    const url = `/users?limit=50&offset=${N / 2}&sortBy=lastName`;
    for (let i = 0; i < 3; i++) await app.inject({ method: "GET", url, headers });
    log.length = 0;
    t = performance.now();
    const r = await app.inject({ method: "GET", url, headers });
    console.log("request ms", (performance.now() - t).toFixed(1), r.statusCode);
    for (const e of log) console.log(e.ms.toFixed(1).padStart(7), e.sql.replace(/\s+/g, " ").slice(0, 1500));
    const sqls = log.map((e) => e.sql);
    return { sqls, pglite, tenantId: tenant.id };
  }
  // export: live heap after forced GC over time
  log.length = 0;
  const samples: string[] = [];
  const before = (gc(), process.memoryUsage());
  const timer = setInterval(() => {
    const m0 = process.memoryUsage().heapUsed;
    gc();
    const m = process.memoryUsage();
    samples.push(
      `${((m0 - before.heapUsed) / 1048576).toFixed(0)}/${((m.heapUsed - before.heapUsed) / 1048576).toFixed(0)}/${((m.external - before.external) / 1048576).toFixed(0)}/${((m.arrayBuffers - before.arrayBuffers) / 1048576).toFixed(0)}`,
    );
  }, 1000);
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let ticks = 0;
  const tickAt: number[] = [performance.now()];
  const tick = setInterval(() => {
    ticks++;
    tickAt.push(performance.now());
  }, 20);
  const probe = performance.now();
  setTimeout(
    () =>
      console.log(
        "a 100 ms timer set at export start fired after",
        (performance.now() - probe).toFixed(0),
        "ms",
      ),
    100,
  );
  const writeTimes: number[] = [];
  let bytes = 0;
  const slow = process.env.SLOW === "1";
  const sink = new Writable({
    write(c: Buffer, _e, cb) {
      bytes += c.length;
      writeTimes.push(performance.now() - t);
      if (slow) setTimeout(cb, 5);
      else cb();
    },
  });
  t = performance.now();
  const res = await app.inject({
    method: "GET",
    url: `/users/export${process.env.Q ?? ""}`,
    headers,
    payloadAsStream: true,
  });
  res.stream().pipe(sink);
  await finished(sink);
  clearInterval(timer);
  clearInterval(tick);
  h.disable();
  tickAt.push(performance.now());
  const gaps = tickAt
    .slice(1)
    .map((x, i) => x - (tickAt[i] ?? x))
    .sort((a, b) => b - a);
  console.log(
    "largest gaps between 20ms ticks (ms):",
    gaps
      .slice(0, 5)
      .map((g) => g.toFixed(0))
      .join(" "),
  );
  console.log(
    "ticks of a 20ms interval:",
    ticks,
    "max loop delay ms",
    (h.max / 1e6).toFixed(0),
    "sink writes",
    writeTimes.length,
    "first/median/last write at ms",
    writeTimes[0]?.toFixed(0),
    writeTimes[Math.floor(writeTimes.length / 2)]?.toFixed(0),
    writeTimes.at(-1)?.toFixed(0),
  );
  console.log("export ms", (performance.now() - t).toFixed(0), "bytes", bytes);
  console.log(
    "heapUsed-before-gc / live-heap-after-gc / external / arrayBuffers (MB), per second:\n",
    samples.join("  "),
  );
  const batchTimes = log.filter((e) => /ORDER BY/.test(e.sql)).map((e) => e.ms.toFixed(0));
  console.log("main batch query ms:", batchTimes.join(" "));
  const agg = new Map<string, { n: number; ms: number }>();
  for (const e of log) {
    const k = e.sql.replace(/\s+/g, " ").trim().slice(0, 60);
    const a = agg.get(k) ?? { n: 0, ms: 0 };
    a.n++;
    a.ms += e.ms;
    agg.set(k, a);
  }
  for (const [k, a] of agg) console.log(String(a.n).padStart(5), a.ms.toFixed(0).padStart(7), "ms", k);
  console.log("statements per export:", log.length, "first batch statements:");
  for (const e of log.slice(0, 12))
    console.log(e.ms.toFixed(1).padStart(7), e.sql.replace(/\s+/g, " ").slice(0, 1500));
  return undefined;
};
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
