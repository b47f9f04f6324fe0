import { createManualClock } from "@hisob/kernel";
import type { Response as InjectResponse } from "light-my-request";
import * as oidc from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import {
  ALL_SCOPES,
  createOidcKit,
  DESKTOP_CLIENT_ID,
  type OidcKit,
  type RegisteredClient,
} from "./oidc-test-kit";

/*
 * Access tokens on our own APIs: those of first-party clients (the accountant app) authenticate
 * REST for the user and tenant they were issued to; third-party tokens are good for userinfo only.
 */

const clock = createManualClock(new Date());
let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let user: SeededUser;
let thirdParty: RegisteredClient;

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Bearer Co")).id;
  user = await t.createUser(tenantId, []);
  thirdParty = await kit.register({ name: "Third party" });
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  clock.set(new Date());
});

const asBearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

const getAccount = (accessToken: string) =>
  t.app.inject({ method: "GET", url: "/account", headers: asBearer(accessToken) });

/** Our REST answer for a dead credential: 401 UNAUTHENTICATED in the REST envelope. */
const expectRestUnauthenticated = (res: InjectResponse) => {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 401 });
  expect(res.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
};

/** The accountant app's sign-in, as the app does it: openid-client, public client, loopback, PKCE. */
const desktopTokens = async (session: string, scope = ALL_SCOPES) => {
  const config = await kit.rp(kit.desktop, "none");
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: "http://127.0.0.1:49152/callback",
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, session), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    idTokenExpected: true,
  });
  return { config, tokens };
};

describe("first-party access tokens (hisob-desktop) on REST", () => {
  it("GET /account answers 200 for the user and tenant the token was issued to", async () => {
    const { tokens } = await desktopTokens(user.token);
    const res = await getAccount(tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, email: user.email, tenant: { id: tenantId } });
  });

  it("even with the narrowest scope (openid): first-party tokens speak for the user on our APIs", async () => {
    const { tokens } = await desktopTokens(user.token, "openid");
    expect((await getAccount(tokens.access_token)).statusCode).toBe(200);
  });

  it("another tenant's user gets its own tenant, and the tenant wall holds", async () => {
    const otherTenant = (await t.createTenant("Elsewhere Co")).id;
    const stranger = await t.createUser(otherTenant, ["users:read:all"]);
    const { tokens } = await desktopTokens(stranger.token);
    const account = await getAccount(tokens.access_token);
    expect(account.json()).toMatchObject({ id: stranger.id, tenant: { id: otherTenant } });
    const across = await t.app.inject({
      method: "GET",
      url: `/users/${user.id}`,
      headers: asBearer(tokens.access_token),
    });
    expect(across.statusCode).toBe(404);
  });

  it("the user's own permissions apply: none → 403 on /users; users:read:all → 200", async () => {
    const { tokens } = await desktopTokens(user.token);
    const denied = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: asBearer(tokens.access_token),
    });
    expect(denied.statusCode).toBe(403);
    const reader = await t.createUser(tenantId, ["users:read:all"]);
    const readerTokens = await desktopTokens(reader.token);
    const allowed = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: asBearer(readerTokens.tokens.access_token),
    });
    expect(allowed.statusCode).toBe(200);
  });

  it("a bearer change needs no CSRF proof (PUT /account)", async () => {
    const { tokens } = await desktopTokens(user.token);
    const res = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: asBearer(tokens.access_token),
      payload: { firstName: "Renamed" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, firstName: "Renamed" });
  });

  it("also works at /oidc/userinfo", async () => {
    const { config, tokens } = await desktopTokens(user.token);
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.id)).toMatchObject({ sub: user.id });
  });

  it("a revoked token stops at once", async () => {
    const { config, tokens } = await desktopTokens(user.token);
    expect((await getAccount(tokens.access_token)).statusCode).toBe(200);
    await oidc.tokenRevocation(config, tokens.access_token);
    expectRestUnauthenticated(await getAccount(tokens.access_token));
  });

  it("its refresh token and its ID token are not bearer credentials", async () => {
    const { tokens } = await desktopTokens(user.token);
    expectRestUnauthenticated(await getAccount(tokens.refresh_token ?? ""));
    expectRestUnauthenticated(await getAccount(tokens.id_token ?? ""));
  });

  it("a refreshed access token works and the rotated-out family dies on reuse", async () => {
    const { config, tokens } = await desktopTokens(user.token);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect((await getAccount(refreshed.access_token)).statusCode).toBe(200);
    await kit.expectRefreshTokenDead(kit.desktop, tokens.refresh_token ?? "");
    expectRestUnauthenticated(await getAccount(refreshed.access_token));
  });

  it("an expired token (after 3600 s) → 401", async () => {
    const { tokens } = await desktopTokens(user.token);
    clock.advance(3_600_000);
    expectRestUnauthenticated(await getAccount(tokens.access_token));
  });

  it("ending the login session (logout) ends the token on REST", async () => {
    const session = await kit.newSession(user);
    const { tokens } = await desktopTokens(session);
    expect((await getAccount(tokens.access_token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/logout", headers: asBearer(session) });
    expect(out.statusCode).toBe(204);
    expectRestUnauthenticated(await getAccount(tokens.access_token));
  });

  it("a deactivated accountant app's tokens are refused on REST", async () => {
    const { tokens } = await desktopTokens(user.token);
    const setActive = (isActive: boolean) =>
      t.db.withPlatform((tx) =>
        tx.oidcClient.update({ where: { clientId: DESKTOP_CLIENT_ID }, data: { isActive } }),
      );
    await setActive(false);
    try {
      expectRestUnauthenticated(await getAccount(tokens.access_token));
    } finally {
      await setActive(true);
    }
  });

  it("any client flagged first-party qualifies (the flag decides, not the client_id)", async () => {
    const firstParty = await kit.register({ name: "Our back office", isFirstParty: true });
    const tokens = await kit.tokensFor(firstParty, user.token);
    expect((await getAccount(tokens.access_token)).statusCode).toBe(200);
  });
});

describe("third-party access tokens", () => {
  it("do not authenticate REST (401) but work at /oidc/userinfo", async () => {
    const config = await kit.rp(thirdParty);
    const tokens = await kit.tokensFor(thirdParty, user.token, { scope: ALL_SCOPES });
    expectRestUnauthenticated(await getAccount(tokens.access_token));
    expectRestUnauthenticated(
      await t.app.inject({ method: "GET", url: "/users", headers: asBearer(tokens.access_token) }),
    );
    expectRestUnauthenticated(
      await t.app.inject({
        method: "PUT",
        url: "/account",
        headers: asBearer(tokens.access_token),
        payload: { firstName: "Hijacked" },
      }),
    );
    expect(await oidc.fetchUserInfo(config, tokens.access_token, user.id)).toMatchObject({
      sub: user.id,
      email: user.email,
    });
  });

  it("a public third-party app's token is refused on REST too", async () => {
    const mobile = await kit.register({
      name: "Third-party mobile",
      isPublic: true,
      applicationType: "native",
      redirectUris: ["http://127.0.0.1/callback"],
    });
    const tokens = await kit.tokensFor(mobile, user.token, {
      redirectUri: "http://127.0.0.1:40000/callback",
    });
    expectRestUnauthenticated(await getAccount(tokens.access_token));
    expect((await kit.userinfo(tokens.access_token)).statusCode).toBe(200);
  });

  it("REST and tRPC give the same reason as GraphQL: token_not_for_this_api (decision 0038), localized", async () => {
    const tokens = await kit.tokensFor(thirdParty, user.token);
    const headers = { ...asBearer(tokens.access_token), "accept-language": "ru" };
    const rest = await t.app.inject({ method: "GET", url: "/account", headers });
    expect(rest.statusCode).toBe(401);
    expect(rest.headers["www-authenticate"]).toContain("issued to another application");
    expect(rest.json().error).toMatchObject({
      code: "UNAUTHENTICATED",
      reason: "auth.token_not_for_this_api",
      message: "Токен действителен, но выдан другому приложению и не подходит для этого API.",
    });
    const trpc = await t.app.inject({ method: "GET", url: "/trpc/currencies.selected", headers });
    expect(trpc.statusCode).toBe(401);
    expect(trpc.headers["www-authenticate"]).toContain("issued to another application");
    expect(trpc.json().error.data).toMatchObject({
      appCode: "UNAUTHENTICATED",
      reason: "auth.token_not_for_this_api",
    });
    expect(trpc.json().error.message).toBe(
      "Токен действителен, но выдан другому приложению и не подходит для этого API.",
    );
    // A forged token and a revoked first-party token stay plain invalid credentials on both.
    for (const token of ["garbage", "a".repeat(43)]) {
      const forgedRest = await t.app.inject({ method: "GET", url: "/account", headers: asBearer(token) });
      expect(forgedRest.json().error.reason).toBe("auth.invalid_credentials");
      const forgedTrpc = await t.app.inject({
        method: "GET",
        url: "/trpc/currencies.selected",
        headers: asBearer(token),
      });
      expect(forgedTrpc.statusCode).toBe(401);
      expect(forgedTrpc.json().error.data.reason).toBe("auth.invalid_credentials");
    }
  });
});
