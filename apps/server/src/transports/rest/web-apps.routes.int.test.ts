import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let user: SeededUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await t.createUser((await t.createTenant("Web Co")).id, []);
});
afterAll(async () => {
  await t?.close();
});

describe("the desktop app's origin (app://hisob) may call /trpc", () => {
  it("answers its preflight and its calls with its own origin, no credentials", async () => {
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/trpc/session.me",
      headers: {
        origin: "app://hisob",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("app://hisob");
    expect(preflight.headers["access-control-allow-headers"]).toContain("authorization");
    expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined();
    const call = await t.app.inject({
      url: "/trpc/session.me",
      headers: { origin: "app://hisob", ...user.headers },
    });
    expect(call.statusCode).toBe(200);
    expect(call.headers["access-control-allow-origin"]).toBe("app://hisob");
  });

  it("gives no CORS to other origins or other routes", async () => {
    const other = await t.app.inject({
      url: "/trpc/session.me",
      headers: { origin: "https://evil.example", ...user.headers },
    });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    const rest = await t.app.inject({ url: "/account", headers: { origin: "app://hisob", ...user.headers } });
    expect(rest.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("/ and the web apps", () => {
  it("sends a browser without a session to the login page, which returns to /app", async () => {
    const reply = await t.app.inject("/");
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe("/login?next=%2Fapp%2F");
  });

  it("sends a signed-in browser (session cookie) to /app", async () => {
    const reply = await t.app.inject({ url: "/", headers: { cookie: user.cookie } });
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe("/app/");
  });

  it("treats an invalid session cookie as signed out", async () => {
    const reply = await t.app.inject({ url: "/", cookies: { session: "not-a-session" } });
    expect(reply.headers.location).toBe("/login?next=%2Fapp%2F");
  });

  it("serves the accountant app's pages under /app without credentials (it signs in itself)", async () => {
    const reply = await t.app.inject("/app/accounts");
    // 200 with the build, 503 with a page saying how to build it: HTML either way, never JSON.
    expect([200, 503]).toContain(reply.statusCode);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("answers /favicon.ico with the apps' icon, to anyone (no 404 on a page load)", async () => {
    for (const url of ["/favicon.ico", "/favicon.ico?v=1"]) {
      const reply = await t.app.inject(url);
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers["content-type"]).toBe("image/x-icon");
      // An ICO file: reserved 0, type 1 (icon), at least one image.
      expect([...reply.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
      expect(reply.rawPayload.readUInt16LE(4)).toBeGreaterThan(0);
    }
    expect((await t.app.inject({ method: "POST", url: "/favicon.ico" })).statusCode).toBe(404);
  });
});
