import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * REST reads may start from a cached caller (resolveCachedContext); the request's first tenant
 * transaction confirms it in the statement that sets the tenant and role. Two instances share one
 * database (PostgreSQL with DATABASE_URL — the production shape — else PGlite) and Redis; a change
 * made through instance A is refused by instance B on the very next request, although B had the
 * caller cached.
 */

const REDIS_URL = "redis://127.0.0.1:6379";
let a: TestApp;
let b: TestApp;
let tenantId: string;
let admin: SeededUser;
let statements: string[] = [];
let counting = false;

beforeAll(async () => {
  a = await createTestApp({
    env: { REDIS_URL },
    onQuery: (sql) => {
      if (counting) statements.push(sql);
    },
  });
  b = await createTestApp({ env: { REDIS_URL }, db: a.db });
  tenantId = (await a.createTenant()).id;
  admin = await a.createUser(tenantId, "admin");
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});
beforeEach(async () => {
  await a.outbox.drain();
  await b.outbox.drain();
});

const accounts = (app: TestApp, who: { cookie: string } | { headers: Record<string, string> }) =>
  app.app.inject({
    method: "GET",
    url: "/finance/accounts",
    headers: "cookie" in who ? { cookie: who.cookie } : who.headers,
  });

/** The statements one request sends (outbox events of earlier work dispatched first). */
const statementsOf = async (send: () => Promise<{ statusCode: number }>) => {
  await a.outbox.drain();
  statements = [];
  counting = true;
  try {
    expect((await send()).statusCode).toBe(200);
  } finally {
    counting = false;
  }
  return statements;
};

/** The role createUser gave a user (it holds exactly the permissions asked for). */
const roleOf = (user: SeededUser) =>
  a.db.withTenant(tenantId, async (tx) => {
    const link = await tx.userRole.findFirstOrThrow({ where: { tenantId, userId: user.id } });
    return link.roleId;
  });

describe("GET /finance/accounts", () => {
  it("is one transaction of 2 statements once the caller is cached: the caller is confirmed in the statement that scopes it", async () => {
    const reader = await a.createUser(tenantId, ["accounts:read:all"]);
    const cold = await statementsOf(() => accounts(b, reader));
    const warm = await statementsOf(() => accounts(b, reader));
    // The list page is read without the ORM (db.rawTx.withTenant, read only): the scoping statement
    // and the page are reported (one transaction: on PostgreSQL one round trip),
    // the page carries its total (count(*) OVER ()). Cold: the caller by its token hash first (one
    // statement, no transaction), the session's last access (decision 0055: once per session a minute
    // on each instance; here it only reads the stored time, written at sign-in), then the read.
    // The last access is a system transaction of its own: its scoping statement and the update.
    expect(cold).toHaveLength(5);
    expect(cold[0]).toContain("hisob_resolve_caller");
    expect(cold[1]).toContain("set_config('role', 'hisob_system'");
    expect(cold[2]).toContain("UPDATE sessions SET last_access_at");
    expect(cold[3]).not.toContain("hisob_resolve_caller");
    // Warm: no statement before the transaction; its scoping statement also resolves the caller.
    expect(warm).toHaveLength(2);
    expect(warm[0]).toMatch(/set_config\('role'.*hisob_resolve_caller/s);
    expect(warm[1]).toMatch(/FROM "money_accounts"/);
    expect(warm[1]).toMatch(/count\(\*\) OVER \(\)/);
  });
});

describe("a change through instance A is refused by instance B on the very next request", () => {
  it("a session ended", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all"]);
    expect((await accounts(b, user)).statusCode).toBe(200);
    expect((await accounts(b, user)).statusCode).toBe(200);
    expect(await a.services.auth.logout(user.token)).toBe(true);
    const refused = await accounts(b, user);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
    // And so is the same token as a bearer.
    expect((await accounts(b, { headers: user.headers })).statusCode).toBe(401);
  });

  it("a user deactivated", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all"]);
    expect((await accounts(b, { headers: user.headers })).statusCode).toBe(200);
    const deactivated = await a.app.inject({
      method: "PUT",
      url: `/users/${user.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await accounts(b, { headers: user.headers })).statusCode).toBe(401);
    expect((await accounts(b, { cookie: user.cookie })).statusCode).toBe(401);
  });

  it("a permission removed from the user's role (403), and granted again (200)", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all", "users:read:all"]);
    const roleId = await roleOf(user);
    expect((await accounts(b, user)).statusCode).toBe(200);
    const removed = await a.app.inject({
      method: "DELETE",
      url: `/roles/${roleId}/permissions/accounts:read:all`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    const refused = await accounts(b, user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: "FORBIDDEN" } });

    // B now has the narrower caller cached; a grant through A counts at once too.
    expect((await accounts(b, user)).statusCode).toBe(403);
    const granted = await a.app.inject({
      method: "POST",
      url: `/roles/${roleId}/permissions`,
      headers: admin.headers,
      payload: { permissions: ["accounts:read:all"] },
    });
    expect(granted.statusCode).toBe(200);
    expect((await accounts(b, user)).statusCode).toBe(200);
  });

  it("a tenant deactivated", async () => {
    const platform = await a.createTenant("Platform", { platform: true });
    const platformAdmin = await a.createUser(platform.id, "admin");
    const other = (await a.createTenant()).id;
    const user = await a.createUser(other, ["accounts:read:all"]);
    expect((await accounts(b, user)).statusCode).toBe(200);
    const deactivated = await a.app.inject({
      method: "PUT",
      url: `/tenants/${other}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await accounts(b, user)).statusCode).toBe(401);
  });
});

describe("a posting (a driver transaction, raw-tenant.ts) confirms its cached caller too", () => {
  it("a permission removed: the posting is refused (403) and writes nothing; granted again, it posts once", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all", "payments:create:all"]);
    const roleId = await roleOf(user);
    const account = await a.app.inject({
      method: "POST",
      url: "/finance/accounts",
      headers: admin.headers,
      payload: { name: `Cached caller ${user.id}`, currency: "UZS" },
    });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = account.json().id as string;
    const pay = () =>
      b.app.inject({
        method: "POST",
        url: "/finance/payments",
        headers: { cookie: user.cookie },
        payload: { accountId, amount: "250", date: "2026-11-25" },
      });
    const paymentsOnAccount = () =>
      a.db.withTenant(tenantId, (tx) => tx.payment.count({ where: { accountId } }));
    // B caches the caller, then posts with it.
    expect((await accounts(b, user)).statusCode).toBe(200);
    expect((await pay()).statusCode).toBe(201);
    const removed = await a.app.inject({
      method: "DELETE",
      url: `/roles/${roleId}/permissions/payments:create:all`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    const refused = await pay();
    expect(refused.statusCode).toBe(403);
    expect(await paymentsOnAccount()).toBe(1);
    const granted = await a.app.inject({
      method: "POST",
      url: `/roles/${roleId}/permissions`,
      headers: admin.headers,
      payload: { permissions: ["payments:create:all"] },
    });
    expect(granted.statusCode).toBe(200);
    // Whether B learns of the change from the invalidation or from the posting's own scoping
    // statement (which then rolls back the statement it carried and the request runs again), the
    // payment is posted exactly once.
    expect((await pay()).statusCode).toBe(201);
    expect(await paymentsOnAccount()).toBe(2);
  });
});

/*
 * tRPC and GraphQL start from the cached caller too, confirming it per operation
 * (docs/decisions/0090-transports-at-baseline.md): a query runs again with the caller resolved afresh
 * if it changed; a mutation has its caller confirmed before it runs.
 */
const trpcAccounts = (app: TestApp, user: { cookie: string }) =>
  app.app.inject({ method: "GET", url: "/trpc/accounts.list", headers: { cookie: user.cookie } });
const graphqlAccounts = (app: TestApp, user: { cookie: string }) =>
  app.app.inject({
    method: "POST",
    url: "/api/graphql",
    headers: { cookie: user.cookie, "content-type": "application/json" },
    payload: { query: "query { moneyAccounts { total data { id name } } }" },
  });
const graphqlCode = (response: { json(): unknown }) =>
  (response.json() as { errors?: Array<{ extensions?: { code?: string } }> }).errors?.[0]?.extensions?.code ??
  "OK";

describe.each([
  { transport: "tRPC", read: trpcAccounts },
  { transport: "GraphQL", read: graphqlAccounts },
])("$transport reads start from the cached caller", ({ transport, read }) => {
  const outcome = async (app: TestApp, user: { cookie: string }) => {
    const response = await read(app, user);
    if (transport === "tRPC") return response.statusCode;
    return graphqlCode(response);
  };
  const ok = transport === "tRPC" ? 200 : "OK";

  it("warm: one transaction of 2 statements, the caller confirmed in the statement that scopes it", async () => {
    const reader = await a.createUser(tenantId, ["accounts:read:all"]);
    await statementsOf(() => read(b, reader));
    const warm = await statementsOf(() => read(b, reader));
    expect(warm).toHaveLength(2);
    expect(warm[0]).toMatch(/set_config\('role'.*hisob_resolve_caller/s);
    expect(warm[1]).toMatch(/FROM "money_accounts"/);
  });

  it("a session ended through A is refused by B on the very next request", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all"]);
    expect(await outcome(b, user)).toBe(ok);
    expect(await outcome(b, user)).toBe(ok);
    expect(await a.services.auth.logout(user.token)).toBe(true);
    expect(await outcome(b, user)).toBe(transport === "tRPC" ? 401 : "UNAUTHENTICATED");
  });

  it("a permission removed through A (refused), and granted again (served)", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all", "users:read:all"]);
    const roleId = await roleOf(user);
    expect(await outcome(b, user)).toBe(ok);
    const removed = await a.app.inject({
      method: "DELETE",
      url: `/roles/${roleId}/permissions/accounts:read:all`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(await outcome(b, user)).toBe(transport === "tRPC" ? 403 : "FORBIDDEN");
    // B now has the narrower caller cached; a grant through A counts at once too.
    expect(await outcome(b, user)).toBe(transport === "tRPC" ? 403 : "FORBIDDEN");
    const granted = await a.app.inject({
      method: "POST",
      url: `/roles/${roleId}/permissions`,
      headers: admin.headers,
      payload: { permissions: ["accounts:read:all"] },
    });
    expect(granted.statusCode).toBe(200);
    expect(await outcome(b, user)).toBe(ok);
  });

  it("a mutation runs with its caller confirmed first: a permission removed is refused and writes nothing", async () => {
    const user = await a.createUser(tenantId, ["accounts:read:all", "payments:create:all"]);
    const roleId = await roleOf(user);
    const account = await a.app.inject({
      method: "POST",
      url: "/finance/accounts",
      headers: admin.headers,
      payload: { name: `Cached ${transport} ${user.id}`, currency: "UZS" },
    });
    expect(account.statusCode, account.body).toBe(201);
    const accountId = account.json().id as string;
    const pay = () =>
      transport === "tRPC"
        ? b.app.inject({
            method: "POST",
            url: "/trpc/payments.create",
            headers: { cookie: user.cookie, "content-type": "application/json" },
            payload: { accountId, amount: "250", date: "2026-11-25" },
          })
        : b.app.inject({
            method: "POST",
            url: "/api/graphql",
            headers: { cookie: user.cookie, "content-type": "application/json" },
            payload: {
              query: `mutation { createPayment(input: { accountId: "${accountId}", amount: "250", date: "2026-11-25" }) { id } }`,
            },
          });
    const paymentsOnAccount = () =>
      a.db.withTenant(tenantId, (tx) => tx.payment.count({ where: { accountId } }));
    // B caches the caller with a read, then posts with it.
    expect(await outcome(b, user)).toBe(ok);
    const first = await pay();
    expect(first.statusCode, first.body).toBe(200);
    if (transport === "GraphQL") expect(graphqlCode(first)).toBe("OK");
    expect(await paymentsOnAccount()).toBe(1);
    const removed = await a.app.inject({
      method: "DELETE",
      url: `/roles/${roleId}/permissions/payments:create:all`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    const refused = await pay();
    if (transport === "tRPC") expect(refused.statusCode).toBe(403);
    else expect(graphqlCode(refused)).toBe("FORBIDDEN");
    expect(await paymentsOnAccount()).toBe(1);
  });
});
