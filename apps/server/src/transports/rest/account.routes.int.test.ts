import { createManualClock, verifyAgainstDummy, verifyPassword } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

const clock = createManualClock(new Date("2026-03-01T09:00:00Z"));
const passwords = { verify: vi.fn(verifyPassword), verifyDummy: vi.fn(verifyAgainstDummy) };

let t: TestApp;
let tenantId: string;
let user: SeededUser;

beforeAll(async () => {
  t = await createTestApp({ clock, services: { passwords } });
  tenantId = (await t.createTenant("Account Co")).id;
  user = await t.createUser(tenantId, []);
});

afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, ip = "10.0.0.1") =>
  t.app.inject({ method: "POST", url: "/auth/login", payload: { email, password }, remoteAddress: ip });

describe("POST /auth/login", () => {
  it("creates a session and sets an HttpOnly, SameSite=Lax session cookie that authenticates", async () => {
    const res = await login(user.email.toUpperCase(), user.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: user.id, tenantId, expiresAt: "2026-03-01T21:00:00.000Z" });
    expect(res.json()).not.toHaveProperty("token");
    const cookie = res.cookies.find((c) => c.name === "session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.secure).toBeFalsy(); // http issuer in tests; https sets Secure
    expect(cookie?.expires?.toISOString()).toBe("2026-03-01T21:00:00.000Z");
    const account = await t.app.inject({
      method: "GET",
      url: "/account",
      cookies: { session: cookie?.value ?? "" },
    });
    expect(account.json()).toMatchObject({ id: user.id, tenant: { id: tenantId, name: "Account Co" } });
  });

  it("stores only the token's hash, with ip and user agent", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: user.email, password: user.password },
      remoteAddress: "10.9.8.7",
      headers: { "user-agent": "Hisob Desktop/1.0" },
    });
    const token = res.cookies.find((c) => c.name === "session")?.value ?? "";
    const row = await t.db.withTenant(tenantId, (tx) =>
      tx.session.findFirstOrThrow({ where: { id: res.json().sessionId } }),
    );
    expect(row).toMatchObject({ ip: "10.9.8.7", userAgent: "Hisob Desktop/1.0" });
    expect(row.tokenHash).not.toBe(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers a wrong password and an unknown email alike, and both do the work of a password check", async () => {
    passwords.verify.mockClear();
    passwords.verifyDummy.mockClear();
    const wrongPassword = await login(user.email, "Wrong-Passw0rd", "10.0.0.2");
    const unknownEmail = await login("nobody@nowhere.uz", "Wrong-Passw0rd", "10.0.0.2");
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    const strip = (body: { error: Record<string, unknown> }) => ({ ...body.error, requestId: undefined });
    expect(strip(wrongPassword.json())).toEqual(strip(unknownEmail.json()));
    expect(wrongPassword.json().error).toMatchObject({
      reason: "auth.invalid_credentials",
      message: "Invalid email or password",
    });
    expect(passwords.verify).toHaveBeenCalledTimes(1);
    expect(passwords.verifyDummy).toHaveBeenCalledTimes(1);
    expect(passwords.verifyDummy).toHaveBeenCalledWith("Wrong-Passw0rd");
  });

  it("blocks an email + IP after 5 failures in 15 minutes, with Retry-After, then lets it try again", async () => {
    const ip = "10.0.0.3";
    for (let i = 0; i < 5; i++) expect((await login(user.email, "Wrong-Passw0rd", ip)).statusCode).toBe(401);
    clock.advance(60_000);
    const blocked = await login(user.email, user.password, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({ code: "RATE_LIMITED", reason: "auth.too_many_attempts" });
    expect(Number(blocked.headers["retry-after"])).toBe(14 * 60);
    // Another IP is not blocked for the same account.
    expect((await login(user.email, user.password, "10.0.0.4")).statusCode).toBe(200);
    clock.advance(14 * 60_000 + 1);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
  });

  it("refuses inactive users and users of inactive tenants; their sessions stop working", async () => {
    const other = await t.createUser(tenantId, []);
    await t.db.withTenant(tenantId, (tx) =>
      tx.tenant.update({ where: { id: tenantId }, data: { isActive: false } }),
    );
    expect((await t.app.inject({ method: "GET", url: "/account", headers: other.headers })).statusCode).toBe(
      401,
    );
    expect((await login(other.email, other.password, "10.0.0.5")).statusCode).toBe(401);
    await t.db.withTenant(tenantId, (tx) =>
      tx.tenant.update({ where: { id: tenantId }, data: { isActive: true } }),
    );
    expect((await t.app.inject({ method: "GET", url: "/account", headers: other.headers })).statusCode).toBe(
      200,
    );
  });

  it("expires sessions with the clock", async () => {
    const res = await login(user.email, user.password, "10.0.0.6");
    const session = res.cookies.find((c) => c.name === "session")?.value ?? "";
    clock.advance(12 * 60 * 60_000);
    expect((await t.app.inject({ method: "GET", url: "/account", cookies: { session } })).statusCode).toBe(
      401,
    );
  });

  it("validates its input", async () => {
    const missing = await t.app.inject({ method: "POST", url: "/auth/login", payload: { email: "a@b.uz" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe("validation error: password is required");
    const huge = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "a@b.uz", password: "x".repeat(5000) },
    });
    expect(huge.statusCode).toBe(400);
    const wrongType = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: ["a"], password: 1 },
    });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe("GET/PUT /account", () => {
  it("needs a valid login (and no permission)", async () => {
    expect((await t.app.inject({ method: "GET", url: "/account" })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/account",
          headers: { authorization: "Bearer nonsense-token-that-is-long" },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/account",
          headers: { authorization: "Basic Zm9vOmJhcg==" },
        })
      ).json().error.reason,
    ).toBe("auth.unsupported_scheme");
  });

  it("updates own name, language and avatar", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: user.headers,
      payload: { firstName: "Dilshod", uiLanguage: "ru", avatarUrl: "https://cdn.example/a.png" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: "Dilshod",
      uiLanguage: "ru",
      avatarUrl: "https://cdn.example/a.png",
    });
  });

  it("refuses fields it does not own (active, email, roles)", async () => {
    const user = await t.createUser(tenantId, []);
    const res = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: user.headers,
      payload: { active: false },
    });
    expect(res.statusCode).toBe(400);
  });

  it("changes the password only with the current one, and signs out other sessions", async () => {
    const me = await t.createUser(tenantId, []);
    const second = await t.services.auth.login(
      { email: me.email, password: me.password },
      { ip: "1.1.1.1", userAgent: "x" },
    );
    const wrong = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: me.headers,
      payload: { currentPassword: "Not-The-Passw0rd", newPassword: "Brand-New-Passw0rd" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ reason: "account.wrong_current_password" });
    const missing = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: me.headers,
      payload: { newPassword: "Brand-New-Passw0rd" },
    });
    expect(missing.statusCode).toBe(400);
    const weak = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: me.headers,
      payload: { currentPassword: me.password, newPassword: "short" },
    });
    expect(weak.statusCode).toBe(400);

    const ok = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: me.headers,
      payload: { currentPassword: me.password, newPassword: "Brand-New-Passw0rd" },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/account", headers: me.headers })).statusCode).toBe(
      200,
    );
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/account",
          headers: { authorization: `Bearer ${second.token}` },
        })
      ).statusCode,
    ).toBe(401);
    expect((await login(me.email, "Brand-New-Passw0rd", "10.0.0.7")).statusCode).toBe(200);
  });
});
