import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let platformAdmin: SeededUser;
let clientTenantId: string;
let platformTenantId: string;

beforeAll(async () => {
  t = await createTestApp();
  platformTenantId = (await t.createTenant("Platform", { platform: true })).id;
  platformAdmin = await t.createUser(platformTenantId, "admin");
  clientTenantId = (await t.createTenant("Client")).id;
});

afterAll(async () => {
  await t?.close();
});

describe("tenants (platform admin)", () => {
  it("creates a tenant with an admin role and a default currency", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "Orzu MChJ", domain: "Orzu.UZ" },
    });
    expect(res.statusCode).toBe(201);
    const tenant = res.json();
    expect(tenant).toMatchObject({ name: "Orzu MChJ", domain: "orzu.uz", active: true, isPlatform: false });
    const roles = await t.db.withTenant(tenant.id, (tx) => tx.role.findMany({ select: { name: true } }));
    expect(roles).toEqual([{ name: "admin" }]);
    const currencies = await t.db.withTenant(tenant.id, (tx) =>
      tx.tenantCurrency.findMany({ select: { currencyCode: true } }),
    );
    expect(currencies).toEqual([{ currencyCode: "UZS" }]);
  });

  it("creates a tenant with its first administrator in one transaction, audited twice", async () => {
    const email = `first.admin.${Date.now()}@example.com`;
    const res = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: {
        name: "Bahor MChJ",
        admin: {
          email,
          firstName: "Dilnoza",
          lastName: "Karimova",
          password: "Tashkent-Spring-2026!",
          uiLanguage: "uz",
        },
      },
    });
    expect(res.statusCode).toBe(201);
    const tenantId = res.json().id as string;
    const users = await t.db.withTenant(tenantId, (tx) =>
      tx.user.findMany({
        select: {
          id: true,
          email: true,
          uiLanguage: true,
          roles: { select: { role: { select: { name: true } } } },
        },
      }),
    );
    expect(users).toEqual([
      expect.objectContaining({ email, uiLanguage: "uz", roles: [{ role: { name: "admin" } }] }),
    ]);
    // The first administrator signs in and runs their tenant (and only theirs).
    const login = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email, password: "Tashkent-Spring-2026!" },
    });
    expect(login.statusCode).toBe(200);
    const token = login.cookies.find((cookie) => cookie.name === "session")?.value ?? "";
    const own = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().items.map((u: { email: string }) => u.email)).toEqual([email]);
    expect(
      (await t.app.inject({ method: "GET", url: "/tenants", headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(403);
    // The platform's log has the tenant (naming its admin, never the password); the tenant's log, the user.
    const platformLog = await t.app.inject({
      method: "GET",
      url: `/audit?entity=tenant&entityId=${tenantId}`,
      headers: platformAdmin.headers,
    });
    expect(platformLog.json().items).toEqual([
      expect.objectContaining({
        action: "create",
        after: expect.objectContaining({ admin: { id: users[0]?.id, email } }),
      }),
    ]);
    expect(JSON.stringify(platformLog.json())).not.toContain("Tashkent-Spring");
    const tenantLog = await t.app.inject({
      method: "GET",
      url: "/audit?entity=user",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tenantLog.json().items).toEqual([
      expect.objectContaining({
        entityId: users[0]?.id,
        action: "create",
        userId: platformAdmin.id,
        after: expect.objectContaining({ email, roles: ["admin"], passwordSet: true }),
      }),
    ]);
  });

  it("an administrator without a password is invited (no password set); a taken email rolls the tenant back", async () => {
    const email = `invited.${Date.now()}@example.com`;
    const invited = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "Invited LLC", admin: { email, firstName: "A", lastName: "B" } },
    });
    expect(invited.statusCode).toBe(201);
    const user = await t.db.withTenant(invited.json().id, (tx) =>
      tx.user.findFirst({ select: { email: true, passwordHash: true } }),
    );
    expect(user).toEqual({ email, passwordHash: null });
    const before = await t.db.withPlatform((tx) => tx.tenant.count());
    const taken = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: {
        name: "Second Try",
        domain: "second-try.uz",
        admin: { email: email.toUpperCase(), firstName: "C", lastName: "D" },
      },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.reason).toBe("user.email_taken");
    expect(await t.db.withPlatform((tx) => tx.tenant.count())).toBe(before);
    const domainFree = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "Second Try", domain: "second-try.uz" },
    });
    expect(domainFree.statusCode).toBe(201);
  });

  it("refuses a wrong, missing, oversized or hostile first administrator with 400 and creates nothing", async () => {
    const before = await t.db.withPlatform((tx) => tx.tenant.count());
    const cases: { admin: unknown; path: string }[] = [
      { admin: { firstName: "A", lastName: "B" }, path: "admin.email" },
      { admin: { email: "not-an-email", firstName: "A", lastName: "B" }, path: "admin.email" },
      { admin: { email: "x@example.com", firstName: "", lastName: "B" }, path: "admin.firstName" },
      {
        admin: { email: "x@example.com", firstName: "A".repeat(101), lastName: "B" },
        path: "admin.firstName",
      },
      {
        admin: { email: `${"a".repeat(250)}@example.com`, firstName: "A", lastName: "B" },
        path: "admin.email",
      },
      {
        admin: { email: "x@example.com", firstName: "A", lastName: "B", password: "short" },
        path: "admin.password",
      },
      { admin: { email: "x@example.com", firstName: "A", lastName: "B", roleIds: ["x"] }, path: "admin" },
      {
        admin: { email: "x@example.com", firstName: "A", lastName: "B", uiLanguage: "de" },
        path: "admin.uiLanguage",
      },
      { admin: "admin@example.com", path: "admin" },
      { admin: { email: { $ne: null }, firstName: "A", lastName: "B" }, path: "admin.email" },
      {
        admin: { email: "x@example.com", firstName: "A", lastName: "B", __proto__: { isPlatform: true } },
        path: "",
      },
    ];
    for (const { admin, path } of cases) {
      const res = await t.app.inject({
        method: "POST",
        url: "/tenants",
        headers: platformAdmin.headers,
        payload: { name: "Hostile", admin },
      });
      if (path === "") {
        // A prototype key is dropped by JSON parsing: an ordinary, valid request.
        expect(res.statusCode, JSON.stringify(admin)).toBe(201);
        expect(res.json().isPlatform).toBe(false);
        continue;
      }
      expect(res.statusCode, JSON.stringify(admin)).toBe(400);
      expect(JSON.stringify(res.json().error), JSON.stringify(admin)).toContain(path.split(".").pop());
    }
    expect(await t.db.withPlatform((tx) => tx.tenant.count())).toBe(before + 1);
    const tenantAdmin = await t.createUser(clientTenantId, "admin");
    const refused = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: tenantAdmin.headers,
      payload: { name: "Mine", admin: { email: "mine@example.com", firstName: "A", lastName: "B" } },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("lists, reads and updates tenants; domain clashes are conflicts", async () => {
    const list = await t.app.inject({
      method: "GET",
      url: "/tenants?limit=100&sortBy=name",
      headers: platformAdmin.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((x: { id: string }) => x.id)).toEqual(
      expect.arrayContaining([platformTenantId, clientTenantId]),
    );
    const one = await t.app.inject({
      method: "GET",
      url: `/tenants/${clientTenantId}`,
      headers: platformAdmin.headers,
    });
    expect(one.json()).toMatchObject({ id: clientTenantId, name: "Client" });
    const renamed = await t.app.inject({
      method: "PUT",
      url: `/tenants/${clientTenantId}`,
      headers: platformAdmin.headers,
      payload: { name: "Client LLC", domain: "client.uz" },
    });
    expect(renamed.json()).toMatchObject({ name: "Client LLC", domain: "client.uz" });
    const clash = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "Copy", domain: "client.uz" },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.reason).toBe("tenant.domain_taken");
  });

  it("deactivating a tenant ends its users' sessions; reactivating lets them sign in again", async () => {
    const member = await t.createUser(clientTenantId, []);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      200,
    );
    const res = await t.app.inject({
      method: "PUT",
      url: `/tenants/${clientTenantId}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
    expect(res.json().active).toBe(false);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: member.headers })).statusCode).toBe(
      401,
    );
    const login = () =>
      t.app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email: member.email, password: member.password },
      });
    expect((await login()).statusCode).toBe(401);
    await t.app.inject({
      method: "PUT",
      url: `/tenants/${clientTenantId}`,
      headers: platformAdmin.headers,
      payload: { active: true },
    });
    expect((await login()).statusCode).toBe(200);
  });

  it("the platform tenant cannot be deactivated", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/tenants/${platformTenantId}`,
      headers: platformAdmin.headers,
      payload: { active: false },
    });
    expect(res.statusCode).toBe(422);
  });

  it("a client tenant's admin cannot manage tenants, even its own", async () => {
    const admin = await t.createUser(clientTenantId, "admin");
    expect((await t.app.inject({ method: "GET", url: "/tenants", headers: admin.headers })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: "GET", url: `/tenants/${clientTenantId}`, headers: admin.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/tenants",
          headers: admin.headers,
          payload: { name: "Mine" },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/tenants" })).statusCode).toBe(401);
  });

  it("validates input and answers 404 for unknown tenants", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "", domain: "not a domain", extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({
      method: "GET",
      url: "/tenants/01900000-0000-7000-8000-000000000000",
      headers: platformAdmin.headers,
    });
    expect(missing.statusCode).toBe(404);
    const unknownCurrency = await t.app.inject({
      method: "POST",
      url: "/tenants",
      headers: platformAdmin.headers,
      payload: { name: "X", currencies: ["XXX"] },
    });
    expect(unknownCurrency.statusCode).toBe(400);
    expect(unknownCurrency.json().error.reason).toBe("currency.unknown");
  });
});

describe("currencies", () => {
  it("lists the seeded global list to any signed-in user", async () => {
    const user = await t.createUser(clientTenantId, []);
    const res = await t.app.inject({ method: "GET", url: "/currencies", headers: user.headers });
    expect(res.statusCode).toBe(200);
    const codes = res.json().map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(["UZS", "USD", "EUR", "RUB"]));
    expect(res.json().find((c: { code: string }) => c.code === "UZS")).toMatchObject({
      minorUnits: 2,
      symbol: "soʻm",
    });
    expect((await t.app.inject({ method: "GET", url: "/currencies" })).statusCode).toBe(401);
  });

  it("the platform admin manages the global list; others cannot", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/currencies",
      headers: platformAdmin.headers,
      payload: { code: "CHF", name: "Swiss franc", symbol: "CHF", minorUnits: 2 },
    });
    expect(created.statusCode).toBe(201);
    const dup = await t.app.inject({
      method: "POST",
      url: "/currencies",
      headers: platformAdmin.headers,
      payload: { code: "CHF", name: "Swiss franc", symbol: "CHF", minorUnits: 2 },
    });
    expect(dup.statusCode).toBe(409);
    const renamed = await t.app.inject({
      method: "PUT",
      url: "/currencies/CHF",
      headers: platformAdmin.headers,
      payload: { name: "Swiss Franc" },
    });
    expect(renamed.json().name).toBe("Swiss Franc");
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/currencies/ZZZ",
          headers: platformAdmin.headers,
          payload: { name: "x" },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/currencies/chf",
          headers: platformAdmin.headers,
          payload: { name: "x" },
        })
      ).statusCode,
    ).toBe(400);
    const outsider = await t.createUser(clientTenantId, "admin");
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/currencies",
          headers: outsider.headers,
          payload: { code: "XAU", name: "Gold", symbol: "Au", minorUnits: 0 },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("a tenant selects its currencies; another tenant's selection is separate", async () => {
    const admin = await t.createUser(clientTenantId, "admin");
    const set = await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: admin.headers,
      payload: { codes: ["USD", "UZS", "USD"] },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().map((c: { code: string }) => c.code)).toEqual(["USD", "UZS"]);
    const mine = await t.app.inject({ method: "GET", url: "/tenant/currencies", headers: admin.headers });
    expect(mine.json().map((c: { code: string }) => c.code)).toEqual(["USD", "UZS"]);
    const theirs = await t.app.inject({
      method: "GET",
      url: "/tenant/currencies",
      headers: platformAdmin.headers,
    });
    expect(theirs.json().map((c: { code: string }) => c.code)).toEqual(["UZS"]);
  });

  it("refuses unknown, malformed and empty selections, and callers without currencies:select:all", async () => {
    const admin = await t.createUser(clientTenantId, "admin");
    const unknown = await t.app.inject({
      method: "PUT",
      url: "/tenant/currencies",
      headers: admin.headers,
      payload: { codes: ["XYZ"] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.reason).toBe("currency.unknown");
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/tenant/currencies",
          headers: admin.headers,
          payload: { codes: ["usd"] },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/tenant/currencies",
          headers: admin.headers,
          payload: { codes: [] },
        })
      ).statusCode,
    ).toBe(400);
    const reader = await t.createUser(clientTenantId, ["users:read:all"]);
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/tenant/currencies",
          headers: reader.headers,
          payload: { codes: ["UZS"] },
        })
      ).statusCode,
    ).toBe(403);
  });
});
