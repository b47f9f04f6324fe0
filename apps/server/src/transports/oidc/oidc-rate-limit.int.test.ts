import { createHash, randomUUID } from "node:crypto";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import fastifyFormbody from "@fastify/formbody";
import { createManualClock, type ManualClock } from "@hisob/kernel";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Env } from "../../env";
import { oidcCors } from "./oidc-cors";
import { oidcRateLimit } from "./oidc-rate-limit";

/*
 * The OIDC rate limits and CORS, on a small app with stand-in routes at the provider's paths, each
 * configured as the real one is (`oidcRateLimit`, `oidcCors`: the plugins read the route's config,
 * never its URL). A root hook stands in for our authentication guard: it answers 401 on any route not
 * marked public, as auth-context does. Windows are driven by a manual clock.
 */

const START = new Date("2026-01-01T00:00:00.000Z");
const START_S = START.getTime() / 1000;
const WINDOW_S = 900;
const LIMITS: Env["rateLimit"] = {
  enabled: true,
  windowSeconds: WINDOW_S,
  authorize: 4,
  token: 3,
  userinfo: 5,
  keys: 6,
};
const ALLOWED = "https://spa.example";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

type Built = { app: FastifyInstance; handled: { count: number } };

const build = async (
  options: {
    clock?: ManualClock;
    limits?: Partial<Env["rateLimit"]>;
    redisUrl?: string;
    redisKeyPrefix?: string;
    allowedOrigins?: string[];
  } = {},
): Promise<Built> => {
  const handled = { count: 0 };
  const app = Fastify({ logger: false });
  await app.register(fastifyFormbody);
  // Stand-in for auth-context's guard (root scope, runs before the OIDC plugin's hooks).
  app.addHook("onRequest", async (request, reply) => {
    if (request.routeOptions.url !== undefined && request.routeOptions.config.public !== true) {
      return reply.code(401).send({ error: "UNAUTHENTICATED" });
    }
  });
  app.get("/api/thing", async () => ({ ok: true }));

  // Stand-in for the OIDC routes plugin: the two registration lines, then routes configured as the real ones.
  await app.register(async (oidc) => {
    await oidc.register(oidcCors, { allowedOrigins: options.allowedOrigins ?? [ALLOWED] });
    await oidc.register(oidcRateLimit, {
      limits: { ...LIMITS, ...options.limits },
      clock: options.clock ?? createManualClock(START),
      redisUrl: options.redisUrl,
      ...(options.redisKeyPrefix ? { redisKeyPrefix: options.redisKeyPrefix } : {}),
    });
    oidc.setErrorHandler((_error, _request, reply) =>
      reply.code(400).send({ error: "invalid_request", error_description: "Malformed request" }),
    );
    const config = { public: true };
    const ok = async () => {
      handled.count += 1;
      return { ok: true };
    };
    oidc.get("/.well-known/openid-configuration", { config }, ok);
    oidc.get(
      "/oidc/authorize",
      { config: { ...config, oidcRateLimit: "authorize" } },
      async (_request, reply) => {
        handled.count += 1;
        return reply.redirect("/login", 302);
      },
    );
    const token = { ...config, oidcCors: true, oidcRateLimit: "token" as const };
    oidc.post("/oidc/token", { config: token }, async (request, reply) => {
      handled.count += 1;
      if ((request.body as Record<string, string>).client_secret === "wrong") {
        return reply
          .code(401)
          .send({ error: "invalid_client", error_description: "Client authentication failed" });
      }
      return { access_token: "at" };
    });
    const userinfo = { ...config, oidcCors: true, oidcRateLimit: "userinfo" as const };
    oidc.get("/oidc/userinfo", { config: userinfo }, ok);
    oidc.post("/oidc/userinfo", { config: userinfo }, ok);
    oidc.get("/oidc/keys", { config: { ...config, oidcCors: true, oidcRateLimit: "keys" } }, ok);
    oidc.post("/oidc/revoke", { config: { ...config, oidcCors: true } }, ok);
  });
  await app.ready();
  return { app, handled };
};

const rateHeaders = (res: LightMyRequestResponse) => ({
  limit: res.headers["x-ratelimit-limit"],
  remaining: res.headers["x-ratelimit-remaining"],
  reset: res.headers["x-ratelimit-reset"],
});

const corsHeaders = (res: LightMyRequestResponse) =>
  Object.keys(res.headers).filter((name) => name.startsWith("access-control-"));

const apps: FastifyInstance[] = [];
const track = async (built: Promise<Built>) => {
  const result = await built;
  apps.push(result.app);
  return result;
};
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

type Call = { method: "GET" | "POST"; url: string; headers?: Record<string, string>; payload?: string };
const tokenCall = (
  form: string,
  headers: Record<string, string> = {},
  ip = "192.0.2.1",
): Call & { ip: string } => ({
  method: "POST",
  url: "/oidc/token",
  headers: { ...FORM, ...headers },
  payload: form,
  ip,
});
const send = (app: FastifyInstance, call: Call & { ip?: string }) =>
  app.inject({
    method: call.method,
    url: call.url,
    remoteAddress: call.ip ?? "192.0.2.1",
    ...(call.headers ? { headers: call.headers } : {}),
    ...(call.payload !== undefined ? { payload: call.payload } : {}),
  });

/** Sends `call` n times, returning the responses. */
const repeat = async (app: FastifyInstance, call: Call & { ip?: string }, n: number) => {
  const responses: LightMyRequestResponse[] = [];
  for (let i = 0; i < n; i++) responses.push(await send(app, call));
  return responses;
};

describe.each([
  { bucket: "authorize", max: LIMITS.authorize, call: { method: "GET", url: "/oidc/authorize?client_id=x" } },
  {
    bucket: "token",
    max: LIMITS.token,
    call: tokenCall("grant_type=refresh_token&client_id=rp&client_secret=s"),
  },
  {
    bucket: "userinfo",
    max: LIMITS.userinfo,
    call: { method: "GET", url: "/oidc/userinfo", headers: { authorization: "Bearer tok-1" } },
  },
  { bucket: "keys", max: LIMITS.keys, call: { method: "GET", url: "/oidc/keys" } },
] satisfies { bucket: string; max: number; call: Call }[])("the $bucket endpoint (memory store)", ({
  max,
  call,
}) => {
  it("answers with X-RateLimit-* on every response: the limit, what remains, and the window's end as Unix seconds", async () => {
    const clock = createManualClock(START);
    const { app } = await track(build({ clock }));
    const seen = [];
    for (let i = 0; i < max; i++) {
      const res = await send(app, call);
      expect(res.statusCode).toBeLessThan(400);
      seen.push(rateHeaders(res));
      clock.advance(10_000); // later requests stay in the window opened by the first
    }
    expect(seen).toEqual(
      Array.from({ length: max }, (_, i) => ({
        limit: String(max),
        remaining: String(max - 1 - i),
        reset: String(START_S + WINDOW_S),
      })),
    );
  });

  it("past the limit answers 429 with Retry-After and an OAuth error, without running the handler", async () => {
    const clock = createManualClock(START);
    const { app, handled } = await track(build({ clock }));
    await repeat(app, call, max);
    clock.advance(60_000);
    const res = await send(app, call);
    expect(res.statusCode).toBe(429);
    expect(handled.count).toBe(max);
    expect(rateHeaders(res)).toEqual({
      limit: String(max),
      remaining: "0",
      reset: String(START_S + WINDOW_S),
    });
    expect(res.headers["retry-after"]).toBe(String(WINDOW_S - 60));
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: `Too many requests; retry after ${WINDOW_S - 60} seconds`,
    });
  });

  it("opens a new window once the clock reaches the reset time", async () => {
    const clock = createManualClock(START);
    const { app } = await track(build({ clock }));
    await repeat(app, call, max);
    clock.set(new Date((START_S + WINDOW_S) * 1000 - 1));
    const last = await send(app, call);
    expect(last.statusCode).toBe(429);
    expect(last.headers["retry-after"]).toBe("1");

    clock.set(new Date((START_S + WINDOW_S) * 1000));
    const res = await send(app, call);
    expect(res.statusCode).toBeLessThan(400);
    expect(rateHeaders(res)).toEqual({
      limit: String(max),
      remaining: String(max - 1),
      reset: String(START_S + 2 * WINDOW_S),
    });
  });
});

describe("keys of the limits", () => {
  it("authorize and keys count per IP", async () => {
    const { app } = await track(build());
    for (const url of ["/oidc/authorize?client_id=x", "/oidc/keys"]) {
      const max = url === "/oidc/keys" ? LIMITS.keys : LIMITS.authorize;
      await repeat(app, { method: "GET", url, ip: "192.0.2.1" }, max);
      expect((await send(app, { method: "GET", url, ip: "192.0.2.1" })).statusCode).toBe(429);
      const other = await send(app, { method: "GET", url, ip: "198.51.100.7" });
      expect(other.statusCode).toBeLessThan(400);
      expect(other.headers["x-ratelimit-remaining"]).toBe(String(max - 1));
    }
  });

  it("IPv6 addresses count per /64", async () => {
    const { app } = await track(build());
    const call = (ip: string) => ({ method: "GET" as const, url: "/oidc/keys", ip });
    await repeat(app, call("2001:db8:1:2::1"), LIMITS.keys);
    expect((await send(app, call("2001:db8:1:2:ffff::9"))).statusCode).toBe(429);
    expect((await send(app, call("2001:db8:1:3::1"))).statusCode).toBe(200);
  });

  it("a confidential client counts per client, however it authenticates and from wherever", async () => {
    const { app } = await track(build());
    const post = tokenCall("grant_type=refresh_token&client_id=rp&client_secret=s", {}, "192.0.2.1");
    const viaBasic = tokenCall(
      "grant_type=refresh_token",
      { authorization: basic("rp", "s") },
      "198.51.100.7",
    );
    await send(app, post);
    await send(app, viaBasic);
    const third = await send(app, { ...post, ip: "203.0.113.5" });
    expect(third.headers["x-ratelimit-remaining"]).toBe("0");
    expect((await send(app, viaBasic)).statusCode).toBe(429);
    // Another client has its own budget.
    const other = await send(app, tokenCall("grant_type=refresh_token&client_id=rp2&client_secret=s"));
    expect(other.statusCode).toBe(200);
    expect(other.headers["x-ratelimit-remaining"]).toBe(String(LIMITS.token - 1));
  });

  it("a public client counts per client and IP: one desktop user cannot lock out the others", async () => {
    const { app } = await track(build());
    const desktop = (ip: string) =>
      tokenCall("grant_type=authorization_code&client_id=hisob-desktop", {}, ip);
    await repeat(app, desktop("192.0.2.1"), LIMITS.token);
    expect((await send(app, desktop("192.0.2.1"))).statusCode).toBe(429);
    const colleague = await send(app, desktop("198.51.100.7"));
    expect(colleague.statusCode).toBe(200);
    expect(colleague.headers["x-ratelimit-remaining"]).toBe(String(LIMITS.token - 1));
    // Basic with an empty secret is the same public client.
    const emptyBasic = tokenCall("grant_type=authorization_code", {
      authorization: basic("hisob-desktop", ""),
    });
    expect((await send(app, emptyBasic)).statusCode).toBe(429);
  });

  it("token requests naming no client count per IP; error responses carry the headers too", async () => {
    const { app } = await track(build());
    const anonymous = await send(app, tokenCall("grant_type=refresh_token"));
    expect(anonymous.headers["x-ratelimit-remaining"]).toBe(String(LIMITS.token - 1));
    const refused = await send(app, tokenCall("grant_type=refresh_token&client_id=rp&client_secret=wrong"));
    expect(refused.statusCode).toBe(401);
    expect(rateHeaders(refused)).toEqual({
      limit: String(LIMITS.token),
      remaining: String(LIMITS.token - 1),
      reset: String(START_S + WINDOW_S),
    });
  });

  it("userinfo counts per access token, GET and POST together", async () => {
    const { app } = await track(build());
    const get = (token: string) => ({
      method: "GET" as const,
      url: "/oidc/userinfo",
      headers: { authorization: `Bearer ${token}` },
    });
    await repeat(app, get("tok-a"), LIMITS.userinfo - 1);
    const viaPost = await send(app, {
      ...get("tok-a"),
      method: "POST",
      headers: { authorization: "Bearer tok-a" },
    });
    expect(viaPost.headers["x-ratelimit-remaining"]).toBe("0");
    expect((await send(app, { ...get("tok-a"), ip: "198.51.100.7" })).statusCode).toBe(429);
    const otherToken = await send(app, get("tok-b"));
    expect(otherToken.statusCode).toBe(200);
    expect(otherToken.headers["x-ratelimit-remaining"]).toBe(String(LIMITS.userinfo - 1));
  });

  it("discovery and revocation are not limited (the spec shows no limit for them)", async () => {
    const { app } = await track(build());
    for (const call of [
      { method: "GET" as const, url: "/.well-known/openid-configuration" },
      { ...tokenCall("token=abc&client_id=rp&client_secret=s"), url: "/oidc/revoke" },
    ]) {
      const responses = await repeat(app, call, 10);
      for (const res of responses) {
        expect(res.statusCode).not.toBe(429);
        expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
      }
    }
  });
});

describe("route configuration, not the URL, decides", () => {
  it("a route limits and opens to browsers by its config wherever it is; a provider path without it gets neither", async () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    await app.register(async (scope) => {
      await scope.register(oidcCors, { allowedOrigins: [ALLOWED] });
      await scope.register(oidcRateLimit, {
        limits: { ...LIMITS, keys: 1 },
        clock: createManualClock(START),
      });
      scope.get("/elsewhere", { config: { oidcCors: true, oidcRateLimit: "keys" } }, async () => ({
        ok: true,
      }));
      scope.get("/oidc/keys", async () => ({ ok: true }));
    });
    const call = (url: string) => app.inject({ method: "GET", url, headers: { origin: ALLOWED } });
    const first = await call("/elsewhere");
    expect(first.headers["access-control-allow-origin"]).toBe(ALLOWED);
    expect(rateHeaders(first)).toEqual({ limit: "1", remaining: "0", reset: String(START_S + WINDOW_S) });
    expect((await call("/elsewhere")).statusCode).toBe(429);
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/elsewhere",
      headers: { origin: ALLOWED, "access-control-request-method": "GET" },
    });
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET");
    for (let i = 0; i < 3; i++) {
      const plain = await call("/oidc/keys");
      expect(plain.statusCode).toBe(200);
      expect(corsHeaders(plain)).toEqual([]);
      expect(plain.headers["x-ratelimit-limit"]).toBeUndefined();
    }
  });
});

describe("configuration", () => {
  it("every value is configurable: window and maxima", async () => {
    const clock = createManualClock(new Date("2026-01-01T00:00:00.600Z"));
    const { app } = await track(build({ clock, limits: { windowSeconds: 60, keys: 2 } }));
    const res = await send(app, { method: "GET", url: "/oidc/keys" });
    // The window opens at the whole second of its first request.
    expect(rateHeaders(res)).toEqual({ limit: "2", remaining: "1", reset: String(START_S + 60) });
    await send(app, { method: "GET", url: "/oidc/keys" });
    const limited = await send(app, { method: "GET", url: "/oidc/keys" });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
  });

  it("OIDC_RATE_LIMIT_ENABLED=false turns every limit off", async () => {
    const { app } = await track(build({ limits: { enabled: false } }));
    const responses = await repeat(app, { method: "GET", url: "/oidc/keys" }, LIMITS.keys + 3);
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
    }
  });

  it("an unreachable REDIS_URL stops the start with a clear error", async () => {
    await expect(build({ redisUrl: "redis://127.0.0.1:1" })).rejects.toThrow(/cannot connect to REDIS_URL/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Redis

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const redisUp = await (async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
})();
if (!redisUp && process.env.CI !== undefined) throw new Error(`Redis is required in CI (${REDIS_URL})`);

describe.skipIf(!redisUp)("Redis store (REDIS_URL)", () => {
  const prefix = `hisob-test:${randomUUID()}:`;
  let redis: Redis;

  beforeEach(() => {
    redis ??= new Redis(REDIS_URL);
  });

  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it("limits with the same headers, 429 and window reset, on the injected clock", async () => {
    const clock = createManualClock(START);
    const { app } = await track(build({ clock, redisUrl: REDIS_URL, redisKeyPrefix: `${prefix}a:` }));
    const call = { method: "GET" as const, url: "/oidc/keys" };
    const responses = await repeat(app, call, LIMITS.keys);
    expect(responses.map((res) => res.headers["x-ratelimit-remaining"])).toEqual(
      Array.from({ length: LIMITS.keys }, (_, i) => String(LIMITS.keys - 1 - i)),
    );
    expect(new Set(responses.map((res) => res.headers["x-ratelimit-reset"]))).toEqual(
      new Set([String(START_S + WINDOW_S)]),
    );
    clock.advance(100_000);
    const limited = await send(app, call);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBe(String(WINDOW_S - 100));
    expect(limited.json()).toMatchObject({ error: "temporarily_unavailable" });

    clock.set(new Date((START_S + WINDOW_S) * 1000));
    const next = await send(app, call);
    expect(next.statusCode).toBe(200);
    expect(rateHeaders(next)).toEqual({
      limit: String(LIMITS.keys),
      remaining: String(LIMITS.keys - 1),
      reset: String(START_S + 2 * WINDOW_S),
    });
  });

  it("instances sharing Redis share the counters; keys hold no raw token", async () => {
    const clock = createManualClock(START);
    const options = { clock, redisUrl: REDIS_URL, redisKeyPrefix: `${prefix}b:` };
    const one = await track(build(options));
    const two = await track(build(options));
    const call = {
      method: "GET" as const,
      url: "/oidc/userinfo",
      headers: { authorization: "Bearer secret-tok" },
    };
    await repeat(one.app, call, 3);
    await repeat(two.app, call, LIMITS.userinfo - 3);
    expect((await send(one.app, call)).statusCode).toBe(429);
    expect((await send(two.app, call)).statusCode).toBe(429);

    const keys = await redis.keys(`${prefix}b:*`);
    const hash = createHash("sha256").update("secret-tok").digest("hex");
    expect(keys).toEqual([`${prefix}b:userinfo:token:${hash}`]);
    const ttl = await redis.pttl(keys[0] ?? "");
    expect(ttl).toBeGreaterThan(WINDOW_S * 1000);
  });

  it("when Redis goes away, requests are let through unlimited (fail open) instead of failing", async () => {
    // A TCP proxy in front of Redis that the test can pull.
    const target = new URL(REDIS_URL);
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const { port } = proxy.address() as AddressInfo;
    const { app, handled } = await track(
      build({ redisUrl: `redis://127.0.0.1:${port}`, redisKeyPrefix: `${prefix}d:` }),
    );
    const call = { method: "GET" as const, url: "/oidc/keys" };
    expect((await send(app, call)).headers["x-ratelimit-remaining"]).toBe(String(LIMITS.keys - 1));

    await new Promise<void>((resolve) => {
      proxy.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    const responses = await repeat(app, call, LIMITS.keys + 2);
    expect(responses.map((res) => res.statusCode)).toEqual(Array(LIMITS.keys + 2).fill(200));
    expect(responses.every((res) => res.headers["x-ratelimit-limit"] === undefined)).toBe(true);
    expect(handled.count).toBe(LIMITS.keys + 3);
  });

  it("public clients count per client and IP on Redis too", async () => {
    const { app } = await track(build({ redisUrl: REDIS_URL, redisKeyPrefix: `${prefix}c:` }));
    const desktop = (ip: string) =>
      tokenCall("grant_type=authorization_code&client_id=hisob-desktop", {}, ip);
    await repeat(app, desktop("192.0.2.1"), LIMITS.token);
    expect((await send(app, desktop("192.0.2.1"))).statusCode).toBe(429);
    expect((await send(app, desktop("198.51.100.7"))).statusCode).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------------------
// CORS

describe("CORS (OIDC_ALLOWED_ORIGINS)", () => {
  const CORS_ROUTES = [
    { url: "/oidc/token", method: "POST", methods: "POST" },
    { url: "/oidc/revoke", method: "POST", methods: "POST" },
    { url: "/oidc/userinfo", method: "GET", methods: "GET, POST" },
    { url: "/oidc/keys", method: "GET", methods: "GET" },
  ] as const;

  it.each(
    CORS_ROUTES,
  )("$url answers an allowed origin, with Vary: Origin and the rate-limit headers exposed", async ({
    url,
    method,
  }) => {
    const { app } = await track(build());
    const res = await app.inject({
      method,
      url,
      headers: { origin: ALLOWED, ...(method === "POST" ? FORM : {}) },
      ...(method === "POST" ? { payload: "client_id=rp&client_secret=s&token=t" } : {}),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i);
    expect(String(res.headers["access-control-expose-headers"]).split(", ")).toEqual(
      expect.arrayContaining([
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "retry-after",
      ]),
    );
  });

  it.each(
    CORS_ROUTES,
  )("$url answers a preflight from an allowed origin (past our authentication guard)", async ({
    url,
    methods,
    method,
  }) => {
    const { app } = await track(build());
    const res = await app.inject({
      method: "OPTIONS",
      url,
      headers: {
        origin: ALLOWED,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
    expect(res.headers["access-control-allow-methods"]).toBe(methods);
    expect(res.headers["access-control-allow-headers"]).toBe("Authorization, Content-Type");
    expect(res.headers["access-control-max-age"]).toBe("600");
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i);
    expect(res.headers["x-ratelimit-limit"]).toBeUndefined(); // preflights are not counted
  });

  it.each(CORS_ROUTES)("$url gives a disallowed origin no CORS header and no preflight", async ({
    url,
    method,
  }) => {
    const { app } = await track(build());
    const res = await app.inject({
      method,
      url,
      headers: { origin: "https://evil.example", ...(method === "POST" ? FORM : {}) },
      ...(method === "POST" ? { payload: "client_id=rp&client_secret=s" } : {}),
    });
    expect(res.statusCode).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i);
    const preflight = await app.inject({
      method: "OPTIONS",
      url,
      headers: { origin: "https://evil.example", "access-control-request-method": method },
    });
    expect(preflight.statusCode).toBe(404);
    expect(corsHeaders(preflight)).toEqual([]);
  });

  it("authorize and discovery get no CORS headers, even for an allowed origin", async () => {
    const { app } = await track(build());
    for (const url of ["/oidc/authorize?client_id=x", "/.well-known/openid-configuration"]) {
      const res = await app.inject({ method: "GET", url, headers: { origin: ALLOWED } });
      expect(res.statusCode).toBeLessThan(400);
      expect(corsHeaders(res)).toEqual([]);
      const preflight = await app.inject({
        method: "OPTIONS",
        url,
        headers: { origin: ALLOWED, "access-control-request-method": "GET" },
      });
      expect(preflight.statusCode).toBe(404);
      expect(corsHeaders(preflight)).toEqual([]);
    }
  });

  it("a 429 carries the CORS headers, so the browser can read it", async () => {
    const { app } = await track(build({ limits: { userinfo: 1 } }));
    const call = {
      method: "GET" as const,
      url: "/oidc/userinfo",
      headers: { origin: ALLOWED, authorization: "Bearer t" },
    };
    await app.inject(call);
    const res = await app.inject(call);
    expect(res.statusCode).toBe(429);
    expect(res.headers["access-control-allow-origin"]).toBe(ALLOWED);
  });

  it("leaves the rest of the server alone: OPTIONS elsewhere is still 404, guarded routes still 401", async () => {
    const { app } = await track(build());
    const options = await app.inject({
      method: "OPTIONS",
      url: "/api/thing",
      headers: { origin: ALLOWED, "access-control-request-method": "GET" },
    });
    expect(options.statusCode).toBe(404);
    expect(corsHeaders(options)).toEqual([]);
    const guarded = await app.inject({ method: "GET", url: "/api/thing", headers: { origin: ALLOWED } });
    expect(guarded.statusCode).toBe(401);
    expect(corsHeaders(guarded)).toEqual([]);
  });

  it("with no allowed origins nothing is added, and no preflight route exists", async () => {
    const { app } = await track(build({ allowedOrigins: [] }));
    const res = await app.inject({
      method: "POST",
      url: "/oidc/token",
      headers: { origin: ALLOWED, ...FORM },
    });
    expect(corsHeaders(res)).toEqual([]);
    expect(res.headers.vary).toBeUndefined();
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/oidc/token",
      headers: { origin: ALLOWED, "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(404);
  });
});
