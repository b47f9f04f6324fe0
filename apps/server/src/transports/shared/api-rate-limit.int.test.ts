import { createManualClock } from "@hisob/kernel";
import { type AppRouter, MAX_BATCH_CALLS } from "@hisob/trpc";
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createMemoryWindowCounter, createRedisWindowCounter } from "./window-counters";

/*
 * REST and tRPC have a per-caller rate limit with GraphQL's headers, counted in memory or in Redis,
 * and tRPC a declared largest batch. Each test failed before: neither transport was limited, and a
 * batch was capped only by Fastify's 100-character route parameter (7 procedures → 404).
 */

const LIMIT = 5;
const clock = createManualClock(new Date("2026-11-27T10:00:00Z"));
let t: TestApp;
let base: string;
let tenantId: string;

const env = { API_RATE_LIMIT: String(LIMIT), API_RATE_LIMIT_WINDOW_SECONDS: "60" };

const get = (app: TestApp, url: string, who: SeededUser | null, ip = "127.0.0.1") =>
  app.app.inject({ method: "GET", url, remoteAddress: ip, ...(who ? { headers: who.headers } : {}) });

const headersOf = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers["x-ratelimit-limit"],
  remaining: res.headers["x-ratelimit-remaining"],
  reset: res.headers["x-ratelimit-reset"],
});

beforeAll(async () => {
  t = await createTestApp({ clock, env });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  base = `http://127.0.0.1:${address.port}`;
  tenantId = (await t.createTenant("Limited")).id;
});

afterAll(async () => {
  await t?.close();
});

describe("REST: a per-caller rate limit with GraphQL's headers", () => {
  it("counts each user's requests in the window, answers 429 with Retry-After past it, and starts again after", async () => {
    const user = await t.createUser(tenantId, "admin");
    const statuses: number[] = [];
    const remaining: unknown[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await get(t, "/finance/accounts", user);
      statuses.push(res.statusCode);
      remaining.push(res.headers["x-ratelimit-remaining"]);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(["4", "3", "2", "1", "0", "0", "0"]);
    const refused = await get(t, "/finance/accounts", user);
    expect(refused.json().error).toMatchObject({ code: "RATE_LIMITED", reason: "rate_limited" });
    expect(headersOf(refused)).toEqual({
      limit: "5",
      remaining: "0",
      reset: String(Date.parse("2026-11-27T10:01:00Z") / 1000),
    });
    expect(refused.headers["retry-after"]).toBe("60");

    // Another user of the same organization, from the same address, has a budget of their own.
    const colleague = await t.createUser(tenantId, "admin");
    expect((await get(t, "/finance/accounts", colleague)).statusCode).toBe(200);

    clock.advance(60_000);
    const next = await get(t, "/finance/accounts", user);
    expect(next.statusCode).toBe(200);
    // The three requests it sent while refused count in the new window: 5 - 3 - 1.
    expect(next.headers["x-ratelimit-remaining"]).toBe("1");
  });

  it("refused requests count: a caller that keeps hammering after its 429 stays limited", async () => {
    const user = await t.createUser(tenantId, "admin");
    const hammer = async (times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) statuses.push((await get(t, "/finance/accounts", user)).statusCode);
      return statuses;
    };
    expect(await hammer(LIMIT * 2)).toEqual([...Array(LIMIT).fill(200), ...Array(LIMIT).fill(429)]);
    // The next window inherits the refused requests: it goes on hammering and is still refused.
    clock.advance(60_000);
    const still = await get(t, "/finance/accounts", user);
    expect(still.statusCode).toBe(429);
    expect(headersOf(still)).toEqual({
      limit: "5",
      remaining: "0",
      reset: String((clock.now().getTime() + 60_000) / 1000),
    });
    expect(still.headers["retry-after"]).toBe("60");
    expect(await hammer(LIMIT)).toEqual(Array(LIMIT).fill(429));
    clock.advance(60_000);
    expect((await get(t, "/finance/accounts", user)).statusCode).toBe(429);
    // Once it stops for a whole window, its limit is whole again.
    clock.advance(120_000);
    const after = await get(t, "/finance/accounts", user);
    expect(after.statusCode).toBe(200);
    expect(after.headers["x-ratelimit-remaining"]).toBe("4");
  });

  it("counts anonymous requests per client network, and not health checks, the apps' files or the API reference", async () => {
    const ip = "198.51.100.20";
    for (const url of ["/healthz", "/readyz", "/openapi.json", "/login", "/"]) {
      for (let i = 0; i < LIMIT + 1; i++) {
        const res = await get(t, url, null, ip);
        expect(res.statusCode, url).not.toBe(429);
        expect(res.headers["x-ratelimit-limit"], url).toBeUndefined();
      }
    }
    // Sign-in requests are API requests (distinct emails: the sign-in budgets would allow 30 of them).
    // A request without valid credentials to a route that needs them is refused by the context hook
    // before it is counted: one lookup by hash, no work.
    const login = (i: number) =>
      t.app.inject({
        method: "POST",
        url: "/auth/login",
        remoteAddress: ip,
        payload: { email: `anonymous-${i}@nowhere.example`, password: "x-1234" },
      });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await login(i)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await login(99);
    expect(refused.json().error.reason).toBe("rate_limited");
    expect(refused.headers["retry-after"]).toBeDefined();
  });
});

describe("tRPC: the same limit, in tRPC's own error shape, and a declared largest batch", () => {
  const clientFor = (user: SeededUser, batch = false) =>
    createTRPCClient<AppRouter>({
      links: [
        batch
          ? httpBatchLink({ url: `${base}/trpc`, headers: user.headers, maxURLLength: 100_000 })
          : httpLink({ url: `${base}/trpc`, headers: user.headers }),
      ],
    });

  it("counts every call of a batch, and refuses past the limit with 429 and the headers", async () => {
    const user = await t.createUser(tenantId, "admin");
    const api = clientFor(user, true);
    const three = await Promise.all([
      api.session.me.query(),
      api.currencies.selected.query(),
      api.accounts.list.query(),
    ]);
    expect(three).toHaveLength(3);
    const res = await fetch(
      `${base}/trpc/session.me,session.me,session.me?batch=1&input=${encodeURIComponent("{}")}`,
      {
        headers: user.headers,
      },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    const body = (await res.json()) as Array<{
      error: { data: { appCode: string; httpStatus: number; requestId: string } };
    }>;
    expect(body.map((item) => item.error.data.appCode)).toEqual([
      "RATE_LIMITED",
      "RATE_LIMITED",
      "RATE_LIMITED",
    ]);
    expect(body[0]?.error.data.requestId).not.toBe("");

    const single = clientFor(user);
    try {
      await single.session.me.query();
      throw new Error("expected a refusal");
    } catch (error) {
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
        appCode: "RATE_LIMITED",
        httpStatus: 429,
      });
    }
  });

  it(`runs a batch of ${MAX_BATCH_CALLS} calls with long names; refuses ${MAX_BATCH_CALLS + 1} whole with a clear error`, async () => {
    const roomy = await createTestApp({ db: t.db, clock, env: { API_RATE_LIMIT: "1000" } });
    try {
      const user = await t.createUser(tenantId, "admin");
      const call = (calls: number) =>
        roomy.app.inject({
          method: "GET",
          url: `/trpc/${Array.from({ length: calls }, () => "warehouse.locations.list").join(",")}?batch=1&input=${encodeURIComponent("{}")}`,
          headers: user.headers,
        });
      const full = await call(MAX_BATCH_CALLS);
      expect(full.statusCode, full.body).toBe(200);
      expect(full.json()).toHaveLength(MAX_BATCH_CALLS);
      const tooMany = await call(MAX_BATCH_CALLS + 1);
      expect(tooMany.statusCode).toBe(400);
      const errors = tooMany.json() as Array<{
        error: { message: string; data: { reason: string; appCode: string } };
      }>;
      expect(errors).toHaveLength(MAX_BATCH_CALLS + 1);
      expect(errors[0]?.error.data).toMatchObject({
        appCode: "VALIDATION_ERROR",
        reason: "trpc.batch_too_large",
      });
      expect(errors[0]?.error.message).toBe(
        `validation error: a batch may hold at most ${MAX_BATCH_CALLS} calls (this one holds ${MAX_BATCH_CALLS + 1})`,
      );
      // Far larger batches get the same answer, not a 404.
      expect((await call(60)).statusCode).toBe(400);
    } finally {
      await roomy.close();
    }
  });
});

describe("shared by every instance through Redis", () => {
  it("the Redis counter carries refused requests into the next window as the memory one does", async () => {
    const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const prefix = `hisob-test:window:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
    try {
      const T0 = Date.parse("2026-11-27T10:00:00Z");
      for (const counter of [createRedisWindowCounter(redis, prefix), createMemoryWindowCounter()]) {
        const counts: number[] = [];
        for (let i = 0; i < 8; i++) counts.push((await counter.hit("k", 60_000, T0 + i, 5)).count);
        expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        // Three refused: the next window starts with them spent.
        expect(await counter.hit("k", 60_000, T0 + 60_000, 5)).toEqual({
          count: 4,
          windowEndsAt: T0 + 120_000,
        });
        // A window opened more than a window after the last one's end starts from nothing.
        expect((await counter.hit("k", 60_000, T0 + 180_000, 5)).count).toBe(1);
        // Without a limit (the OpenID provider's counters), windows start from nothing as before.
        for (let i = 0; i < 8; i++) await counter.hit("n", 60_000, T0 + i);
        expect((await counter.hit("n", 60_000, T0 + 60_000)).count).toBe(1);
      }
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it("two instances count one caller's requests together", async () => {
    const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    // The counters' keys name the user (a new one): no earlier run's counts can interfere.
    const options = { db: t.db, clock, env: { ...env, REDIS_URL: "redis://127.0.0.1:6379" } };
    const first = await createTestApp(options);
    const second = await createTestApp(options);
    try {
      const user = await t.createUser(tenantId, "admin");
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) {
        statuses.push((await get(i % 2 ? first : second, "/finance/accounts", user)).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await first.close();
      await second.close();
      const keys = await redis.keys("hisob:api-rate-limit:user:*");
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});
