import { randomUUID } from "node:crypto";
import { createManualClock } from "@hisob/kernel";
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import {
  ALL_SCOPES,
  createOidcKit,
  DESKTOP_CALLBACK,
  DESKTOP_CLIENT_ID,
  expectAuthorizeJsonError,
  expectedAtHash,
  expectOidcError,
  ISSUER,
  type OidcKit,
  type RegisteredClient,
  RP_CALLBACK,
} from "./oidc-test-kit";

/*
 * Positive flows of the OpenID provider, driven by openid-client v6 (a certified relying party, in
 * its default strict mode) wherever a client library is what a real RP would use; raw requests
 * only where the library cannot express the case.
 */

// Near real time: openid-client checks iat/exp against its own clock.
const clock = createManualClock(new Date());
let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let user: SeededUser;
let confidential: RegisteredClient;

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Flows Co")).id;
  user = await t.createUser(tenantId, []);
  confidential = await kit.register({ name: "Confidential web RP" });
});

afterAll(async () => {
  await t?.close();
});

const keySet = async (): Promise<JSONWebKeySet> =>
  (await t.app.inject({ method: "GET", url: "/oidc/keys" })).json() as JSONWebKeySet;

/** Verifies an ID token with jose against /oidc/keys and returns its header and claims. */
const verifyIdToken = async (idToken: string, audience: string) => {
  const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(await keySet()), {
    issuer: ISSUER,
    audience,
    algorithms: ["RS256"],
  });
  return { payload, protectedHeader };
};

const sessionRow = (sessionToken: string) =>
  t.services.auth.resolveSessionToken(sessionToken).then((principal) => {
    if (!principal?.authTime || !principal.sessionId) throw new Error("no session");
    return { authTime: principal.authTime, sessionId: principal.sessionId };
  });

describe("discovery (oidcc-discovery-endpoint-verification)", () => {
  it("serves exactly the spec's document (plus part 2's two endpoints), issuer = OIDC_ISSUER_URL", async () => {
    const res = await t.app.inject({ method: "GET", url: "/.well-known/openid-configuration" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toStrictEqual({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oidc/authorize`,
      token_endpoint: `${ISSUER}/oidc/token`,
      userinfo_endpoint: `${ISSUER}/oidc/userinfo`,
      jwks_uri: `${ISSUER}/oidc/keys`,
      revocation_endpoint: `${ISSUER}/oidc/revoke`,
      // Beyond the spec's list, added by part 2: introspection and RP-initiated logout.
      introspection_endpoint: `${ISSUER}/oidc/introspect`,
      end_session_endpoint: `${ISSUER}/oidc/end_session`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256", "plain"],
    });
  });

  it("is accepted by openid-client's discovery, which checks the issuer identifier", async () => {
    const config = await kit.rp(confidential);
    expect(config.serverMetadata().issuer).toBe(ISSUER);
    await expect(
      oidc.discovery(new URL("http://localhost:3000/other"), confidential.clientId, undefined, undefined, {
        [oidc.customFetch]: kit.customFetch,
        execute: [oidc.allowInsecureRequests],
      }),
    ).rejects.toThrow();
  });

  it("publishes the active RS256 key with exactly the spec's JWK fields, kid = the key record id, no private part", async () => {
    const jwks = await keySet();
    const rows = await t.db.withPlatform((tx) =>
      tx.oidcSigningKey.findMany({ where: { isActive: true }, select: { id: true } }),
    );
    expect(jwks.keys.map((key) => key.kid)).toEqual(rows.map((row) => row.id));
    for (const key of jwks.keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
      expect(key).toMatchObject({ kty: "RSA", use: "sig", alg: "RS256", e: "AQAB" });
      expect(key.kid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      // 2048-bit modulus → 256 bytes.
      expect(Buffer.from(String(key.n), "base64url").length).toBeGreaterThanOrEqual(256);
    }
  });
});

describe("authorization code flow (openid-client, strict)", () => {
  it("oidcc-server: code + PKCE S256, client_secret_basic, nonce, ID token validated against /oidc/keys", async () => {
    const config = await kit.rp(confidential, "basic");
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: ALL_SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      state,
    });
    const callback = await kit.follow(url, user.token);
    expect(callback.searchParams.get("iss")).toBe(ISSUER);
    expect(callback.searchParams.get("state")).toBe(state);

    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims?.sub).toBe(user.id);
    expect(claims?.nonce).toBe(nonce);

    // What went over the wire: Basic authentication, no secret in the body.
    const sent = kit.lastExchange("/oidc/token");
    expect(sent.requestHeaders.authorization).toMatch(/^Basic /);
    const sentBody = new URLSearchParams(sent.requestBody);
    expect(sentBody.has("client_secret")).toBe(false);
    expect(sentBody.get("code_verifier")).toBe(verifier);

    // The token response: exactly the spec's fields, not cacheable.
    expect(sent.status).toBe(200);
    expect(sent.responseHeaders["cache-control"]).toBe("no-store");
    expect(sent.responseHeaders.pragma).toBe("no-cache");
    const raw = JSON.parse(sent.responseBody) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual([
      "access_token",
      "expires_in",
      "id_token",
      "refresh_token",
      "scope",
      "token_type",
    ]);
    expect(raw).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: ALL_SCOPES });

    // The ID token, checked once more with jose against the published key set.
    const { payload, protectedHeader } = await verifyIdToken(tokens.id_token ?? "", confidential.clientId);
    const jwks = await keySet();
    expect(protectedHeader).toEqual({ alg: "RS256", kid: jwks.keys[0]?.kid, typ: "JWT" });
    const { authTime, sessionId } = await sessionRow(user.token);
    expect(Object.keys(payload).sort()).toEqual([
      "at_hash",
      "aud",
      "auth_time",
      "azp",
      "exp",
      "iat",
      "iss",
      "nonce",
      "sid",
      "sub",
    ]);
    expect(payload).toMatchObject({
      iss: ISSUER,
      sub: user.id,
      aud: confidential.clientId,
      azp: confidential.clientId,
      nonce,
      sid: sessionId,
      auth_time: Math.floor(authTime.getTime() / 1000),
      at_hash: expectedAtHash(tokens.access_token),
      iat: Math.floor(clock.now().getTime() / 1000),
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info.sub).toBe(user.id);
  });

  it("oidcc-server-client-secret-post: client_id and client_secret in the body, no Authorization header", async () => {
    const config = await kit.rp(confidential, "post");
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, user.token), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    const sent = kit.lastExchange("/oidc/token");
    expect(sent.requestHeaders.authorization).toBeUndefined();
    const body = new URLSearchParams(sent.requestBody);
    expect(body.get("client_id")).toBe(confidential.clientId);
    expect(body.get("client_secret")).toBe(confidential.clientSecret);
    expect(tokens.claims()?.sub).toBe(user.id);
    expect(tokens.scope).toBe("openid");
  });

  it("PKCE plain: openid-client passes the plain challenge through and the verifier matches it", async () => {
    const config = await kit.rp(confidential);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: "openid",
      code_challenge: verifier,
      code_challenge_method: "plain",
      state,
    });
    expect(url.searchParams.get("code_challenge_method")).toBe("plain");
    const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, user.token), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.claims()?.sub).toBe(user.id);
  });

  it("PKCE with a challenge but no method is plain (RFC 7636 §4.3)", async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const res = await kit.authorize(
      {
        client_id: confidential.clientId,
        redirect_uri: RP_CALLBACK,
        response_type: "code",
        scope: "openid",
        code_challenge: verifier,
      },
      user.token,
    );
    const code = new URL(String(res.headers.location)).searchParams.get("code") ?? "";
    const ok = await kit.token(confidential, {
      grant_type: "authorization_code",
      code,
      redirect_uri: RP_CALLBACK,
      code_verifier: verifier,
    });
    expect(ok.statusCode).toBe(200);
  });

  it("PKCE verifiers of 43 and 128 characters both work (RFC 7636 §4.1)", async () => {
    for (const verifier of ["a".repeat(43), `${"A1-._~".repeat(21)}xy`]) {
      expect(verifier.length === 43 || verifier.length === 128).toBe(true);
      const res = await kit.authorize(
        {
          client_id: confidential.clientId,
          redirect_uri: RP_CALLBACK,
          response_type: "code",
          scope: "openid",
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
        },
        user.token,
      );
      const code = new URL(String(res.headers.location)).searchParams.get("code") ?? "";
      const exchanged = await kit.token(confidential, {
        grant_type: "authorization_code",
        code,
        redirect_uri: RP_CALLBACK,
        code_verifier: verifier,
      });
      expect(exchanged.statusCode).toBe(200);
    }
  });

  it("oidcc-ensure-request-without-nonce-succeeds-for-code-flow: no nonce → an ID token without one", async () => {
    const config = await kit.rp(confidential);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, user.token), {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    expect(tokens.claims()).not.toHaveProperty("nonce");
  });

  it("a confidential client without PKCE (require_pkce false) is served, and no refresh token without offline_access", async () => {
    const config = await kit.rp(confidential);
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: "openid email",
      state,
    });
    const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, user.token), {
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.refresh_token).toBeUndefined();
    const raw = JSON.parse(kit.lastExchange("/oidc/token").responseBody) as Record<string, unknown>;
    expect(Object.keys(raw).sort()).toEqual([
      "access_token",
      "expires_in",
      "id_token",
      "scope",
      "token_type",
    ]);
  });

  it("oidcc-ensure-request-with-unknown-parameter-succeeds; oidcc-ensure-other-scope-order-succeeds", async () => {
    const issued = await kit.issueCode(confidential, user.token, {
      scope: "email openid",
      extra: { unknown_parameter: "x", acr_values: "1 2", login_hint: user.email, ui_locales: "ru" },
    });
    const res = await kit.exchange(confidential, issued);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { scope: string }).scope).toBe("email openid");
  });

  it("a public client: client_id only (no secret, no Authorization) with PKCE", async () => {
    const pub = await kit.register({
      name: "Public native RP",
      isPublic: true,
      applicationType: "native",
      redirectUris: ["com.example.app:/callback"],
    });
    const config = await kit.rp(pub, "none");
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: "com.example.app:/callback",
      scope: ALL_SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const tokens = await oidc.authorizationCodeGrant(config, await kit.follow(url, user.token), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    const sent = kit.lastExchange("/oidc/token");
    expect(sent.requestHeaders.authorization).toBeUndefined();
    const body = new URLSearchParams(sent.requestBody);
    expect(body.get("client_id")).toBe(pub.clientId);
    expect(body.has("client_secret")).toBe(false);
    expect(tokens.claims()?.aud).toBe(pub.clientId);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    // Its refresh also authenticates by client_id alone.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });
});

describe("userinfo: claims by granted scope (oidcc-scope-*)", () => {
  it("openid only → just sub (GET and POST, oidcc-userinfo-get / oidcc-userinfo-post-header)", async () => {
    const tokens = await kit.tokensFor(confidential, user.token, { scope: "openid" });
    for (const method of ["GET", "POST"] as const) {
      const res = await kit.userinfo(tokens.access_token, method);
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.json()).toStrictEqual({ sub: user.id });
    }
  });

  it("oidcc-scope-profile: names, updated_at in integer seconds, phone_number_verified false; no picture without an avatar", async () => {
    const tokens = await kit.tokensFor(confidential, user.token, { scope: "openid profile" });
    const row = await t.db.withTenant(tenantId, (tx) =>
      tx.user.findFirstOrThrow({
        where: { id: user.id },
        select: { firstName: true, lastName: true, updatedAt: true, avatarUrl: true },
      }),
    );
    expect(row.avatarUrl).toBeNull();
    const info = (await kit.userinfo(tokens.access_token)).json() as Record<string, unknown>;
    expect(info).toStrictEqual({
      sub: user.id,
      name: `${row.firstName} ${row.lastName}`,
      given_name: row.firstName,
      family_name: row.lastName,
      updated_at: Math.floor(row.updatedAt.getTime() / 1000),
      phone_number_verified: false,
    });
    expect(Number.isInteger(info.updated_at)).toBe(true);
  });

  it("oidcc-scope-email: email and email_verified false", async () => {
    const tokens = await kit.tokensFor(confidential, user.token, { scope: "openid email" });
    expect((await kit.userinfo(tokens.access_token)).json()).toStrictEqual({
      sub: user.id,
      email: user.email,
      email_verified: false,
    });
  });

  it("oidcc-scope-all: every claim, through openid-client's fetchUserInfo (subject checked)", async () => {
    const config = await kit.rp(confidential);
    const tokens = await kit.tokensFor(confidential, user.token, { scope: ALL_SCOPES });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(Object.keys(info).sort()).toEqual([
      "email",
      "email_verified",
      "family_name",
      "given_name",
      "name",
      "phone_number_verified",
      "sub",
      "updated_at",
    ]);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, randomUUID())).rejects.toThrow();
  });
});

describe("userinfo: picture (the avatar as an absolute URL)", () => {
  let member: SeededUser;
  let profileToken: string;

  beforeAll(async () => {
    member = await t.createUser(tenantId, []);
    profileToken = (await kit.tokensFor(confidential, member.token, { scope: "openid profile" }))
      .access_token;
  });

  const putAvatar = (avatarUrl: string) =>
    t.app.inject({ method: "PUT", url: "/account", headers: member.headers, payload: { avatarUrl } });
  const storeAvatar = (avatarUrl: string) =>
    t.db.withTenant(tenantId, (tx) => tx.user.updateMany({ where: { id: member.id }, data: { avatarUrl } }));
  const picture = async () => ((await kit.userinfo(profileToken)).json() as Record<string, unknown>).picture;

  it("an absolute avatar URL set through PUT /account is published as is", async () => {
    const avatar = "https://cdn.example.com/avatars/me.png";
    expect((await putAvatar(avatar)).statusCode).toBe(200);
    expect(await picture()).toBe(avatar);
  });

  it("an uploaded avatar (its relative contentUrl, set through PUT /account) becomes an absolute URL on the issuer", async () => {
    // An avatar upload must be the organization's own (PUT /account checks it): record one.
    const upload = await t.db.withTenant(tenantId, (tx) =>
      tx.upload.create({
        data: { tenantId, originalName: "me.png", size: 1n, mimeType: "image/png", sha256: "0".repeat(64) },
      }),
    );
    const contentUrl = `/uploads/${upload.id}/content`;
    const put = await putAvatar(contentUrl);
    expect({ status: put.statusCode, body: put.json() as unknown }).toMatchObject({ status: 200 });
    expect(await picture()).toBe(`${ISSUER}${contentUrl}`);
  });

  it("a relative avatar already stored is made absolute on the issuer", async () => {
    const contentUrl = `/uploads/${randomUUID()}/content`;
    await storeAvatar(contentUrl);
    expect(await picture()).toBe(`${ISSUER}${contentUrl}`);
  });

  it.each([
    "javascript:alert(document.domain)",
    "data:text/html,<script>alert(1)</script>",
  ])("PUT /account refuses the avatar URL %s (not http(s))", async (avatarUrl) => {
    expect((await putAvatar(avatarUrl)).statusCode).toBe(400);
  });

  it.each([
    "javascript:alert(document.domain)",
    "data:text/html,<script>alert(1)</script>",
  ])("userinfo never publishes %s as picture, whatever is stored", async (avatarUrl) => {
    await storeAvatar(avatarUrl);
    expect(await picture()).toBeUndefined();
  });
});

describe("oidcc-refresh-token: refresh with rotation", () => {
  it("each refresh returns a new refresh token and a fresh ID token; the previous refresh token is dead", async () => {
    const config = await kit.rp(confidential);
    const first = await kit.tokensFor(confidential, user.token, { nonce: "n-refresh" });
    const seen = new Set([first.refresh_token]);
    let current = first.refresh_token ?? "";
    let previous = "";
    for (let round = 0; round < 2; round++) {
      const next = await oidc.refreshTokenGrant(config, current);
      const sent = kit.lastExchange("/oidc/token");
      expect(sent.responseHeaders["cache-control"]).toBe("no-store");
      expect(Object.keys(JSON.parse(sent.responseBody)).sort()).toEqual([
        "access_token",
        "expires_in",
        "id_token",
        "refresh_token",
        "scope",
        "token_type",
      ]);
      expect(next.refresh_token).toEqual(expect.any(String));
      expect(seen.has(next.refresh_token)).toBe(false);
      seen.add(next.refresh_token);
      expect(next.claims()?.sub).toBe(user.id);
      const { payload } = await verifyIdToken(next.id_token ?? "", confidential.clientId);
      expect(payload.at_hash).toBe(expectedAtHash(next.access_token));
      await kit.expectAccessTokenAlive(next.access_token);
      previous = current;
      current = next.refresh_token ?? "";
    }
    // The rotated token no longer works (and presenting it revokes the family: see the negative suite).
    await kit.expectRefreshTokenDead(confidential, previous);
  });

  it("a refresh may narrow the scope; the refresh token keeps the original grant", async () => {
    const first = await kit.tokensFor(confidential, user.token, { scope: ALL_SCOPES });
    const narrowed = await kit.refresh(confidential, first.refresh_token ?? "", { scope: "openid" });
    expect(narrowed.statusCode).toBe(200);
    const body = narrowed.json() as { scope: string; access_token: string; refresh_token: string };
    expect(body.scope).toBe("openid");
    expect((await kit.userinfo(body.access_token)).json()).toStrictEqual({ sub: user.id });
    const widened = await kit.refresh(confidential, body.refresh_token);
    expect(widened.statusCode).toBe(200);
    expect((widened.json() as { scope: string }).scope).toBe(ALL_SCOPES);
  });
});

describe("revocation (RFC 7009)", () => {
  it("revoking an access token kills it at once; the refresh token lives on", async () => {
    const config = await kit.rp(confidential);
    const tokens = await kit.tokensFor(confidential, user.token);
    await kit.expectAccessTokenAlive(tokens.access_token);
    await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: "access_token" });
    expect(kit.lastExchange("/oidc/revoke").status).toBe(200);
    await kit.expectAccessTokenDead(tokens.access_token);
    const refreshed = await kit.refresh(confidential, tokens.refresh_token ?? "");
    expect(refreshed.statusCode).toBe(200);
  });

  it("revoking a refresh token kills it and the access tokens of its grant", async () => {
    const config = await kit.rp(confidential, "post");
    const tokens = await kit.tokensFor(confidential, user.token);
    const refreshed = (await kit.refresh(confidential, tokens.refresh_token ?? "")).json() as {
      access_token: string;
      refresh_token: string;
    };
    // A wrong hint is only a hint (RFC 7009 §2.1).
    await oidc.tokenRevocation(config, refreshed.refresh_token, { token_type_hint: "access_token" });
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectAccessTokenDead(refreshed.access_token);
    await kit.expectRefreshTokenDead(confidential, refreshed.refresh_token);
  });

  it("an unknown token answers 200; another client's token answers 200 and stays valid", async () => {
    const other = await kit.register({ name: "Other RP" });
    const tokens = await kit.tokensFor(confidential, user.token);
    const unknown = await kit.revoke(confidential, "x".repeat(43));
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe("");
    const foreign = await kit.revoke(other, tokens.access_token);
    expect(foreign.statusCode).toBe(200);
    const foreignRefresh = await kit.revoke(other, tokens.refresh_token ?? "", "refresh_token");
    expect(foreignRefresh.statusCode).toBe(200);
    await kit.expectAccessTokenAlive(tokens.access_token);
    expect((await kit.refresh(confidential, tokens.refresh_token ?? "")).statusCode).toBe(200);
  });
});

describe("introspection (RFC 7662)", () => {
  const introspect = (client: RegisteredClient, token: string) =>
    kit.postForm("/oidc/introspect", { token }, kit.clientAuth(client).headers);

  it("describes the client's own live tokens, nothing of anyone else's, and nothing once revoked", async () => {
    const other = await kit.register({ name: "Other introspecting RP" });
    const tokens = await kit.tokensFor(confidential, user.token);
    const refreshToken = tokens.refresh_token ?? "";
    const access = await introspect(confidential, tokens.access_token);
    expect(access.statusCode).toBe(200);
    const body = access.json() as Record<string, unknown>;
    expect(body).toMatchObject({
      active: true,
      client_id: confidential.clientId,
      sub: user.id,
      token_type: "Bearer",
      iss: ISSUER,
    });
    expect(body.exp).toBeGreaterThan(body.iat as number);
    expect(Math.abs((body.iat as number) - Date.now() / 1000)).toBeLessThan(120);
    expect((await introspect(confidential, refreshToken)).json()).toMatchObject({
      active: true,
      token_type: "refresh_token",
      sub: user.id,
    });
    // Another client's view, an unknown token and a malformed one: inactive, nothing more.
    expect((await introspect(other, tokens.access_token)).json()).toEqual({ active: false });
    expect((await introspect(confidential, "x".repeat(43))).json()).toEqual({ active: false });
    expect((await introspect(confidential, "not a token")).json()).toEqual({ active: false });
    // A public client may not introspect; a wrong secret is invalid_client.
    const pub = await kit.register({ name: "Public introspecting RP", isPublic: true });
    expect((await introspect(pub, tokens.access_token)).statusCode).toBe(401);
    const wrong = await kit.postForm(
      "/oidc/introspect",
      { token: tokens.access_token, client_id: confidential.clientId, client_secret: "wrong" },
      {},
    );
    expect(wrong.statusCode).toBe(401);
    // Revoked (the whole grant, through its refresh token): both inactive.
    expect((await kit.revoke(confidential, refreshToken, "refresh_token")).statusCode).toBe(200);
    expect((await introspect(confidential, tokens.access_token)).json()).toEqual({ active: false });
    expect((await introspect(confidential, refreshToken)).json()).toEqual({ active: false });
  });
});

describe("loopback redirect URIs (RFC 8252 §7.3): public native clients only, e.g. hisob-desktop", () => {
  it("the accountant app is registered: public, PKCE required, first-party, native, exactly its two redirect URIs", async () => {
    const record = await t.oidc.clients.findActive(DESKTOP_CLIENT_ID);
    expect(record).toMatchObject({
      clientId: DESKTOP_CLIENT_ID,
      secretHash: null,
      requirePkce: true,
      isFirstParty: true,
      applicationType: "native",
      redirectUris: [DESKTOP_CALLBACK, "http://127.0.0.1/callback"],
    });
  });

  it("http://127.0.0.1:<any port>/callback is accepted and the whole flow completes with openid-client", async () => {
    const config = await kit.rp(kit.desktop, "none");
    for (const port of [1024, 53123, 65535]) {
      const redirectUri = `http://127.0.0.1:${port}/callback`;
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: ALL_SCOPES,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      });
      const callback = await kit.follow(url, user.token);
      expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        idTokenExpected: true,
      });
      expect(new URLSearchParams(kit.lastExchange("/oidc/token").requestBody).get("redirect_uri")).toBe(
        redirectUri,
      );
      expect(tokens.claims()?.aud).toBe(DESKTOP_CLIENT_ID);
    }
  });

  it("the registered app callback on the issuer also works", async () => {
    const tokens = await kit.tokensFor(kit.desktop, user.token, { redirectUri: DESKTOP_CALLBACK });
    await kit.expectAccessTokenAlive(tokens.access_token);
  });

  it("the code is bound to the port it was issued for", async () => {
    const issued = await kit.issueCode(kit.desktop, user.token, {
      redirectUri: "http://127.0.0.1:5000/callback",
    });
    expectOidcError(
      await kit.exchange(kit.desktop, issued, { redirect_uri: "http://127.0.0.1:5001/callback" }),
      400,
      "invalid_grant",
    );
  });

  it.each([
    ["another path", "http://127.0.0.1:8080/cb"],
    ["a longer path", "http://127.0.0.1:8080/callback/x"],
    ["a trailing slash", "http://127.0.0.1:8080/callback/"],
    ["localhost instead of the IP literal", "http://localhost:8080/callback"],
    ["IPv6 loopback (not registered)", "http://[::1]:8080/callback"],
    ["another host", "http://127.0.0.2:8080/callback"],
    ["https", "https://127.0.0.1:8080/callback"],
    ["an added query", "http://127.0.0.1:8080/callback?x=1"],
    ["credentials", "http://user:pw@127.0.0.1:8080/callback"],
    ["a fragment", "http://127.0.0.1:8080/callback#frag"],
  ])("refuses %s as JSON, never a redirect", async (_case, redirectUri) => {
    const res = await kit.authorize(
      {
        client_id: DESKTOP_CLIENT_ID,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "openid",
        code_challenge: "a".repeat(43),
        code_challenge_method: "S256",
      },
      user.token,
    );
    expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
  });

  it("a confidential web client registered with a loopback URI gets no port leniency", async () => {
    // First-party: the code comes at once, without the consent page.
    const web = await kit.register({
      name: "Loopback web",
      isFirstParty: true,
      redirectUris: ["http://127.0.0.1/callback"],
    });
    const params = { client_id: web.clientId, response_type: "code", scope: "openid" };
    expectAuthorizeJsonError(
      await kit.authorize({ ...params, redirect_uri: "http://127.0.0.1:8080/callback" }, user.token),
      "invalid_request",
      "Invalid redirect_uri",
    );
    const exact = await kit.authorize({ ...params, redirect_uri: "http://127.0.0.1/callback" }, user.token);
    expect(exact.statusCode).toBe(302);
    expect(new URL(String(exact.headers.location)).searchParams.get("code")).toEqual(expect.any(String));
  });

  it("a public client that is not native gets no port leniency either", async () => {
    const spa = await kit.register({
      name: "Public web",
      isPublic: true,
      applicationType: "web",
      redirectUris: ["http://127.0.0.1/callback"],
    });
    const res = await kit.authorize(
      {
        client_id: spa.clientId,
        redirect_uri: "http://127.0.0.1:8080/callback",
        response_type: "code",
        scope: "openid",
        code_challenge: "a".repeat(43),
        code_challenge_method: "S256",
      },
      user.token,
    );
    expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
  });
});

describe("oidcc-redirect-uri-query-*: a registered redirect URI with a query", () => {
  it("OK: the registered query is kept and the code added; mismatched or added queries are refused", async () => {
    const registered = "https://rp.example/cb?tenant=acme";
    const client = await kit.register({ name: "Query RP", redirectUris: [registered] });
    const issued = await kit.issueCode(client, user.token, { state: "s1", scope: "openid" });
    expect(issued.callback.searchParams.get("tenant")).toBe("acme");
    expect(issued.callback.searchParams.get("state")).toBe("s1");
    expect((await kit.exchange(client, issued)).statusCode).toBe(200);

    for (const redirectUri of [
      "https://rp.example/cb?tenant=other",
      "https://rp.example/cb?tenant=acme&x=1",
      "https://rp.example/cb",
    ]) {
      const res = await kit.authorize(
        { client_id: client.clientId, redirect_uri: redirectUri, response_type: "code", scope: "openid" },
        user.token,
      );
      expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
    }
  });
});

describe("login page round trip", () => {
  it("no session → /login?next=…; the form post signs in and following next issues the code", async () => {
    const config = await kit.rp(confidential);
    const verifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: ALL_SCOPES,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      state,
    });
    const anonymous = await t.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers["cache-control"]).toBe("no-store");
    const login = new URL(String(anonymous.headers.location), ISSUER);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("next")).toBe(`${url.pathname}${url.search}`);
    // No code was issued to nobody.
    expect(String(anonymous.headers.location)).not.toContain("code=");

    clock.advance(5_000);
    const signedIn = await kit.signInThroughLoginPage(`${login.pathname}${login.search}`, user);
    expect(signedIn.next).toBe(`${url.pathname}${url.search}`);
    const callback = await kit.follow(new URL(signedIn.next, ISSUER), signedIn.session);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      maxAge: 60,
    });
    // auth_time is the new login, not the older session.
    const claims = tokens.claims();
    expect(claims?.sub).toBe(user.id);
    expect(claims?.auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
    expect(claims?.sid).toBe((await sessionRow(signedIn.session)).sessionId);
  });

  it("oidcc-max-age-1: a session older than max_age signs in again; openid-client's max_age check passes", async () => {
    const config = await kit.rp(confidential);
    const oldSession = await kit.newSession(user);
    clock.advance(120_000);
    try {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: RP_CALLBACK,
        scope: "openid",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        max_age: "60",
      });
      const stale = await t.app.inject({
        method: "GET",
        url: `${url.pathname}${url.search}`,
        cookies: { session: oldSession },
      });
      // Not a code for the old sign-in: the login page.
      expect(stale.statusCode).toBe(302);
      const login = new URL(String(stale.headers.location), ISSUER);
      expect(login.pathname).toBe("/login");
      clock.advance(3_000); // the user types a password
      const signedIn = await kit.signInThroughLoginPage(`${login.pathname}${login.search}`, user, oldSession);
      const callback = await kit.follow(new URL(signedIn.next, ISSUER), signedIn.session);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        maxAge: 60,
      });
      expect(tokens.claims()?.auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
    } finally {
      clock.set(new Date());
    }
  });

  it("oidcc-prompt-login: prompt=login signs in again even with a fresh session", async () => {
    const current = await kit.newSession(user);
    clock.advance(5_000);
    try {
      const res = await kit.authorize(
        {
          client_id: confidential.clientId,
          redirect_uri: RP_CALLBACK,
          response_type: "code",
          scope: "openid",
          prompt: "login",
        },
        current,
      );
      expect(res.statusCode).toBe(302);
      const login = new URL(String(res.headers.location), ISSUER);
      expect(login.pathname).toBe("/login");
      clock.advance(3_000); // the user types a password
      const signedIn = await kit.signInThroughLoginPage(`${login.pathname}${login.search}`, user, current);
      const callback = await kit.follow(new URL(signedIn.next, ISSUER), signedIn.session);
      const code = callback.searchParams.get("code") ?? "";
      const exchanged = await kit.token(confidential, {
        grant_type: "authorization_code",
        code,
        redirect_uri: RP_CALLBACK,
      });
      const claims = decodeJwt((exchanged.json() as { id_token: string }).id_token);
      expect(claims.auth_time).toBe(Math.floor(clock.now().getTime() / 1000));
      expect(claims.sid).toBe((await sessionRow(signedIn.session)).sessionId);
    } finally {
      clock.set(new Date());
    }
  });

  it("an authorization request with a long (accepted) state and nonce survives the login round trip", async () => {
    // Both are within what /oidc/authorize accepts (state ≤ 2048, nonce ≤ 512 characters).
    const state = "s".repeat(1500);
    const nonce = "n".repeat(500);
    const issued = {
      client_id: confidential.clientId,
      redirect_uri: RP_CALLBACK,
      response_type: "code",
      scope: "openid",
      state,
      nonce,
    };
    const anonymous = await kit.authorize(issued);
    expect(anonymous.statusCode).toBe(302);
    const login = new URL(String(anonymous.headers.location), ISSUER);
    const authorizePath = login.searchParams.get("next") ?? "";
    expect(authorizePath).toMatch(/^\/oidc\/authorize\?/);
    const signedIn = await kit.signInThroughLoginPage(`${login.pathname}${login.search}`, user);
    // The browser must come back to the authorization request, not to the default landing page.
    expect(signedIn.next).toBe(authorizePath);
    const callback = await kit.follow(new URL(signedIn.next, ISSUER), signedIn.session);
    expect(callback.searchParams.get("state")).toBe(state);
  });

  it("ui_locales is carried to the login page", async () => {
    const res = await kit.authorize({
      client_id: confidential.clientId,
      redirect_uri: RP_CALLBACK,
      response_type: "code",
      scope: "openid",
      ui_locales: "uz",
    });
    expect(res.statusCode).toBe(302);
    const login = new URL(String(res.headers.location), ISSUER);
    expect(login.searchParams.get("ui_locales")).toBe("uz");
    const page = await t.app.inject({ method: "GET", url: `${login.pathname}${login.search}` });
    expect(page.body).toMatch(/<html lang="uz">/);
  });
});

describe("ID token as issued by the token endpoint", () => {
  it("is signed by the key published at /oidc/keys; decodeJwt of the raw token shows the spec's claims", async () => {
    const tokens = await kit.tokensFor(confidential, user.token, { nonce: "n-1", scope: "openid" });
    const claims = decodeJwt(tokens.id_token ?? "");
    expect(claims).toMatchObject({ iss: ISSUER, sub: user.id, aud: confidential.clientId, nonce: "n-1" });
    expect(claims.at_hash).toBe(expectedAtHash(tokens.access_token));
  });
});
