import type net from "node:net";
import { terminateConnections, testAdminUrl, testDatabaseKind } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy as startProxy } from "./testing/tcp-proxy";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";

/*
 * The database going away (docs/decisions/0026-database-outage-is-503.md). PostgreSQL only: PGlite lives in
 * the process and cannot lose its connection. The machine's PostgreSQL is shared, so nothing here
 * restarts it: the backends of this file's own database are terminated, and the outage is a TCP proxy
 * of the test's own that it cuts and restores.
 */

const onPostgres = testDatabaseKind() === "postgres";
const TODAY = "2026-11-22";

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

type Started = { t: TestApp; base: string; tenantId: string; user: SeededUser; account: string };

const start = async (options: Parameters<typeof createTestApp>[0]): Promise<Started> => {
  const t = await createTestApp(options);
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${portOf(t.app.server)}`;
  const tenant = await t.createTenant();
  const user = await t.createUser(tenant.id, "admin");
  const created = await fetch(`${base}/finance/accounts`, {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "Cash", currency: "UZS" }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { t, base, tenantId: tenant.id, user, account: id };
};

const pay = async ({ base, user, account }: Started, amount: number) => {
  const res = await fetch(`${base}/finance/payments`, {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify({ accountId: account, amount: String(amount), date: TODAY }),
  });
  const body = (await res.json()) as { id?: string; error?: { code: string; reason: string } };
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body };
};

const readyz = async (base: string) => (await fetch(`${base}/readyz`)).status;

const eventually = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the condition did not hold in time");
};

/** Statuses a failed request may have: 503 with Retry-After and the envelope. Never a 500. */
const expectUnavailable = (result: Awaited<ReturnType<typeof pay>>) => {
  expect(result.status).toBe(503);
  expect(Number(result.retryAfter)).toBeGreaterThan(0);
  expect(result.body.error).toMatchObject({ code: "UNAVAILABLE", reason: "database.unavailable" });
};

describe.runIf(onPostgres)("the database connections are terminated under load", () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ poolSize: 6 });
  });
  afterAll(async () => {
    await s?.t.close();
  });

  it("fails only the requests that used them (503), keeps every acknowledged posting, and recovers", async () => {
    const [row] = await s.t.db.withPlatform(
      (tx) => tx.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`,
    );
    const results: Array<Awaited<ReturnType<typeof pay>>> = [];
    let running = true;
    let amount = 0;
    const worker = async () => {
      while (running) results.push(await pay(s, ++amount));
    };
    const workers = Array.from({ length: 6 }, worker);
    let terminated = 0;
    try {
      for (let round = 0; round < 5; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        terminated += await terminateConnections(row?.name as string);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    } finally {
      running = false;
      await Promise.all(workers);
    }
    expect(terminated).toBeGreaterThan(0);
    const ok = results.filter((result) => result.status === 201);
    const failed = results.filter((result) => result.status !== 201);
    expect(ok.length).toBeGreaterThan(0);
    for (const result of failed) expectUnavailable(result);

    // Every acknowledged posting is stored.
    const ids = ok.map((result) => result.body.id as string);
    const stored = await s.t.db.withTenant(s.tenantId, (tx) =>
      tx.$queryRawUnsafe<Array<{ count: number }>>(
        "SELECT count(*)::int AS count FROM payments WHERE id = ANY($1::uuid[])",
        ids,
      ),
    );
    expect(stored[0]?.count).toBe(ids.length);

    // And the next requests succeed, on fresh connections; the outbox delivers what it had.
    expect(await readyz(s.base)).toBe(200);
    expect((await pay(s, 1)).status).toBe(201);
    await s.t.outbox.drain();
    console.log(
      `terminated ${terminated} backends; ${ok.length} postings acknowledged, ${failed.length} answered 503`,
    );
  });
});

describe.runIf(onPostgres)("the database server is unreachable for a moment", () => {
  let s: Started;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    const target = new URL(testAdminUrl() as string);
    proxy = await startProxy({ host: target.hostname, port: Number(target.port || 5432) });
    s = await start({
      poolSize: 4,
      connectVia: (url) => {
        const next = new URL(url);
        next.hostname = "127.0.0.1";
        next.port = String(proxy.port);
        return next.toString();
      },
    });
  });
  afterAll(async () => {
    await s?.t.close();
    await proxy?.close();
  });

  it("answers 503 meanwhile, /readyz included, and recovers by itself", async () => {
    expect((await pay(s, 1)).status).toBe(201);
    expect(await readyz(s.base)).toBe(200);

    // The outbox's poller keeps polling through the outage (as the server's does), failing quietly.
    s.t.outbox.start(50);
    await proxy.cut();
    expect(await readyz(s.base)).toBe(503);
    await expect(s.t.outbox.drain()).rejects.toThrow();
    expectUnavailable(await pay(s, 2));
    // The caller could not be resolved, so the answer is in the language the request asks for.
    const uz = await fetch(`${s.base}/finance/payments`, {
      method: "POST",
      headers: { ...s.user.headers, "content-type": "application/json", "accept-language": "uz" },
      body: JSON.stringify({ accountId: s.account, amount: "5", date: TODAY }),
    });
    expect(uz.status).toBe(503);
    expect(((await uz.json()) as { error: { message: string } }).error.message).toMatch(/Maʼlumotlar bazasi/);
    const trpc = await fetch(`${s.base}/trpc/accounts.list`, { headers: s.user.headers });
    expect(trpc.status).toBe(503);
    expect(Number(trpc.headers.get("retry-after"))).toBeGreaterThan(0);
    const graphql = await fetch(`${s.base}/api/graphql`, {
      method: "POST",
      headers: { ...s.user.headers, "content-type": "application/json", "accept-language": "ru" },
      body: JSON.stringify({ query: "{ me { id } }" }),
    });
    expect(graphql.status).toBe(503);
    expect(Number(graphql.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await graphql.json()) as { errors?: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: "UNAVAILABLE",
      reason: "database.unavailable",
    });
    expect(body.errors?.[0]?.extensions.localizedMessage).toMatch(/База данных/);

    await proxy.restore();
    await eventually(async () => (await readyz(s.base)) === 200);
    expect((await pay(s, 3)).status).toBe(201);
    await s.t.outbox.drain();
    await s.t.outbox.stop();
  });
});
