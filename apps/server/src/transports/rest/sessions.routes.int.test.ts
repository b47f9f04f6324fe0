import { createManualClock } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit } from "../oidc/oidc-test-kit";

/*
 * Sessions say when and through what they were last used (decision 0055), written at most once a
 * minute; GET /sessions lists the organization's live sessions for an administrator.
 */

const clock = createManualClock(new Date("2026-11-29T08:00:00Z"));
let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let admin: SeededUser;
let user: SeededUser;
let outsider: SeededUser;

type Session = {
  id: string;
  userId: string;
  userEmail: string;
  lastAccessAt: string;
  client: { kind: string; clientId: string | null; name: string | null };
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Sessions Co")).id;
  admin = await t.createUser(tenantId, "admin");
  user = await t.createUser(tenantId, []);
  outsider = await t.createUser((await t.createTenant("Elsewhere")).id, "admin");
});
afterAll(async () => t?.close());

const list = async (caller: SeededUser, query = "") => {
  const res = await t.app.inject({ method: "GET", url: `/sessions${query}`, headers: caller.headers });
  return { status: res.statusCode, body: res.json() as { items: Session[]; total: number } };
};
const sessionOf = async (id: string) => (await list(admin, "?limit=100")).body.items.find((s) => s.id === id);
const sessionIdOf = async (token: string) =>
  (await t.services.auth.resolveSessionToken(token))?.sessionId as string;

describe("last access and client", () => {
  it("a browser cookie, then the token as a bearer: written once a minute at most, saying which", async () => {
    const token = await kit.newSession(user);
    const id = await sessionIdOf(token);
    const start = clock.now().toISOString();
    expect(await sessionOf(id)).toMatchObject({ lastAccessAt: start, client: { kind: "browser" } });
    clock.advance(30_000);
    await t.app.inject({ method: "GET", url: "/account", headers: { cookie: `session=${token}` } });
    // Under a minute since the last write: nothing written, the read stays cheap.
    expect((await sessionOf(id))?.lastAccessAt).toBe(start);
    clock.advance(40_000);
    const asApi = await t.app.inject({
      method: "GET",
      url: "/account",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asApi.statusCode).toBe(200);
    expect(await sessionOf(id)).toMatchObject({
      lastAccessAt: clock.now().toISOString(),
      client: { kind: "api", clientId: null },
    });
  });

  it("a first-party OIDC access token names its client", async () => {
    const token = await kit.newSession(user);
    const id = await sessionIdOf(token);
    const tokens = await kit.tokensFor(kit.desktop, token);
    clock.advance(61_000);
    const res = await t.app.inject({
      method: "GET",
      url: "/account",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.statusCode).toBe(200);
    expect((await sessionOf(id))?.client).toMatchObject({
      kind: "oidc",
      clientId: kit.desktop.clientId,
      name: expect.any(String),
    });
  });
});

describe("GET /sessions", () => {
  it("lists the organization's live sessions, most recently used first, filtered by user", async () => {
    const all = await list(admin, "?limit=100");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.items.length);
    expect(new Set(all.body.items.map((s) => s.userId))).toEqual(new Set([admin.id, user.id]));
    const times = all.body.items.map((s) => s.lastAccessAt);
    expect([...times].sort().reverse()).toEqual(times);
    const mine = await list(admin, `?userId=${user.id}`);
    expect(mine.body.items.length).toBeGreaterThan(0);
    expect(mine.body.items.every((s) => s.userId === user.id)).toBe(true);
  });

  it("filters by what used a session last (browser, api, an OIDC client) and names each user by email", async () => {
    const token = await kit.newSession(user);
    const id = await sessionIdOf(token);
    const tokens = await kit.tokensFor(kit.desktop, token);
    clock.advance(61_000);
    await t.app.inject({
      method: "GET",
      url: "/account",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const byClient = await list(admin, `?client=${kit.desktop.clientId}&limit=100`);
    expect(byClient.status).toBe(200);
    expect(byClient.body.items.map((s) => s.id)).toContain(id);
    expect(byClient.body.items.every((s) => s.client.clientId === kit.desktop.clientId)).toBe(true);
    expect(byClient.body.total).toBe(byClient.body.items.length);
    const browsers = await list(admin, "?client=browser&limit=100");
    expect(browsers.body.items.length).toBeGreaterThan(0);
    expect(browsers.body.items.every((s) => s.client.kind === "browser")).toBe(true);
    expect(browsers.body.items.map((s) => s.id)).not.toContain(id);
    const both = await list(admin, `?client=${kit.desktop.clientId}&userId=${admin.id}`);
    expect(both.body).toMatchObject({ items: [], total: 0 });
    const all = await list(admin, "?limit=100");
    for (const session of all.body.items)
      expect(session.userEmail).toBe(session.userId === admin.id ? admin.email : user.email);
  });

  it("pages with limit and offset, the total counting them all", async () => {
    const all = await list(admin, "?limit=100");
    const second = await list(admin, "?limit=1&offset=1");
    expect(second.body.total).toBe(all.body.total);
    expect(second.body.items.map((s) => s.id)).toEqual([all.body.items[1]?.id]);
  });

  it("another tenant's admin never sees these sessions, even by naming the user", async () => {
    const theirs = await list(outsider, `?userId=${user.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ items: [], total: 0 });
    const own = await list(outsider, "?limit=100");
    expect(own.body.items.every((s) => s.userId === outsider.id)).toBe(true);
  });

  it("needs sessions:read:all (403), credentials (401), and a valid query (400, localized)", async () => {
    expect((await list(user)).status).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/sessions" })).statusCode).toBe(401);
    for (const query of [
      "?userId=nope",
      "?limit=1000",
      "?offset=-1",
      "?client=a%20b",
      `?client=${"c".repeat(101)}`,
    ]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/sessions${query}`,
        headers: { ...admin.headers, "accept-language": "ru" },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
  });
});
