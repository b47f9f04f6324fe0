import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createCoreBudgets, createMemoryThrottleStore, type PasswordVerifier } from "@hisob/core";
import { verifyAgainstDummy, verifyPassword } from "@hisob/kernel";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisThrottleStore } from "./redis";
import { MALFORMED_MULTIPART } from "./testing/malformed-multipart";
import { createTestApp, type SeededUser, TEST_PASSWORD, type TestApp } from "./testing/test-app";

/*
 * Regression tests for the defects two adversarial probes found, each through
 * the real HTTP stack, on whichever database the run uses (PGlite, or PostgreSQL with DATABASE_URL).
 * Each test failed before its fix.
 */

const TODAY = "2026-11-22";
const YEAR_ZERO = "0000-01-01";
const MISSING_ID = "01900000-0000-7000-8000-000000000000";

/** A password verifier that counts how many passwords were really checked. */
const countingPasswords = () => {
  const counter = { checks: 0 };
  const passwords: PasswordVerifier = {
    verify: async (hash, password) => {
      counter.checks += 1;
      return verifyPassword(hash, password);
    },
    verifyDummy: async (password) => {
      counter.checks += 1;
      return verifyAgainstDummy(password);
    },
  };
  return { counter, passwords };
};

let t: TestApp;
let checks: { checks: number };
let tenantA: string;
let tenantB: string;
let adminA: SeededUser;
let adminB: SeededUser;

type Res = {
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  json(): any;
};

const call = (
  who: SeededUser | null,
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url,
    ...(who ? { headers: who.headers } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  }) as Promise<Res>;

const expectError = (res: Res, status: number, reason?: string) => {
  expect(res.statusCode, res.body).toBe(status);
  if (reason) expect(res.json().error.reason, res.body).toBe(reason);
};

const login = (email: string, password: string, ip = "10.0.0.1") =>
  t.app.inject({
    method: "POST",
    url: "/auth/login",
    payload: { email, password },
    remoteAddress: ip,
  }) as Promise<Res>;

beforeAll(async () => {
  const counting = countingPasswords();
  checks = counting.counter;
  t = await createTestApp({ services: { passwords: counting.passwords } });
  tenantA = (await t.createTenant("Probe A")).id;
  tenantB = (await t.createTenant("Probe B")).id;
  adminA = await t.createUser(tenantA, "admin");
  adminB = await t.createUser(tenantB, "admin");
  for (const admin of [adminA, adminB]) {
    expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] })).statusCode).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
});

describe("users:update:all cannot take over an account that holds more", () => {
  it("refuses another user's password, email and active flag when that user holds more, and changes nothing", async () => {
    const editor = await t.createUser(tenantA, ["users:read:all", "users:update:all"]);
    for (const change of [
      { password: "Hijacked12345!" },
      { email: "attacker@example.com" },
      { active: false },
    ]) {
      expectError(await call(editor, "PUT", `/users/${adminA.id}`, change), 403, "user.outranks_you");
    }
    // The administrator still signs in with the old password, under the old email, and is active.
    const res = await login(adminA.email, adminA.password, "10.1.0.1");
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(adminA, "GET", "/account")).statusCode).toBe(200);
  });

  it("refuses it on the platform administrator too: no POST /tenants for a users:update:all holder", async () => {
    const platform = await t.createTenant("Platform probe", { platform: true });
    const platformAdmin = await t.createUser(platform.id, "admin");
    const editor = await t.createUser(platform.id, ["users:read:all", "users:update:all"]);
    expectError(
      await call(editor, "PUT", `/users/${platformAdmin.id}`, { password: "Hijacked12345!" }),
      403,
      "user.outranks_you",
    );
    expect((await login(platformAdmin.email, "Hijacked12345!", "10.1.0.2")).statusCode).toBe(401);
  });

  it("refuses deleting or demoting a user who holds more", async () => {
    const editor = await t.createUser(tenantA, ["users:read:all", "users:update:all", "users:delete:all"]);
    expectError(await call(editor, "DELETE", `/users/${adminA.id}`), 403, "user.outranks_you");
    const account = await call(adminA, "GET", "/account");
    const roleId = account.json().roles[0].id;
    expectError(
      await call(editor, "DELETE", `/users/${adminA.id}/roles/${roleId}`),
      403,
      "user.outranks_you",
    );
  });

  it("still lets an editor reset the password of a user who holds less, ending that user's sessions", async () => {
    const editor = await t.createUser(tenantA, ["users:read:all", "users:update:all"]);
    const clerk = await t.createUser(tenantA, ["users:read:own"]);
    const res = await call(editor, "PUT", `/users/${clerk.id}`, { password: "A-new-passw0rd!" });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(clerk, "GET", "/account")).statusCode).toBe(401);
    expect((await login(clerk.email, "A-new-passw0rd!", "10.1.0.3")).statusCode).toBe(200);
  });

  it("ends the sessions of a user whose email an administrator changes", async () => {
    const clerk = await t.createUser(tenantA, ["users:read:own"]);
    const email = `moved.${Date.now()}@example.com`;
    expect((await call(adminA, "PUT", `/users/${clerk.id}`, { email })).statusCode).toBe(200);
    expect((await call(clerk, "GET", "/account")).statusCode).toBe(401);
  });

  it("refuses one's own password through PUT /users/:id: the current password is needed (PUT /account)", async () => {
    const editor = await t.createUser(tenantA, ["users:read:all", "users:update:all"]);
    expectError(
      await call(editor, "PUT", `/users/${editor.id}`, { password: "Hijacked12345!" }),
      403,
      "user.own_password_needs_current",
    );
    expect((await login(editor.email, editor.password, "10.1.0.4")).statusCode).toBe(200);
  });
});

describe("the sign-in budget holds against parallel guesses", () => {
  it("checks at most 5 of 40 parallel guesses, and the right one among them cannot get through after", async () => {
    const victim = await t.createUser(tenantA, []);
    const before = checks.checks;
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? victim.password : `Wrong-guess-${i}`));
    const results = await Promise.all(guesses.map((guess) => login(victim.email, guess, "10.2.0.1")));
    const statuses = results.map((res) => res.statusCode);
    expect(checks.checks - before).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(35);
    // Whichever order they ran in, once the budget is spent the right password is refused too.
    if (!statuses.includes(200)) {
      expect((await login(victim.email, victim.password, "10.2.0.1")).statusCode).toBe(429);
    }
  });

  it("checks at most 5 of 200 parallel guesses", async () => {
    const victim = await t.createUser(tenantA, []);
    const before = checks.checks;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => login(victim.email, `Wrong-guess-${i}`, "10.2.0.2")),
    );
    expect(checks.checks - before).toBeLessThanOrEqual(5);
    expect(results.filter((res) => res.statusCode === 401).length).toBeLessThanOrEqual(5);
    const limited = results.find((res) => res.statusCode === 429);
    expect(limited?.headers["retry-after"]).toBeDefined();
    expect((await login(victim.email, victim.password, "10.2.0.2")).statusCode).toBe(429);
  });

  it("shares one budget between two instances through Redis", async () => {
    const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const prefix = `hisob-test:attempts:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
    const log = { warn: () => {} };
    const counting = countingPasswords();
    const apps = [
      await createTestApp({
        services: {
          passwords: counting.passwords,
          throttleStore: createRedisThrottleStore(redis, { prefix, log }),
        },
      }),
      await createTestApp({
        services: {
          passwords: counting.passwords,
          throttleStore: createRedisThrottleStore(redis, { prefix, log }),
        },
      }),
    ];
    try {
      const email = "shared.victim@example.com";
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          apps[i % 2]?.app.inject({
            method: "POST",
            url: "/auth/login",
            payload: { email, password: `Wrong-guess-${i}` },
            remoteAddress: "10.2.0.3",
          }),
        ),
      );
      expect(counting.counter.checks).toBeLessThanOrEqual(5);
      expect(results.filter((res) => res?.statusCode === 429).length).toBeGreaterThanOrEqual(35);
    } finally {
      for (const app of apps) await app.close();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  it("answers from memory when Redis cannot (each instance still limits)", async () => {
    const redis = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    redis.on("error", () => {});
    const budgets = createCoreBudgets(
      { now: () => new Date("2026-11-22T10:00:00Z") },
      createRedisThrottleStore(redis, { log: { warn: () => {} } }),
    );
    const outcomes = [];
    for (let i = 0; i < 6; i++) {
      const reservation = await budgets.login.reserve("x|ip");
      outcomes.push(reservation.ok);
      if (reservation.ok) await reservation.keep();
    }
    expect(outcomes).toEqual([true, true, true, true, true, false]);
    redis.disconnect();
  });

  it("the memory store keeps parallel reservations atomic and gives released ones back", async () => {
    const budgets = createCoreBudgets(
      { now: () => new Date("2026-11-22T10:00:00Z") },
      createMemoryThrottleStore(),
    );
    // Twenty in parallel: ten reserved at once, each kept as it settles; the other ten are refused.
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const reservation = await budgets.emailTaken.reserve("k");
        if (reservation.ok) await reservation.keep();
        return reservation.ok;
      }),
    );
    expect(outcomes.filter(Boolean).length).toBe(10);
    // A released reservation gives its place back.
    const other = await budgets.emailTaken.reserve("other");
    if (other.ok) await other.release();
    const again = await budgets.emailTaken.reserve("other");
    expect(again.ok).toBe(true);
  });
});

describe("no sign-in through a cross-site form", () => {
  it("refuses a form-encoded POST /auth/login from another site and sets no cookie", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" },
      payload: `email=${encodeURIComponent(adminA.email)}&password=${encodeURIComponent(adminA.password)}`,
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("refuses a text/plain body shaped like JSON and sets no cookie", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "text/plain", origin: "http://evil.example" },
      payload: JSON.stringify({ email: adminA.email, password: adminA.password }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});

describe("malformed multipart is the client's error, never a 500", () => {
  it.each(
    MALFORMED_MULTIPART.map((sample) => [sample.name, sample] as const),
  )("%s", async (_name, sample) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/uploads",
      headers: { ...adminA.headers, "content-type": sample.contentType },
      payload: sample.body,
    });
    expect([400, 413, 415], res.body).toContain(res.statusCode);
    expect(res.json().error.code).toBe("VALIDATION_ERROR");
    const list = await call(adminA, "GET", "/uploads");
    expect(list.json().items.filter((item: { name: string }) => item.name === "probe.bin")).toEqual([]);
  });
});

describe("partial files of interrupted uploads are swept", () => {
  it("removes partial files nobody wrote to for an hour, and keeps fresh ones", async () => {
    const dir = path.join(t.uploadsDir, tenantA);
    mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, ".partial-0190aaaa-0000-7000-8000-000000000001");
    const fresh = path.join(dir, ".partial-0190aaaa-0000-7000-8000-000000000002");
    writeFileSync(stale, Buffer.alloc(4096));
    writeFileSync(fresh, Buffer.alloc(4096));
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    expect(await t.services.uploads.sweepStalePartials()).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });
});

describe("avatars, upload names and report filters stay within the tenant", () => {
  const uploadFile = async (who: SeededUser, filename: string) => {
    const boundary = "----probe";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from("hello"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/uploads",
      headers: { ...who.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().items[0] as { id: string; name: string; contentUrl: string };
  };

  it("refuses an avatar that is another tenant's upload, and takes one's own", async () => {
    const theirs = await uploadFile(adminB, "b.txt");
    const res = await call(adminA, "PUT", "/account", { avatarUrl: theirs.contentUrl });
    expectError(res, 400, "user.unknown_avatar_upload");
    expect(res.json().error.issues.map((issue: { path: string }) => issue.path)).toContain("avatarUrl");
    const clerk = await t.createUser(tenantA, []);
    expectError(
      await call(adminA, "PUT", `/users/${clerk.id}`, { avatarUrl: theirs.contentUrl }),
      400,
      "user.unknown_avatar_upload",
    );
    const mine = await uploadFile(adminA, "a.txt");
    expect((await call(adminA, "PUT", "/account", { avatarUrl: mine.contentUrl })).statusCode).toBe(200);
  });

  it("strips bidirectional controls from upload names", async () => {
    const item = await uploadFile(adminA, "invoice\u202Efdp.exe");
    expect(item.name).toBe("invoicefdp.exe");
  });

  it("answers 404 for another tenant's account in the income statement and the cash flow", async () => {
    const account = await call(adminB, "POST", "/finance/accounts", { name: "B cash", currency: "UZS" });
    expect(account.statusCode, account.body).toBe(201);
    const theirs = account.json().id;
    for (const report of ["income-statement", "cashflow"]) {
      const url = `/finance/reports/${report}?startDate=2026-01-01&endDate=2026-12-31&accountId=${theirs}`;
      expectError(await call(adminA, "GET", url), 404);
      expectError(await call(adminA, "GET", url.replace(report, `${report}/export`)), 404);
    }
  });
});

describe("dates outside what the books hold are refused, never a 500", () => {
  type JsonSchema = {
    $ref?: string;
    format?: string;
    anyOf?: JsonSchema[];
    oneOf?: JsonSchema[];
    properties?: Record<string, JsonSchema>;
  };
  type Operation = {
    parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
    requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  };
  type OpenApi = {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, JsonSchema> };
  };

  /** Every date parameter and body field the API documents (format "date"), from /openapi.json. */
  const dateInputs = async () => {
    const doc = (await call(null, "GET", "/openapi.json")).json() as OpenApi;
    const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => {
      if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.split("/").pop() ?? ""]);
      return schema;
    };
    const isDate = (schema: JsonSchema | undefined): boolean => {
      const resolved = resolve(schema);
      if (!resolved) return false;
      if (resolved.format === "date") return true;
      return [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].some(isDate);
    };
    const found: Array<{ method: string; url: string; field: string; where: "query" | "body" }> = [];
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const url = route.replace(/\{[^}]+\}/g, MISSING_ID);
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === "query" && isDate(parameter.schema)) {
            found.push({ method: method.toUpperCase(), url, field: parameter.name, where: "query" });
          }
        }
        const body = resolve(operation.requestBody?.content?.["application/json"]?.schema);
        for (const [field, schema] of Object.entries(body?.properties ?? {})) {
          if (isDate(schema)) found.push({ method: method.toUpperCase(), url, field, where: "body" });
        }
      }
    }
    return found;
  };

  it("refuses year 0000 in every documented date field and filter, naming the field", async () => {
    const inputs = await dateInputs();
    // Payments, expenses, exchanges, transfers, debts, settlements, inventory movements, the list
    // filters, the three reports and the downloads: the corpus comes from the API itself.
    expect(inputs.length).toBeGreaterThanOrEqual(16);
    for (const input of inputs) {
      const res =
        input.where === "query"
          ? await call(adminA, input.method as "GET", `${input.url}?${input.field}=${YEAR_ZERO}`)
          : await call(adminA, input.method as "POST", input.url, { [input.field]: YEAR_ZERO });
      const label = `${input.method} ${input.url} ${input.field}`;
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 400) {
        const paths = res.json().error.issues?.map((issue: { path: string }) => issue.path) ?? [];
        expect(paths, label).toContain(input.field);
      } else {
        // Only a missing path id may answer first (404), before the body is read.
        expect(res.statusCode, `${label}: ${res.body}`).toBe(404);
      }
    }
  });

  it("refuses year 0000 in a complete payment, names the bounds, and writes nothing", async () => {
    const account = (
      await call(adminA, "POST", "/finance/accounts", { name: "Y0 cash", currency: "UZS" })
    ).json();
    for (const date of [YEAR_ZERO, "0000-02-29", "1899-12-31"]) {
      const res = await call(adminA, "POST", "/finance/payments", {
        accountId: account.id,
        amount: "100",
        date,
      });
      expectError(res, 400);
      expect(res.json().error.issues[0]).toEqual({
        path: "date",
        message: "must be a date from 1900-01-01 to 9999-12-31",
      });
    }
    const list = await call(adminA, "GET", `/finance/payments?accountId=${account.id}`);
    expect(list.json().total).toBe(0);
    expect(
      (await call(adminA, "POST", "/finance/payments", { accountId: account.id, amount: "100", date: TODAY }))
        .statusCode,
    ).toBe(201);
  });

  it("fails a download before its first byte: a 400 with the error envelope, not a cut 200", async () => {
    for (const url of [
      `/finance/payments/export?from=${YEAR_ZERO}`,
      `/finance/reports/cashflow/export?startDate=${YEAR_ZERO}&endDate=${TODAY}`,
    ]) {
      const res = await call(adminA, "GET", url);
      expectError(res, 400);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
    }
  });

  it("refuses year 0000 over tRPC (payments.create, reports.cashflow) as BAD_REQUEST", async () => {
    const create = await t.app.inject({
      method: "POST",
      url: "/trpc/payments.create",
      headers: adminA.headers,
      payload: { accountId: MISSING_ID, amount: "100", date: YEAR_ZERO },
    });
    expect(create.statusCode, create.body).toBe(400);
    const input = encodeURIComponent(JSON.stringify({ startDate: YEAR_ZERO, endDate: TODAY }));
    const cashflow = await t.app.inject({
      method: "GET",
      url: `/trpc/reports.cashflow?input=${input}`,
      headers: adminA.headers,
    });
    expect(cashflow.statusCode, cashflow.body).toBe(400);
  });
});

describe("the current password is no oracle", () => {
  it("checks at most 5 of 40 concurrent guesses, then answers 429 and signs the session out", async () => {
    const victim = await t.createUser(tenantA, []);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(victim, "PUT", "/account", {
          currentPassword: `Wrong-${i}`,
          newPassword: "Brand-new-passw0rd!",
        }),
      ),
    );
    const wrong = results.filter((res) => res.statusCode === 400);
    expect(wrong.length).toBeLessThanOrEqual(5);
    for (const res of wrong) expect(res.json().error.reason).toBe("account.wrong_current_password");
    const limited = results.filter((res) => res.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(35);
    expect(limited[0]?.json().error.reason).toBe("account.too_many_password_attempts");
    expect(limited[0]?.headers["retry-after"]).toBeDefined();
    // The session that guessed is over; the password did not change.
    expect((await call(victim, "GET", "/account")).statusCode).toBe(401);
    expect((await login(victim.email, TEST_PASSWORD, "10.3.0.1")).statusCode).toBe(200);
  });
});

describe("core text fields refuse control characters and lone surrogates", () => {
  // [label, value, whether a multi-line field (a description) may keep it]
  const HOSTILE: Array<[string, string, boolean]> = [
    ["CR LF", "Bob\r\nInjected: yes", true],
    ["ESC", "Bob\u001b[31m", false],
    ["BEL", "Bob\u0007", false],
    ["a lone surrogate", "Bob\ud800", false],
    ["a right-to-left override", "Bob\u202Egnp", false],
  ];

  it.each(HOSTILE)("refuses %s in every core name and description", async (_label, value, multiLineOk) => {
    const cases: Array<[string, "POST" | "PUT", string, Record<string, unknown>]> = [
      ["firstName", "PUT", "/account", { firstName: value }],
      ["lastName", "PUT", "/account", { lastName: value }],
      [
        "firstName",
        "POST",
        "/users",
        { email: `x${Date.now()}@example.com`, firstName: value, lastName: "X" },
      ],
      ["lastName", "PUT", `/users/${adminA.id}`, { lastName: value }],
      ["name", "POST", "/roles", { name: value, permissions: [] }],
      [
        "description",
        "POST",
        "/roles",
        { name: `r${Date.now()}`, description: `a${value}`, permissions: [] },
      ],
      ["name", "POST", "/groups", { name: value }],
      ["description", "POST", "/groups", { name: `g${Date.now()}`, description: `a${value}` }],
    ];
    for (const [field, method, url, payload] of cases) {
      if (multiLineOk && field === "description") continue;
      const res = await call(adminA, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().error.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
    expect((await call(adminA, "GET", "/account")).json().firstName).not.toContain("Bob");
  });

  it("keeps line breaks in descriptions (multi-line fields)", async () => {
    const res = await call(adminA, "POST", "/roles", {
      name: `Multi ${Date.now()}`,
      description: "First line\nSecond line",
      permissions: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().description).toBe("First line\nSecond line");
  });
});

describe("the :own scope narrows a createdBy filter, never replaces it", () => {
  it("gives an own reader nothing when they ask for someone else's payments (list, export, tRPC)", async () => {
    const account = (
      await call(adminA, "POST", "/finance/accounts", { name: "Own cash", currency: "UZS" })
    ).json();
    const clerk = await t.createUser(tenantA, [
      "payments:read:own",
      "payments:create:all",
      "accounts:read:all",
    ]);
    const mine = await call(clerk, "POST", "/finance/payments", {
      accountId: account.id,
      amount: "5",
      date: TODAY,
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(
      (await call(adminA, "POST", "/finance/payments", { accountId: account.id, amount: "7", date: TODAY }))
        .statusCode,
    ).toBe(201);

    const others = await call(clerk, "GET", `/finance/payments?createdBy=${adminA.id}`);
    expect(others.statusCode).toBe(200);
    expect(others.json()).toMatchObject({ items: [], total: 0 });
    const own = await call(clerk, "GET", `/finance/payments?createdBy=${clerk.id}`);
    expect(own.json().items.map((item: { id: string }) => item.id)).toEqual([mine.json().id]);

    const input = encodeURIComponent(JSON.stringify({ createdBy: adminA.id }));
    const trpc = await t.app.inject({
      method: "GET",
      url: `/trpc/payments.list?input=${input}`,
      headers: clerk.headers,
    });
    expect(trpc.statusCode, trpc.body).toBe(200);
    expect(trpc.json().result.data).toMatchObject({ items: [], total: 0 });

    const download = await call(clerk, "GET", `/finance/payments/export?createdBy=${adminA.id}`);
    expect(download.statusCode).toBe(200);
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.rowCount).toBe(1); // the header row alone
  });
});

describe("'email taken' answers are budgeted per caller", () => {
  it("answers 10 conflicts an hour, then 429 whether or not the email exists", async () => {
    const admin = await t.createUser(tenantA, "admin");
    const taken = adminB.email; // another tenant's user: emails are unique platform-wide
    for (let i = 0; i < 10; i++) {
      expectError(
        await call(admin, "POST", "/users", { email: taken, firstName: "X", lastName: "Y" }),
        409,
        "user.email_taken",
      );
    }
    const limited = await call(admin, "POST", "/users", { email: taken, firstName: "X", lastName: "Y" });
    expectError(limited, 429, "user.too_many_email_checks");
    expectError(
      await call(admin, "POST", "/users", {
        email: `free.${Date.now()}@example.com`,
        firstName: "X",
        lastName: "Y",
      }),
      429,
      "user.too_many_email_checks",
    );
    // Another caller has a budget of their own; a create that conflicts with nothing costs nothing.
    for (let i = 0; i < 12; i++) {
      const res = await call(adminA, "POST", "/users", {
        email: `fresh.${i}.${Date.now()}@example.com`,
        firstName: "F",
        lastName: "G",
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
});
