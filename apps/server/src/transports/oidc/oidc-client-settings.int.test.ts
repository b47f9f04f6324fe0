import { createManualClock } from "@hisob/kernel";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit, type RegisteredClient, RP_CALLBACK } from "./oidc-test-kit";

/*
 * A client's own settings, edited over REST by a platform administrator (decision 0085): post-logout
 * redirect URIs, web origins (CORS on the browser-callable endpoints) and token lifetimes.
 */

const clock = createManualClock(new Date("2026-12-04T08:00:00Z"));
const SPA = "https://spa.example";
const OTHER = "https://other.example";
const SIGNED_OUT = "https://rp.example/signed-out";
let t: TestApp;
let kit: OidcKit;
let platformId = "";
let platformAdmin: SeededUser;
let endUser: SeededUser;
/** Statements naming oidc_clients' web origins, as the server sends them. */
let originQueries = 0;

const admin = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: platformAdmin.headers,
    ...(payload === undefined ? {} : { payload }),
  });

/** A confidential client registered through POST /oidc-clients with `fields`. */
const registerOverRest = async (fields: object): Promise<RegisteredClient> => {
  const res = await admin("POST", "/oidc-clients", {
    name: "Settings RP",
    redirectUris: [RP_CALLBACK],
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { client, clientSecret } = res.json() as { client: { clientId: string }; clientSecret: string };
  return { clientId: client.clientId, clientSecret, redirectUri: RP_CALLBACK };
};

const preflight = (origin: string) =>
  t.app.inject({
    method: "OPTIONS",
    url: "/oidc/token",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });

beforeAll(async () => {
  t = await createTestApp({
    clock,
    onQuery: (sql) => {
      if (sql.includes("web_origins") && sql.includes("oidc_clients")) originQueries += 1;
    },
  });
  kit = createOidcKit(t);
  const platform = await t.createTenant("Platform", { platform: true });
  platformId = platform.id;
  platformAdmin = await t.createUser(platform.id, "admin");
  endUser = await t.createUser((await t.createTenant("Customer")).id, []);
});
afterAll(async () => t?.close());

describe("token lifetimes per client", () => {
  it("access, ID and refresh tokens live as the client says; the refresh token expires as set", async () => {
    const client = await registerOverRest({
      accessTokenLifetime: 120,
      idTokenLifetime: 300,
      refreshTokenLifetime: 600,
    });
    const shown = (await admin("GET", `/oidc-clients/${client.clientId}`)).json();
    expect(shown).toMatchObject({
      accessTokenLifetime: 120,
      idTokenLifetime: 300,
      refreshTokenLifetime: 600,
    });

    const tokens = await kit.tokensFor(client, await kit.newSession(endUser));
    expect(tokens.expires_in).toBe(120);
    const id = decodeJwt(tokens.id_token ?? "");
    expect((id.exp ?? 0) - (id.iat ?? 0)).toBe(300);

    // Just inside its 600 seconds the refresh token works, and its successor lives 600 seconds again.
    clock.advance(599_000);
    const refreshed = await kit.refresh(client, tokens.refresh_token ?? "");
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().expires_in).toBe(120);
    const next = refreshed.json().refresh_token as string;
    clock.advance(601_000);
    const expired = await kit.refresh(client, next);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("a client without its own lifetimes gets the server's; clearing them (null) goes back to those", async () => {
    const client = await registerOverRest({ accessTokenLifetime: 90 });
    expect(
      (await admin("PUT", `/oidc-clients/${client.clientId}`, { accessTokenLifetime: null })).statusCode,
    ).toBe(200);
    const tokens = await kit.tokensFor(client, await kit.newSession(endUser));
    expect(tokens.expires_in).toBe(t.oidc.config.accessTokenLifetime);
    const id = decodeJwt(tokens.id_token ?? "");
    expect((id.exp ?? 0) - (id.iat ?? 0)).toBe(t.oidc.config.idTokenLifetime);
  });

  it("refuses lifetimes outside their bounds, and other types, with a 400 naming the field", async () => {
    const client = await registerOverRest({});
    for (const payload of [
      { accessTokenLifetime: 59 },
      { accessTokenLifetime: 86_401 },
      { idTokenLifetime: 1.5 },
      { refreshTokenLifetime: 299 },
      { refreshTokenLifetime: "600" },
    ]) {
      const res = await t.app.inject({
        method: "PUT",
        url: `/oidc-clients/${client.clientId}`,
        headers: platformAdmin.headers,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.issues[0].path).toBe(Object.keys(payload)[0]);
    }
  });
});

describe("web origins (CORS)", () => {
  it("a browser at a listed origin gets CORS headers on /oidc/token; another origin does not", async () => {
    // Not listed by anyone yet: no CORS for it.
    expect((await preflight(SPA)).headers["access-control-allow-origin"]).toBeUndefined();

    const client = await registerOverRest({ webOrigins: [SPA] });
    const allowed = await preflight(SPA);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe(SPA);
    expect(allowed.headers["access-control-allow-methods"]).toContain("POST");
    expect(allowed.headers["access-control-allow-credentials"]).toBeUndefined();
    const refused = await preflight(OTHER);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();

    // The token request itself: the listed origin may read the answer, the other may not.
    const again = await kit.tokensFor(client, await kit.newSession(endUser));
    const withOrigin = await kit.token(
      client,
      { grant_type: "refresh_token", refresh_token: again.refresh_token },
      { headers: { origin: SPA } },
    );
    expect(withOrigin.statusCode, withOrigin.body).toBe(200);
    expect(withOrigin.headers["access-control-allow-origin"]).toBe(SPA);
    const fromOther = await kit.token(
      client,
      { grant_type: "refresh_token", refresh_token: withOrigin.json().refresh_token },
      { headers: { origin: OTHER } },
    );
    expect(fromOther.headers["access-control-allow-origin"]).toBeUndefined();

    // Deactivating the client (on this instance) closes its origin at once.
    expect((await admin("PUT", `/oidc-clients/${client.clientId}`, { isActive: false })).statusCode).toBe(
      200,
    );
    expect((await preflight(SPA)).headers["access-control-allow-origin"]).toBeUndefined();
    expect((await admin("PUT", `/oidc-clients/${client.clientId}`, { isActive: true })).statusCode).toBe(200);
    expect((await preflight(SPA)).headers["access-control-allow-origin"]).toBe(SPA);
  });

  it("unknown origins cost no query each: malformed ones none at all, the rest one load every 30 s", async () => {
    await registerOverRest({ webOrigins: ["https://listed.example"] });
    expect((await preflight("https://listed.example")).headers["access-control-allow-origin"]).toBe(
      "https://listed.example",
    );
    const before = originQueries;
    for (let i = 0; i < 1200; i += 1) {
      const origin = i % 2 === 0 ? `https://unknown-${i}.example` : `https://unknown-${i}.example/path`;
      const res = await preflight(origin);
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    // The listed origin still gets CORS, from the same loaded set.
    expect((await preflight("https://listed.example")).headers["access-control-allow-origin"]).toBe(
      "https://listed.example",
    );
    expect(originQueries - before).toBe(0);
    // Another instance's change shows once the set is 30 s old: one load, then none again.
    clock.advance(31_000);
    expect(
      (await preflight("https://unknown-a.example")).headers["access-control-allow-origin"],
    ).toBeUndefined();
    expect(
      (await preflight("https://unknown-b.example")).headers["access-control-allow-origin"],
    ).toBeUndefined();
    expect(originQueries - before).toBe(1);
  });

  it("never opens routes outside the browser-callable ones, such as authorize", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/oidc/authorize?client_id=x",
      headers: { origin: SPA },
    });
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("accepts only origins: no path, wildcard, other scheme or plain http to a public host (400)", async () => {
    const client = await registerOverRest({});
    for (const origin of [
      "https://spa.example/",
      "https://spa.example/app",
      "https://*.example",
      "ftp://spa.example",
      "http://spa.example",
      "spa.example",
      "HTTPS://SPA.EXAMPLE",
    ]) {
      const res = await admin("PUT", `/oidc-clients/${client.clientId}`, { webOrigins: [origin] });
      expect(res.statusCode, origin).toBe(400);
      expect(res.json().error.issues[0].path).toBe("webOrigins.0");
    }
    const fine = await admin("PUT", `/oidc-clients/${client.clientId}`, {
      webOrigins: ["https://spa.example:8443", "http://127.0.0.1:5173", "http://localhost:3001"],
    });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json().webOrigins).toEqual([
      "https://spa.example:8443",
      "http://127.0.0.1:5173",
      "http://localhost:3001",
    ]);
  });
});

describe("in the caller's language", () => {
  it("a refused web origin is explained in Russian to an administrator who reads Russian", async () => {
    const client = await registerOverRest({});
    const russian = await t.createUser(platformId, "admin");
    const chosen = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: russian.headers,
      payload: { uiLanguage: "ru" },
    });
    expect(chosen.statusCode).toBe(200);
    const res = await t.app.inject({
      method: "PUT",
      url: `/oidc-clients/${client.clientId}`,
      headers: russian.headers,
      payload: { webOrigins: ["https://spa.example/app"] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({
      path: "webOrigins.0",
      message: expect.stringContaining("без пути"),
    });
  });
});

describe("post-logout redirect URIs", () => {
  it("a URI registered in the client form is where end_session returns; an unregistered one is refused", async () => {
    const client = await registerOverRest({});
    const set = await admin("PUT", `/oidc-clients/${client.clientId}`, {
      postLogoutRedirectUris: [SIGNED_OUT],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().postLogoutRedirectUris).toEqual([SIGNED_OUT]);

    const first = await kit.tokensFor(client, await kit.newSession(endUser));
    const unregistered = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?${new URLSearchParams({
        id_token_hint: first.id_token ?? "",
        post_logout_redirect_uri: "https://rp.example/elsewhere",
      })}`,
    });
    expect(unregistered.statusCode).toBe(400);
    expect(unregistered.json()).toMatchObject({ error: "invalid_request" });

    const registered = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?${new URLSearchParams({
        id_token_hint: first.id_token ?? "",
        post_logout_redirect_uri: SIGNED_OUT,
        state: "bye",
      })}`,
    });
    expect(registered.statusCode).toBe(302);
    expect(registered.headers.location).toBe(`${SIGNED_OUT}?state=bye`);
  });
});
