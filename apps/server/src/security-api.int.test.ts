import { createAttemptBudget, createCoreBudgets, createMemoryThrottleStore } from "@hisob/core";
import { SIGN_IN_FAILURE_EMAILS } from "@hisob/db";
import { createManualClock } from "@hisob/kernel";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisThrottleStore } from "./redis";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";

/*
 * Regression tests of the REST side of the third security probe, through the real HTTP stack on
 * whichever database the run uses (PGlite, or PostgreSQL with DATABASE_URL). Each failed before its fix.
 */

type Res = Awaited<ReturnType<TestApp["app"]["inject"]>>;

const clock = createManualClock(new Date("2026-11-27T10:01:00Z"));
let t: TestApp;
let platformAdmin: SeededUser;
let platformTenant: string;
let tenantA: string;
let adminA: SeededUser;

const login = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email, password },
    remoteAddress: ip,
    headers,
  });

type AuditItem = {
  tenantId: string | null;
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
  action: string;
  after: Record<string, unknown> | null;
};

const auditOf = async (who: SeededUser, query: string): Promise<{ items: AuditItem[]; total: number }> => {
  const res = await t.app.inject({ method: "GET", url: `/audit?${query}`, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const statusCounts = (results: Res[]) => {
  const counts: Record<number, number> = {};
  for (const res of results) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
};

beforeAll(async () => {
  // Large enough a pool for the concurrency tests on PostgreSQL.
  t = await createTestApp({ clock, poolSize: 12 });
  platformTenant = (await t.createTenant("Platform", { platform: true })).id;
  platformAdmin = await t.createUser(platformTenant, "admin");
  tenantA = (await t.createTenant("Firm A")).id;
  adminA = await t.createUser(tenantA, "admin");
});

afterAll(async () => {
  await t?.close();
});

describe("failed sign-ins cannot flood the audit log", () => {
  it("300 unknown emails from one address: 30 answered 401, the rest 429, and one audit entry that counts them", async () => {
    const ip = "198.51.100.7";
    const userAgent = `flood/${"x".repeat(600)}`;
    const emails = Array.from({ length: 300 }, (_, i) => `${"g".repeat(220)}${i}@nowhere.example`);
    const results: Res[] = [];
    // In parallel waves: parallel guesses must not outrun the budget either.
    for (let wave = 0; wave < 300; wave += 50) {
      results.push(
        ...(await Promise.all(
          emails
            .slice(wave, wave + 50)
            .map((email) => login(email, "whatever-1234", ip, { "user-agent": userAgent })),
        )),
      );
    }
    expect(statusCounts(results)).toEqual({ 401: 30, 429: 270 });
    expect(results.find((res) => res.statusCode === 429)?.headers["retry-after"]).toBeDefined();

    const { items } = await auditOf(platformAdmin, `platform=true&action=sign_in_failed&limit=100`);
    const fromFlood = items.filter((item) => item.ip === ip);
    expect(fromFlood).toHaveLength(1);
    const entry = fromFlood[0];
    expect(entry?.tenantId).toBeNull();
    expect(entry?.userAgent?.length).toBeLessThanOrEqual(256);
    expect(entry?.after).toMatchObject({
      email: emails.find((email) => email === entry?.after?.email),
      reason: "unknown_email",
      failures: 30,
      windowFrom: "2026-11-27T10:00:00.000Z",
      windowTo: "2026-11-27T10:15:00.000Z",
    });
    expect(entry?.after?.emails).toHaveLength(SIGN_IN_FAILURE_EMAILS);
  });

  it("a new window opens a new entry; the budget frees up as failures leave its 15 minutes", async () => {
    const ip = "198.51.100.8";
    for (let i = 0; i < 30; i++)
      expect((await login(`w${i}@nowhere.example`, "x-1234", ip)).statusCode).toBe(401);
    expect((await login("one-more@nowhere.example", "x-1234", ip)).statusCode).toBe(429);
    clock.advance(15 * 60_000);
    expect((await login("later@nowhere.example", "x-1234", ip)).statusCode).toBe(401);
    const { items } = await auditOf(platformAdmin, `platform=true&action=sign_in_failed&limit=100`);
    const counts = items.filter((item) => item.ip === ip).map((item) => item.after?.failures);
    expect(counts).toEqual([1, 30]);
  });

  it("counts a known user's wrong passwords in their organization's log, one entry per address and window", async () => {
    const user = await t.createUser(tenantA, ["users:read:own"]);
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, `Wrong-${i}`, "198.51.100.9")).statusCode).toBe(401);
    const { items } = await auditOf(adminA, `userId=${user.id}&action=sign_in_failed`);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      tenantId: tenantA,
      ip: "198.51.100.9",
      after: { email: user.email, reason: "wrong_password", failures: 3, emails: [user.email] },
    });
  });

  it("a successful sign-in from the address does not reset its failures (one owned account cannot launder guesses)", async () => {
    const ip = "198.51.100.10";
    const owned = await t.createUser(tenantA, ["users:read:own"]);
    for (let i = 0; i < 29; i++)
      expect((await login(`n${i}@nowhere.example`, "x-1234", ip)).statusCode).toBe(401);
    expect((await login(owned.email, owned.password, ip)).statusCode).toBe(200);
    expect((await login("n29@nowhere.example", "x-1234", ip)).statusCode).toBe(401);
    expect((await login("n30@nowhere.example", "x-1234", ip)).statusCode).toBe(429);
    // The address's right password is refused too once its budget is spent.
    expect((await login(owned.email, owned.password, ip)).statusCode).toBe(429);
  });

  it("counts an IPv6 client by its /64: rotating addresses within it does not help", async () => {
    const results: number[] = [];
    for (let i = 0; i < 35; i++) {
      results.push(
        (await login(`v6-${i}@nowhere.example`, "x-1234", `2001:db8:7:7::${(i + 1).toString(16)}`))
          .statusCode,
      );
    }
    expect(results.filter((status) => status === 401)).toHaveLength(30);
    expect(results.slice(30)).toEqual([429, 429, 429, 429, 429]);
  });

  it("the entry's counter can only grow: the database refuses any other change to it, also to its owner", async () => {
    const { items } = await auditOf(adminA, "action=sign_in_failed&limit=100");
    const id = (items as Array<AuditItem & { id: string }>).find((item) => item.ip === "198.51.100.9")?.id;
    expect(id).toBeDefined();
    const entryNow = async () =>
      (await auditOf(adminA, "action=sign_in_failed&limit=100")).items.find(
        (item) => item.ip === "198.51.100.9",
      );
    const before = await entryNow();
    // A superuser (PGlite's) bypasses row-level security and meets the trigger; a plain owner
    // (PostgreSQL here) sees no row to change under FORCEd RLS: either way nothing changes.
    const asOwner = (statement: string, values: unknown[]) =>
      t.db
        .withTenant(tenantA, async (tx) => {
          await tx.$executeRawUnsafe("RESET ROLE");
          return tx.$executeRawUnsafe(statement, ...values);
        })
        .then(
          (rows) => rows,
          (error: unknown) => String(error),
        );
    const asSystem = (statement: string, values: unknown[]) =>
      t.db.rawTx.withSystem((tx) => tx.query(statement, values));
    const forged = [
      `UPDATE audit_log SET after = after || '{"failures": 1}' WHERE id = $1::uuid`,
      `UPDATE audit_log SET after = after || '{"failures": 9, "email": "someone@else.example"}' WHERE id = $1::uuid`,
      `UPDATE audit_log SET after = after || '{"failures": 9, "emails": []}' WHERE id = $1::uuid`,
      `UPDATE audit_log SET after = after || '{"failures": 9}', ip = '192.0.2.1' WHERE id = $1::uuid`,
      "DELETE FROM audit_log WHERE id = $1::uuid",
    ];
    for (const statement of forged) {
      const outcome = await asOwner(statement, [id]);
      if (typeof outcome === "string") expect(outcome).toMatch(/append-only/);
      else expect(outcome).toBe(0);
      await expect(asSystem(statement, [id])).rejects.toThrow(/append-only|permission denied/);
    }
    // Other entries stay untouchable, whatever the change.
    const other = await asOwner(
      `UPDATE audit_log SET after = '{"failures": 2}' WHERE action = 'sign_in'`,
      [],
    );
    if (typeof other === "string") expect(other).toMatch(/append-only/);
    else expect(other).toBe(0);
    expect(await entryNow()).toEqual(before);
    // What the sign-in path does is let through: the counter grows.
    await asSystem(`UPDATE audit_log SET after = after || '{"failures": 4}' WHERE id = $1::uuid`, [id]);
    const after = await auditOf(adminA, "action=sign_in_failed&limit=100");
    expect(after.items.find((item) => item.ip === "198.51.100.9")?.after?.failures).toBe(4);
  });

  it("a tenant transaction cannot write an entry posing as another actor, nor a failed sign-in", async () => {
    const tenantB = (await t.createTenant("Firm B (forgery)")).id;
    const userB = await t.createUser(tenantB, ["users:read:own"]);
    const userA = await t.createUser(tenantA, ["users:read:own"]);
    const insertAsTenantA = (entry: { tenantId: string | null; userId: string | null; action: string }) =>
      t.db
        .withTenant(tenantA, (tx) =>
          tx.$executeRawUnsafe(
            `INSERT INTO audit_log (id, tenant_id, user_id, entity, entity_id, action, after)
             VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'payment', 'p-1', $3, '{"forged": true}')`,
            entry.tenantId,
            entry.userId,
            entry.action,
          ),
        )
        .then(
          (rows) => rows,
          (error: unknown) => String(error),
        );
    const refused = [
      { tenantId: tenantA, userId: userB.id, action: "delete" },
      { tenantId: tenantA, userId: "01234567-89ab-7def-8123-456789abcdef", action: "delete" },
      { tenantId: tenantA, userId: userA.id, action: "sign_in_failed" },
      { tenantId: null, userId: null, action: "sign_in_failed" },
      { tenantId: null, userId: userA.id, action: "update" },
    ];
    for (const entry of refused) {
      expect(await insertAsTenantA(entry), JSON.stringify(entry)).toMatch(/row-level security/);
    }
    // Its own users, and a platform administrator (who acts in every organization), may be named.
    expect(await insertAsTenantA({ tenantId: tenantA, userId: userA.id, action: "delete" })).toBe(1);
    expect(await insertAsTenantA({ tenantId: tenantA, userId: platformAdmin.id, action: "delete" })).toBe(1);
    expect(await insertAsTenantA({ tenantId: tenantA, userId: null, action: "delete" })).toBe(1);
  });

  it("shares the address's budget between two instances through Redis", async () => {
    const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const prefix = `hisob-test:attempts:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
    const second = await createTestApp({
      db: t.db,
      clock,
      services: { throttleStore: createRedisThrottleStore(redis, { prefix, log: { warn: () => {} } }) },
    });
    const first = await createTestApp({
      db: t.db,
      clock,
      services: { throttleStore: createRedisThrottleStore(redis, { prefix, log: { warn: () => {} } }) },
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          (i % 2 ? first : second).app.inject({
            method: "POST",
            url: "/auth/login",
            payload: { email: `shared-${i}@nowhere.example`, password: "x-1234" },
            remoteAddress: "198.51.100.11",
          }),
        ),
      );
      expect(statusCounts(results)).toEqual({ 401: 30, 429: 50 });
    } finally {
      await first.close();
      await second.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});

describe("an account guessed from many networks", () => {
  it("after 20 failures from networks it never signed in from, new networks wait; its user's own network does not", async () => {
    const victim = await t.createUser(tenantA, ["users:read:own"]);
    const home = "192.0.2.44";
    expect((await login(victim.email, victim.password, home)).statusCode).toBe(200);
    // A botnet: every guess from another network, each far inside its own budgets (5 and 30).
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) {
      statuses.push((await login(victim.email, `Guess-${i}`, `198.18.${i}.1`)).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(6).fill(429)]);
    // A new network is refused even with the right password, told when to come back (not locked for good).
    const refused = await login(victim.email, victim.password, "198.18.200.1");
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.reason).toBe("auth.too_many_attempts");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(15 * 60);
    // The user signs in from where they signed in before, while the attack goes on.
    expect((await login(victim.email, victim.password, home)).statusCode).toBe(200);
    // Its wrong password there is still a plain 401 (its own budget of 5), not a lock-out.
    expect((await login(victim.email, "Typo-password", home)).statusCode).toBe(401);
    // The real user's success does not give the attackers their guesses back.
    expect((await login(victim.email, "Guess-again", "198.18.201.1")).statusCode).toBe(429);
    // Once the failures leave the 15 minutes, a new network signs in again.
    clock.advance(15 * 60_000);
    expect((await login(victim.email, victim.password, "198.18.200.1")).statusCode).toBe(200);
  });

  it("other accounts are not held back by one account's budget", async () => {
    const target = await t.createUser(tenantA, ["users:read:own"]);
    const bystander = await t.createUser(tenantA, ["users:read:own"]);
    for (let i = 0; i < 21; i++) await login(target.email, `Guess-${i}`, `198.19.${i}.1`);
    expect((await login(target.email, target.password, "198.19.100.1")).statusCode).toBe(429);
    expect((await login(bystander.email, bystander.password, "198.19.100.1")).statusCode).toBe(200);
  });
});

describe("the client's address behind a reverse proxy", () => {
  it("a client that writes its own X-Forwarded-For each time cannot multiply the sign-in budget", async () => {
    const behindProxy = await createTestApp({ db: t.db, clock, env: { TRUST_PROXY: "true" } });
    try {
      const victim = await t.createUser(tenantA, ["users:read:own"]);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await behindProxy.app.inject({
          method: "POST",
          url: "/auth/login",
          payload: { email: victim.email, password: `Wrong-${i}` },
          // nginx on the same host, `proxy_add_x_forwarded_for`: the client's header, then its address.
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": `10.${i}.${i}.${i}, 203.0.113.50` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      // The failures are recorded under the address nginx saw.
      const { items } = await auditOf(adminA, `userId=${victim.id}&action=sign_in_failed`);
      expect(items.map((item) => [item.ip, item.after?.failures])).toEqual([["203.0.113.50", 5]]);
    } finally {
      await behindProxy.close();
    }
  });

  it("an X-Forwarded-For that is not an address is no fresh budget: the connection's address counts", async () => {
    const behindProxy = await createTestApp({ db: t.db, clock, env: { TRUST_PROXY: "true" } });
    try {
      const victim = await t.createUser(tenantA, ["users:read:own"]);
      const forged = ["foo", "1.2.3.4:80", "[::1]", "x".repeat(2000), "bar", "::1%", "1.2.3", "baz"];
      const statuses: number[] = [];
      for (const value of forged) {
        const res = await behindProxy.app.inject({
          method: "POST",
          url: "/auth/login",
          payload: { email: victim.email, password: "Wrong-password" },
          // No proxy in front: the client talks to the server and writes the header itself.
          remoteAddress: "198.51.100.77",
          headers: { "x-forwarded-for": value },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      const { items } = await auditOf(adminA, `userId=${victim.id}&action=sign_in_failed`);
      expect(items.map((item) => [item.ip, item.after?.failures])).toEqual([["198.51.100.77", 5]]);
    } finally {
      await behindProxy.close();
    }
  });
});

describe("OIDC clients: names follow the text rule, redirect URIs are https, loopback or a native app's scheme", () => {
  const register = (app: TestApp, body: Record<string, unknown>) =>
    app.app.inject({ method: "POST", url: "/oidc-clients", headers: platformAdmin.headers, payload: body });

  it.each([
    ["a right-to-left override", "Partner inv\u202egpj.exe"],
    ["a control character", "Partner\u0007app"],
    ["a line break", "Partner\napp"],
  ])("refuses a client name with %s, on registration and on change", async (_what, name) => {
    const refused = await register(t, { name, redirectUris: ["https://rp.example/cb"] });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe("VALIDATION_ERROR");
    const created = await register(t, { name: "Partner", redirectUris: ["https://rp.example/cb"] });
    expect(created.statusCode, created.body).toBe(201);
    const clientId = created.json().client.clientId as string;
    const changed = await t.app.inject({
      method: "PUT",
      url: `/oidc-clients/${clientId}`,
      headers: platformAdmin.headers,
      payload: { name },
    });
    expect(changed.statusCode, changed.body).toBe(400);
  });

  // [uri, applicationType, accepted outside production, accepted in production]
  const TABLE: Array<[string, "web" | "native", boolean, boolean]> = [
    ["https://rp.example/cb", "web", true, true],
    ["http://evil.example/cb", "web", false, false],
    ["http://localhost/cb", "web", true, false],
    ["http://127.0.0.1/cb", "web", true, false],
    ["http://127.0.0.1/callback", "native", true, true],
    ["http://[::1]/callback", "native", true, true],
    ["http://localhost/callback", "native", false, false],
    ["com.example.app:/cb", "native", true, true],
    ["com.example.app:/cb", "web", false, false],
    ["vbscript:msgbox(1)", "web", false, false],
    ["file:///etc/passwd", "native", false, false],
    ["blob:https://rp.example/0b2d", "web", false, false],
    ["https:evil.example", "web", false, false],
    ["https://*.evil.example/cb", "web", false, false],
    ["https://rp.example/cb#x", "web", false, false],
    ["https://user@rp.example/cb", "web", false, false],
  ];

  it("registers and changes clients by the table, outside production and in production", async () => {
    const production = await createTestApp({ db: t.db, clock, env: { NODE_ENV: "production" } });
    try {
      const outcomes: string[] = [];
      for (const [uri, applicationType, development, inProduction] of TABLE) {
        for (const [app, expected, where] of [
          [t, development, "development"],
          [production, inProduction, "production"],
        ] as const) {
          const isPublic = applicationType === "native";
          const created = await register(app, {
            name: "Table",
            applicationType,
            isPublic,
            redirectUris: [uri],
          });
          const base = await register(app, {
            name: "Table",
            applicationType,
            isPublic,
            redirectUris: ["https://rp.example/base"],
          });
          const changed = await app.app.inject({
            method: "PUT",
            url: `/oidc-clients/${base.json().client.clientId}`,
            headers: platformAdmin.headers,
            payload: { postLogoutRedirectUris: [uri] },
          });
          outcomes.push(`${where} ${applicationType} ${uri}: ${created.statusCode} ${changed.statusCode}`);
          if (expected) continue;
          expect(created.json().error.code, uri).toBe("VALIDATION_ERROR");
        }
      }
      const expected = TABLE.flatMap(([uri, type, development, inProduction]) => [
        `development ${type} ${uri}: ${development ? "201 200" : "400 400"}`,
        `production ${type} ${uri}: ${inProduction ? "201 200" : "400 400"}`,
      ]);
      expect(outcomes).toEqual(expected);
    } finally {
      await production.close();
    }
  });

  it("says what is wrong with a redirect URI in the caller's language", async () => {
    const linguist = await t.createUser(platformTenant, "admin");
    for (const [language, text] of [
      ["en", "must use https; http is only for a loopback address (http://127.0.0.1 or http://[::1])"],
      [
        "ru",
        "должен использовать https; http допустим только для адреса loopback (http://127.0.0.1 или http://[::1])",
      ],
      ["uz", "https boʻlishi kerak; http faqat loopback manzili uchun (http://127.0.0.1 yoki http://[::1])"],
    ] as const) {
      const chosen = await t.app.inject({
        method: "PUT",
        url: "/account",
        headers: linguist.headers,
        payload: { uiLanguage: language },
      });
      expect(chosen.statusCode, chosen.body).toBe(200);
      const res = await t.app.inject({
        method: "POST",
        url: "/oidc-clients",
        headers: linguist.headers,
        payload: { name: "Partner", redirectUris: ["https://rp.example/cb", "http://evil.example/cb"] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        reason: "oidc.redirect_uri_refused",
        issues: [{ path: "redirectUris.1", message: text }],
      });
    }
  });

  it("the accountant app's own client keeps its redirect URIs, in production too", async () => {
    const production = await createTestApp({ db: t.db, clock, env: { NODE_ENV: "production" } });
    try {
      const res = await production.app.inject({
        method: "PUT",
        url: "/oidc-clients/hisob-desktop",
        headers: platformAdmin.headers,
        payload: { applicationType: "native" },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().redirectUris).toEqual([
        "http://localhost:3000/app/callback",
        "http://127.0.0.1/callback",
      ]);
    } finally {
      await production.close();
    }
  });
});

describe("the email-check budget under concurrency", () => {
  it("30 parallel user creations with fresh emails all succeed", async () => {
    const creator = await t.createUser(tenantA, ["users:create:all", "users:read:all"]);
    const stamp = Date.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/users",
          headers: creator.headers,
          payload: { email: `fresh.${stamp}.${i}@firm-a.example`, firstName: "Fresh", lastName: `No ${i}` },
        }),
      ),
    );
    expect(statusCounts(results)).toEqual({ 201: 30 });
  });

  it("parallel probes with taken emails still learn at most 10 answers; a fresh email after them is refused too", async () => {
    const prober = await t.createUser(tenantA, ["users:create:all", "users:read:all"]);
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.app.inject({
          method: "POST",
          url: "/users",
          headers: prober.headers,
          payload: { email: adminA.email, firstName: "Probe", lastName: "Taken" },
        }),
      ),
    );
    expect(statusCounts(results)).toEqual({ 409: 10, 429: 15 });
    const fresh = await t.app.inject({
      method: "POST",
      url: "/users",
      headers: prober.headers,
      payload: { email: `after.${Date.now()}@firm-a.example`, firstName: "After", lastName: "Probe" },
    });
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json().error.reason).toBe("user.too_many_email_checks");
  });
});

describe("attempt budgets: pending reservations hold a place, only kept ones refuse", () => {
  const stores = [
    ["memory", async () => ({ store: createMemoryThrottleStore(), close: async () => {} })],
    [
      "Redis",
      async () => {
        const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
        await redis.connect();
        const prefix = `hisob-test:budget:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
        return {
          store: createRedisThrottleStore(redis, { prefix, log: { warn: () => {} } }),
          close: async () => {
            const keys = await redis.keys(`${prefix}*`);
            if (keys.length > 0) await redis.del(...keys);
            await redis.quit();
          },
        };
      },
    ],
  ] as const;

  it.each(
    stores,
  )("%s: waiters get the places that are given back, and are refused by kept ones", async (_name, open) => {
    const { store, close } = await open();
    try {
      const budgets = createCoreBudgets(createManualClock(new Date("2026-11-27T10:00:00Z")), store);
      const first = await Promise.all(Array.from({ length: 10 }, () => budgets.emailTaken.reserve("k")));
      expect(first.every((reservation) => reservation.ok)).toBe(true);
      // Ten more wait while the first ten are pending.
      let settled = 0;
      const waiting = Array.from({ length: 10 }, () =>
        budgets.emailTaken.reserve("k").then((reservation) => {
          settled += 1;
          return reservation;
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(0);
      // Five places given back, five kept: five waiters get in, the other five are refused.
      for (const [index, reservation] of first.entries()) {
        if (!reservation.ok) continue;
        await (index < 5 ? reservation.release() : reservation.keep());
      }
      // The five that get in keep theirs: the budget is then spent and the other five are refused.
      const second = await Promise.all(
        waiting.map(async (promise) => {
          const reservation = await promise;
          if (reservation.ok) await reservation.keep();
          return reservation.ok;
        }),
      );
      expect(second.filter(Boolean)).toHaveLength(5);
      const after = await budgets.emailTaken.reserve("k");
      expect(after.ok).toBe(false);
      if (!after.ok) expect(after.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
  it.each(
    stores,
  )("%s: a reservation whose lease ran out counts once, from when it was taken, for exactly one window", async (_name, open) => {
    const { store, close } = await open();
    try {
      const t0 = new Date("2026-11-27T10:00:00Z").getTime();
      const leaseClock = createManualClock(new Date(t0));
      const budget = createAttemptBudget({
        clock: leaseClock,
        store,
        prefix: "lease",
        max: 2,
        windowMs: 60_000,
        leaseMs: 1_000,
      });
      const slow = await budget.reserve("k");
      // Its work outlives the lease: the next reservation finds it counted as kept (taken at t0).
      leaseClock.set(new Date(t0 + 2_000));
      const next = await budget.reserve("k");
      expect([slow.ok, next.ok]).toEqual([true, true]);
      if (!slow.ok || !next.ok) return;
      // The slow work ends with a failure after all: it counts once, not twice.
      await slow.keep();
      await next.release();
      const third = await budget.reserve("k");
      expect(third.ok).toBe(true);
      if (third.ok) await third.keep();
      // Two kept (t0 and t0 + 2 s): refused until the one of t0 leaves the window, not earlier.
      leaseClock.set(new Date(t0 + 59_000));
      const early = await budget.reserve("k");
      expect(early).toEqual({ ok: false, retryAfterSeconds: 1 });
      leaseClock.set(new Date(t0 + 60_001));
      const after = await budget.reserve("k");
      expect(after.ok).toBe(true);
      // A reservation given back after its lease ran out is given back too (its work taught nothing).
      if (after.ok) {
        leaseClock.set(new Date(t0 + 61_500));
        // Its lease is over: it counts beside the kept stamp of t0 + 2 s, and the budget is full.
        expect((await budget.reserve("k")).ok).toBe(false);
        await after.release();
        expect((await budget.reserve("k")).ok).toBe(true);
      }
    } finally {
      await close();
    }
  });
  it.each(
    stores,
  )("%s: a network the user signed in from is remembered for 30 days on the budgets' clock", async (_name, open) => {
    const { store, close } = await open();
    try {
      const knownClock = createManualClock(new Date("2026-11-27T10:00:00Z"));
      const { knownNetworks } = createCoreBudgets(knownClock, store);
      expect(await knownNetworks.has("a@firm.example", "192.0.2.1")).toBe(false);
      await knownNetworks.add("a@firm.example", "192.0.2.1");
      expect(await knownNetworks.has("a@firm.example", "192.0.2.1")).toBe(true);
      expect(await knownNetworks.has("a@firm.example", "192.0.2.2")).toBe(false);
      expect(await knownNetworks.has("b@firm.example", "192.0.2.1")).toBe(false);
      knownClock.advance(30 * 24 * 60 * 60_000);
      expect(await knownNetworks.has("a@firm.example", "192.0.2.1")).toBe(false);
    } finally {
      await close();
    }
  });
});
