import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { createManualClock } from "@hisob/kernel";
import { SignJWT, UnsecuredJWT } from "jose";
import * as oidc from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import {
  ALL_SCOPES,
  basicAuth,
  createOidcKit,
  expectAuthorizeJsonError,
  expectErrorRedirect,
  expectOidcError,
  FORM,
  ISSUER,
  type OidcKit,
  pkceS256,
  type RegisteredClient,
  RP_CALLBACK,
  type TokenBody,
} from "./oidc-test-kit";

/*
 * The hostile cases, each named after the OpenID conformance-suite module it mirrors (or the RFC
 * rule when no module covers it). Every refusal asserts the exact error code, the HTTP status we
 * decided (400; 401 + WWW-Authenticate for invalid_client / invalid_token), the body shape
 * `{ error, error_description }` — hence no token — and, where tokens existed, that they died.
 */

const clock = createManualClock(new Date());
const sha256Hex = (value: string) => createHash("sha256").update(value).digest("hex");
let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let user: SeededUser;
let admin: SeededUser;
let rp: RegisteredClient;
let other: RegisteredClient;
let pub: RegisteredClient;

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Hostile Co")).id;
  user = await t.createUser(tenantId, []);
  admin = await t.createUser(tenantId, "admin");
  rp = await kit.register({ name: "RP" });
  other = await kit.register({ name: "Other RP", redirectUris: ["https://other.example/cb"] });
  pub = await kit.register({
    name: "Public RP",
    isPublic: true,
    applicationType: "native",
    redirectUris: ["com.example.app:/cb"],
  });
});

afterAll(async () => {
  await t?.close();
});

// Tests that move the clock put it back to real time: openid-client checks iat/exp against its own.
afterEach(() => {
  clock.set(new Date());
});

const authorizeParams = (
  client: RegisteredClient,
  extra: Record<string, string | string[] | undefined> = {},
) => ({
  client_id: client.clientId,
  redirect_uri: client.redirectUri,
  response_type: "code",
  scope: "openid",
  state: "st-1",
  code_challenge: pkceS256("v".repeat(43)),
  code_challenge_method: "S256",
  ...extra,
});

/** A fresh signed-in user with a full token set from `client` (offline_access included). */
const signedInWithTokens = async (client: RegisteredClient = rp) => {
  const member = await t.createUser(tenantId, []);
  const tokens = await kit.tokensFor(client, member.token, { scope: ALL_SCOPES });
  return { member, tokens };
};

describe("oidcc-ensure-authorization-code-is-single-use (code reuse revokes its tokens)", () => {
  it("a second use is invalid_grant and revokes the access and refresh tokens the first use issued", async () => {
    const issued = await kit.issueCode(rp, user.token);
    const first = await kit.exchange(rp, issued);
    expect(first.statusCode).toBe(200);
    const tokens = first.json() as TokenBody;
    await kit.expectAccessTokenAlive(tokens.access_token);

    expectOidcError(await kit.exchange(rp, issued), 400, "invalid_grant", "Authorization code already used");
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
    // And a third use is refused just the same.
    expectOidcError(await kit.exchange(rp, issued), 400, "invalid_grant");
  });

  it("tokens already refreshed from the code's grant die too", async () => {
    const issued = await kit.issueCode(rp, user.token);
    const tokens = (await kit.exchange(rp, issued)).json() as TokenBody;
    const refreshed = (await kit.refresh(rp, tokens.refresh_token ?? "")).json() as TokenBody;
    expectOidcError(await kit.exchange(rp, issued), 400, "invalid_grant");
    await kit.expectAccessTokenDead(refreshed.access_token);
    await kit.expectRefreshTokenDead(rp, refreshed.refresh_token ?? "");
  });

  it("openid-client sees the replay as invalid_grant", async () => {
    const config = await kit.rp(rp);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: RP_CALLBACK,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const callback = await kit.follow(url, user.token);
    await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    await expect(
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }),
    ).rejects.toMatchObject({
      error: "invalid_grant",
      status: 400,
    });
  });

  it("concurrent redemptions of one code issue at most one token set", async () => {
    const issued = await kit.issueCode(rp, user.token);
    const results = await Promise.all([
      kit.exchange(rp, issued),
      kit.exchange(rp, issued),
      kit.exchange(rp, issued),
    ]);
    const ok = results.filter((res) => res.statusCode === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const res of results.filter((r) => r.statusCode !== 200)) expectOidcError(res, 400, "invalid_grant");
  });
});

describe("oidcc-ensure-redirect-uri-in-authorization-request", () => {
  it("no redirect_uri → JSON invalid_request 'Invalid redirect_uri', no redirect, no code", async () => {
    const res = await kit.authorize(authorizeParams(rp, { redirect_uri: undefined }), user.token);
    expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
  });

  it("the token request must name the redirect_uri of the authorization request", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(await kit.exchange(rp, issued, { redirect_uri: undefined }), 400, "invalid_request");
  });
});

describe("oidcc-ensure-registered-redirect-uri", () => {
  it.each([
    ["an unregistered host", "https://evil.example/cb"],
    ["another path", "https://rp.example/cb2"],
    ["a trailing slash", "https://rp.example/cb/"],
    ["another scheme", "http://rp.example/cb"],
    ["different case", "https://rp.example/CB"],
    ["an added query", "https://rp.example/cb?x=1"],
    ["a fragment", "https://rp.example/cb#x"],
    ["a port", "https://rp.example:8443/cb"],
    ["not a URL", "cb"],
  ])("%s → JSON invalid_request, never a redirect", async (_case, redirectUri) => {
    const res = await kit.authorize(authorizeParams(rp, { redirect_uri: redirectUri }), user.token);
    expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
  });

  it("another client's registered redirect_uri is not this client's", async () => {
    const res = await kit.authorize(authorizeParams(rp, { redirect_uri: other.redirectUri }), user.token);
    expectAuthorizeJsonError(res, "invalid_request", "Invalid redirect_uri");
  });

  it("an unknown or missing client_id → JSON, never a redirect", async () => {
    for (const clientId of ["no-such-client", undefined, "x".repeat(101)]) {
      const res = await kit.authorize(authorizeParams(rp, { client_id: clientId }), user.token);
      expectAuthorizeJsonError(res, "invalid_request", "Invalid client_id");
    }
  });

  it("the token request's redirect_uri must equal the authorization request's (another registered one fails)", async () => {
    const two = await kit.register({
      name: "Two URIs",
      redirectUris: ["https://rp.example/a", "https://rp.example/b"],
    });
    const issued = await kit.issueCode(two, user.token);
    expectOidcError(
      await kit.exchange(two, issued, { redirect_uri: "https://rp.example/b" }),
      400,
      "invalid_grant",
      "redirect_uri does not match the authorization request",
    );
  });
});

describe("authorize errors seen by a browser", () => {
  const browserGet = (query: Record<string, string>, headers: Record<string, string>) =>
    t.app.inject({
      method: "GET",
      url: `/oidc/authorize?${new URLSearchParams(query).toString()}`,
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", ...headers },
    });

  it.each([
    ["en", "This sign-in link is not valid"],
    ["ru", "Эта ссылка для входа недействительна"],
    ["uz", "Bu kirish havolasi yaroqsiz"],
  ])("a wrong redirect_uri → an HTML page in %s, no JSON, no redirect", async (locale, heading) => {
    const query = authorizeParams(rp, { redirect_uri: "https://evil.example/cb" }) as Record<string, string>;
    const res = await browserGet(query, { "accept-language": `${locale},en;q=0.5` });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["content-language"]).toBe(locale);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain(heading);
    expect(res.body).not.toContain('{"error"');
    expect(res.body).not.toContain("evil.example");
  });

  it("an unknown client_id → the page, in the language of ui_locales", async () => {
    const query = authorizeParams(rp, { client_id: "no-such-client", ui_locales: "uz" }) as Record<
      string,
      string
    >;
    const res = await browserGet(query, { "accept-language": "ru" });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-language"]).toBe("uz");
    expect(res.body).toContain("Bu kirish havolasi yaroqsiz");
    expect(res.body).toContain("Invalid client_id");
  });

  it("an API caller (Accept: application/json) keeps the RFC JSON", async () => {
    const query = authorizeParams(rp, { redirect_uri: "https://evil.example/cb" }) as Record<string, string>;
    const res = await browserGet(query, { accept: "application/json" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: "invalid_request", error_description: "Invalid redirect_uri" });
  });
});

describe("oidcc-ensure-pkce-required", () => {
  it("a public client without code_challenge → error redirect invalid_request (with state and iss)", async () => {
    const res = await kit.authorize(
      authorizeParams(pub, { code_challenge: undefined, code_challenge_method: undefined }),
      user.token,
    );
    expectErrorRedirect(res, pub.redirectUri, "invalid_request", "st-1", /code_challenge is required/);
  });

  it("a confidential client registered with require_pkce must send a challenge too", async () => {
    const strict = await kit.register({ name: "PKCE confidential", requirePkce: true });
    const res = await kit.authorize(
      authorizeParams(strict, { code_challenge: undefined, code_challenge_method: undefined }),
      user.token,
    );
    expectErrorRedirect(res, strict.redirectUri, "invalid_request", "st-1");
  });

  it.each([
    ["an unsupported method", { code_challenge_method: "S512" }],
    ["a lower-case method", { code_challenge_method: "s256" }],
    ["a method without a challenge", { code_challenge: undefined }],
    ["a malformed S256 challenge (42 characters)", { code_challenge: "a".repeat(42) }],
    ["an S256 challenge with padding", { code_challenge: `${"a".repeat(42)}=` }],
    ["a plain challenge shorter than 43", { code_challenge: "a".repeat(42), code_challenge_method: "plain" }],
    [
      "a plain challenge longer than 128",
      { code_challenge: "a".repeat(129), code_challenge_method: "plain" },
    ],
    [
      "a plain challenge with characters outside RFC 7636",
      { code_challenge: `${"a".repeat(42)}+`, code_challenge_method: "plain" },
    ],
  ])("%s → error redirect invalid_request", async (_case, override) => {
    const res = await kit.authorize(authorizeParams(pub, override), user.token);
    expectErrorRedirect(res, pub.redirectUri, "invalid_request", "st-1");
  });
});

describe("oidcc-ensure-pkce-code-verifier-required", () => {
  it("a code issued with a challenge: no code_verifier → invalid_grant", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(
      await kit.exchange(rp, issued, { code_verifier: undefined }),
      400,
      "invalid_grant",
      "code_verifier is required",
    );
  });

  it.each([
    ["a wrong verifier", oidc.randomPKCECodeVerifier()],
    ["a verifier of 42 characters", "a".repeat(42)],
    ["a verifier of 129 characters", "a".repeat(129)],
    ["a verifier with characters outside RFC 7636", `${"a".repeat(42)}+`],
  ])("%s → invalid_grant", async (_case, verifier) => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(await kit.exchange(rp, issued, { code_verifier: verifier }), 400, "invalid_grant");
  });

  it("a public client's code without its verifier → invalid_grant", async () => {
    const issued = await kit.issueCode(pub, user.token);
    expectOidcError(await kit.exchange(pub, issued, { code_verifier: undefined }), 400, "invalid_grant");
  });
});

describe("oidcc-ensure-pkce-downgrade", () => {
  it("a verifier for a code issued without a challenge → invalid_grant (RFC 9700 §4.8.2)", async () => {
    const issued = await kit.issueCode(rp, user.token, { pkce: false });
    expectOidcError(await kit.exchange(rp, issued), 400, "invalid_grant");
  });

  it("S256 at authorization, the challenge itself sent as a plain verifier → invalid_grant", async () => {
    const issued = await kit.issueCode(rp, user.token, { pkce: "S256" });
    expectOidcError(
      await kit.exchange(rp, issued, { code_verifier: issued.challenge }),
      400,
      "invalid_grant",
    );
  });

  it("plain at authorization with an S256-shaped challenge, the S256 pre-image sent → invalid_grant", async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const res = await kit.authorize(
      authorizeParams(rp, { code_challenge: pkceS256(verifier), code_challenge_method: "plain" }),
      user.token,
    );
    const code = new URL(String(res.headers.location)).searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    expectOidcError(
      await kit.token(rp, {
        grant_type: "authorization_code",
        code,
        redirect_uri: rp.redirectUri,
        code_verifier: verifier,
      }),
      400,
      "invalid_grant",
    );
  });
});

describe("oidcc-codereuse-30seconds-style: the code expires (lifetime 60 s, injected clock)", () => {
  it("usable at 59 s", async () => {
    const issued = await kit.issueCode(rp, user.token);
    clock.advance(59_000);
    expect((await kit.exchange(rp, issued)).statusCode).toBe(200);
  });

  it("expired at 60 s and after → invalid_grant, no tokens", async () => {
    const atLimit = await kit.issueCode(rp, user.token);
    const later = await kit.issueCode(rp, user.token);
    clock.advance(60_000);
    expectOidcError(await kit.exchange(rp, atLimit), 400, "invalid_grant", "Authorization code expired");
    clock.advance(1_000);
    expectOidcError(await kit.exchange(rp, later), 400, "invalid_grant", "Authorization code expired");
    // Nothing was issued for either code.
    const grants = await t.db.withTenant(tenantId, (tx) =>
      tx.oidcAuthorizationCode.findMany({
        where: { grantId: { not: null }, consumedAt: { not: null }, createdAt: { gte: new Date(0) } },
        select: { codeHash: true },
      }),
    );
    expect(grants.map((row) => row.codeHash)).not.toContain(sha256Hex(atLimit.code));
    expect(grants.map((row) => row.codeHash)).not.toContain(sha256Hex(later.code));
  });
});

describe("token lifetimes (OIDC_ACCESS_TOKEN_LIFETIME, OIDC_REFRESH_TOKEN_LIFETIME)", () => {
  it("an access token expires after 3600 s → invalid_token", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    clock.advance(3_599_000);
    await kit.expectAccessTokenAlive(tokens.access_token);
    clock.advance(1_000);
    await kit.expectAccessTokenDead(tokens.access_token);
  });

  it("a refresh token expires after 30 days → invalid_grant", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    clock.advance(2_592_000_000);
    expectOidcError(await kit.refresh(rp, tokens.refresh_token ?? ""), 400, "invalid_grant");
  });
});

describe("oidcc-refresh-token-scope-escalation", () => {
  it.each([
    ["a scope the grant lacks", "openid profile email offline_access"],
    ["an unknown scope", "openid offline_access admin"],
  ])("%s → invalid_scope; no tokens", async (_case, scope) => {
    const tokens = await kit.tokensFor(rp, user.token, { scope: "openid offline_access" });
    expectOidcError(await kit.refresh(rp, tokens.refresh_token ?? "", { scope }), 400, "invalid_scope");
    // Refused escalation leaves the legitimate token usable at its own scope.
    const ok = await kit.refresh(rp, tokens.refresh_token ?? "");
    expect((ok.json() as TokenBody).scope).toBe("openid offline_access");
  });

  it("openid-client sees invalid_scope", async () => {
    const config = await kit.rp(rp);
    const tokens = await kit.tokensFor(rp, user.token, { scope: "openid offline_access" });
    await expect(
      oidc.refreshTokenGrant(config, tokens.refresh_token ?? "", { scope: "openid email offline_access" }),
    ).rejects.toMatchObject({ error: "invalid_scope", status: 400 });
  });
});

describe("oidcc-refresh-token-reuse (family revoked)", () => {
  it("presenting a rotated refresh token → invalid_grant, and every token of the family dies", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    const second = (await kit.refresh(rp, tokens.refresh_token ?? "")).json() as TokenBody;
    const third = (await kit.refresh(rp, second.refresh_token ?? "")).json() as TokenBody;
    await kit.expectAccessTokenAlive(third.access_token);

    expectOidcError(
      await kit.refresh(rp, tokens.refresh_token ?? ""),
      400,
      "invalid_grant",
      "Refresh token already used",
    );
    for (const access of [tokens.access_token, second.access_token, third.access_token]) {
      await kit.expectAccessTokenDead(access);
    }
    await kit.expectRefreshTokenDead(rp, third.refresh_token ?? "");
  });

  it("concurrent refreshes with one token issue at most one token set", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    const results = await Promise.all([
      kit.refresh(rp, tokens.refresh_token ?? ""),
      kit.refresh(rp, tokens.refresh_token ?? ""),
    ]);
    expect(results.filter((res) => res.statusCode === 200).length).toBeLessThanOrEqual(1);
    for (const res of results.filter((r) => r.statusCode !== 200)) expectOidcError(res, 400, "invalid_grant");
  });

  it("an access token is not a refresh token", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    expectOidcError(await kit.refresh(rp, tokens.access_token), 400, "invalid_grant");
  });
});

describe("oidcc-ensure-client-id-in-token-endpoint / other client's code", () => {
  it("another client presenting the code → invalid_grant, no tokens", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(await kit.exchange(other, issued), 400, "invalid_grant");
    const publicThief = await kit.exchange(pub, issued);
    expectOidcError(publicThief, 400, "invalid_grant");
  });

  it("another client presenting the refresh token → invalid_grant", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    expectOidcError(await kit.refresh(other, tokens.refresh_token ?? ""), 400, "invalid_grant");
  });

  it("no client authentication at all → 401 invalid_client", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(
      await kit.token(null, {
        grant_type: "authorization_code",
        code: issued.code,
        redirect_uri: issued.redirectUri,
        code_verifier: issued.verifier,
      }),
      401,
      "invalid_client",
    );
  });

  it("a confidential client sending client_id alone (as if public) → 401 invalid_client", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(
      await kit.token(
        rp,
        {
          grant_type: "authorization_code",
          code: issued.code,
          redirect_uri: issued.redirectUri,
          code_verifier: issued.verifier,
        },
        { method: "none" },
      ),
      401,
      "invalid_client",
    );
  });

  it("a public client sending a secret → 401 invalid_client", async () => {
    const issued = await kit.issueCode(pub, user.token);
    expectOidcError(await kit.exchange(pub, issued, { client_secret: "guess" }), 401, "invalid_client");
  });

  it("Basic for one client and client_id of another in the body → invalid_request", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expectOidcError(await kit.exchange(rp, issued, { client_id: other.clientId }), 400, "invalid_request");
  });
});

describe("inactive client", () => {
  it("is refused at authorize, token, refresh and revoke; its issued tokens stop working", async () => {
    const doomed = await kit.register({ name: "Soon inactive" });
    const tokens = await kit.tokensFor(doomed, user.token);
    const pending = await kit.issueCode(doomed, user.token);
    await t.db.withPlatform((tx) =>
      tx.oidcClient.update({ where: { clientId: doomed.clientId }, data: { isActive: false } }),
    );

    expectAuthorizeJsonError(
      await kit.authorize(authorizeParams(doomed), user.token),
      "invalid_request",
      "Invalid client_id",
    );
    expectOidcError(await kit.exchange(doomed, pending), 401, "invalid_client");
    expectOidcError(await kit.refresh(doomed, tokens.refresh_token ?? ""), 401, "invalid_client");
    expectOidcError(await kit.revoke(doomed, tokens.access_token), 401, "invalid_client");
    // A deactivated (e.g. compromised) client's access tokens must not keep working for an hour.
    await kit.expectAccessTokenDead(tokens.access_token);
  });
});

describe("wrong client secret", () => {
  it.each([
    "basic",
    "post",
  ] as const)("client_secret_%s with a wrong secret → 401 invalid_client, code unused", async (method) => {
    const issued = await kit.issueCode(rp, user.token);
    const wrong = { ...rp, clientSecret: `${rp.clientSecret ?? ""}x` };
    expectOidcError(
      await kit.token(
        wrong,
        {
          grant_type: "authorization_code",
          code: issued.code,
          redirect_uri: issued.redirectUri,
          code_verifier: issued.verifier,
        },
        { method },
      ),
      401,
      "invalid_client",
    );
    // The failed attempt did not consume the code for the real client.
    expect((await kit.exchange(rp, issued)).statusCode).toBe(200);
  });

  it("an unknown client_id with a secret → 401 invalid_client", async () => {
    expectOidcError(
      await kit.token(
        null,
        { grant_type: "authorization_code", code: "x" },
        { headers: { authorization: basicAuth("nobody", "secret") } },
      ),
      401,
      "invalid_client",
    );
  });

  it("openid-client sees invalid_client (401) with a WWW-Authenticate challenge", async () => {
    const config = await kit.rp({ ...rp, clientSecret: "wrong" });
    const tokens = await kit.tokensFor(rp, user.token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toThrow();
    const sent = kit.lastExchange("/oidc/token");
    expect(sent.status).toBe(401);
    expect(sent.responseHeaders["www-authenticate"]).toMatch(/^Basic /);
  });
});

describe("unsupported grant type", () => {
  it.each([
    "password",
    "client_credentials",
    "implicit",
    "urn:ietf:params:oauth:grant-type:device_code",
    "urn:ietf:params:oauth:grant-type:jwt-bearer",
    "authorization_code ",
  ])("grant_type=%s → unsupported_grant_type", async (grantType) => {
    expectOidcError(
      await kit.token(rp, {
        grant_type: grantType,
        username: user.email,
        password: user.password,
        scope: "openid",
      }),
      400,
      "unsupported_grant_type",
    );
  });

  it("no grant_type → invalid_request", async () => {
    expectOidcError(await kit.token(rp, { code: "x" }), 400, "invalid_request");
  });
});

describe("unauthorized grant type", () => {
  it("a client registered with grant_types [authorization_code] gets no refresh token and may not use refresh_token", async () => {
    const codeOnly = await kit.register({ name: "Code only", grantTypes: ["authorization_code"] });
    const tokens = await kit.tokensFor(codeOnly, user.token, { scope: ALL_SCOPES });
    expect(tokens.refresh_token).toBeUndefined();
    const foreign = await kit.tokensFor(rp, user.token);
    expectOidcError(await kit.refresh(codeOnly, foreign.refresh_token ?? ""), 400, "unauthorized_client");
  });

  it("a client registered with grant_types [refresh_token] only may not start the code flow", async () => {
    const refreshOnly = await kit.register({ name: "Refresh only", grantTypes: ["refresh_token"] });
    const res = await kit.authorize(authorizeParams(refreshOnly), user.token);
    expectErrorRedirect(res, refreshOnly.redirectUri, "unauthorized_client", "st-1");
    expectOidcError(
      await kit.token(refreshOnly, {
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: refreshOnly.redirectUri,
      }),
      400,
      "unauthorized_client",
    );
  });
});

describe("alg none / tampered / unknown-kid tokens at userinfo", () => {
  const claimsFor = (sub: string) => ({ sub, scope: "openid profile email" });

  it.each([
    [
      "an alg:none JWT",
      async () =>
        new UnsecuredJWT(claimsFor(user.id))
          .setIssuer(ISSUER)
          .setAudience(rp.clientId)
          .setIssuedAt()
          .setExpirationTime("1h")
          .encode(),
    ],
    [
      "an RS256 JWT signed by an unknown key (unknown kid)",
      async () => {
        const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
        return new SignJWT(claimsFor(user.id))
          .setProtectedHeader({ alg: "RS256", kid: randomUUID(), typ: "JWT" })
          .setIssuer(ISSUER)
          .setAudience(rp.clientId)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(privateKey);
      },
    ],
    [
      "a genuine ID token (not an access token)",
      async () => (await kit.tokensFor(rp, user.token, { scope: "openid" })).id_token ?? "",
    ],
    [
      "a genuine ID token with a tampered payload (sub changed), original signature",
      async () => {
        const idToken = (await kit.tokensFor(rp, user.token, { scope: "openid" })).id_token ?? "";
        const [header, payload, signature] = idToken.split(".");
        const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString()) as Record<
          string,
          unknown
        >;
        claims.sub = admin.id;
        return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
      },
    ],
    [
      "a genuine ID token re-labelled alg:none with the signature stripped",
      async () => {
        const idToken = (await kit.tokensFor(rp, user.token, { scope: "openid" })).id_token ?? "";
        const [, payload] = idToken.split(".");
        return `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
      },
    ],
    [
      "an access token with one character changed",
      async () => {
        const access = (await kit.tokensFor(rp, user.token, { scope: "openid" })).access_token;
        return `${access.slice(0, -1)}${access.endsWith("A") ? "B" : "A"}`;
      },
    ],
    ["a refresh token", async () => (await kit.tokensFor(rp, user.token)).refresh_token ?? ""],
    ["the browser session token", async () => user.token],
    ["an empty-looking value", async () => "a"],
  ])("%s → 401 invalid_token", async (_case, make) => {
    const value = await make();
    for (const method of ["GET", "POST"] as const) {
      expectOidcError(await kit.userinfo(value, method), 401, "invalid_token");
    }
  });

  it("no Authorization header, another scheme, or the token in the query → 401 invalid_token", async () => {
    const access = (await kit.tokensFor(rp, user.token, { scope: "openid" })).access_token;
    expectOidcError(await t.app.inject({ method: "GET", url: "/oidc/userinfo" }), 401, "invalid_token");
    expectOidcError(
      await t.app.inject({
        method: "GET",
        url: "/oidc/userinfo",
        headers: { authorization: `Basic ${access}` },
      }),
      401,
      "invalid_token",
    );
    expectOidcError(
      await t.app.inject({ method: "GET", url: `/oidc/userinfo?access_token=${access}` }),
      401,
      "invalid_token",
    );
    expectOidcError(
      await t.app.inject({
        method: "GET",
        url: "/oidc/userinfo",
        headers: { authorization: `Bearer ${access} extra` },
      }),
      401,
      "invalid_token",
    );
  });
});

describe("authorize: scope and response_type errors go back to the client (RFC 6749 §4.1.2.1)", () => {
  it("scope without openid → invalid_scope", async () => {
    const res = await kit.authorize(authorizeParams(rp, { scope: "profile email" }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "invalid_scope", "st-1");
  });

  it("an unknown scope → invalid_scope", async () => {
    const res = await kit.authorize(authorizeParams(rp, { scope: "openid admin" }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "invalid_scope", "st-1", /admin/);
  });

  it("a scope the client is not registered for → invalid_scope", async () => {
    const narrow = await kit.register({ name: "Narrow", scopes: ["openid"] });
    const res = await kit.authorize(authorizeParams(narrow, { scope: "openid email" }), user.token);
    expectErrorRedirect(res, narrow.redirectUri, "invalid_scope", "st-1");
  });

  it("no scope → invalid_request", async () => {
    const res = await kit.authorize(authorizeParams(rp, { scope: undefined }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "invalid_request", "st-1");
  });

  it.each([
    "token",
    "id_token",
    "code id_token",
    "code token",
    "none",
  ])("response_type=%s → unsupported_response_type", async (responseType) => {
    const res = await kit.authorize(authorizeParams(rp, { response_type: responseType }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "unsupported_response_type", "st-1");
  });

  it("oidcc-response-type-missing → invalid_request", async () => {
    const res = await kit.authorize(authorizeParams(rp, { response_type: undefined }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "invalid_request", "st-1");
  });

  it("the same errors are refused without a session too (no login page first)", async () => {
    const res = await kit.authorize(authorizeParams(rp, { scope: "profile" }), null);
    expectErrorRedirect(res, rp.redirectUri, "invalid_scope", "st-1");
  });
});

describe("state and iss on the redirect (RFC 6749 §4.1.2, RFC 9207)", () => {
  it("missing state is allowed: the callback then carries exactly code and iss", async () => {
    const issued = await kit.issueCode(rp, user.token);
    expect([...issued.callback.searchParams.keys()].sort()).toEqual(["code", "iss"]);
    expect(issued.callback.searchParams.get("iss")).toBe(ISSUER);
  });

  it("a state is echoed byte for byte", async () => {
    const state = "a b&c=d/é?+%20~";
    const issued = await kit.issueCode(rp, user.token, { state });
    expect([...issued.callback.searchParams.keys()].sort()).toEqual(["code", "iss", "state"]);
    expect(issued.callback.searchParams.get("state")).toBe(state);
  });

  it("error redirects carry iss, and state only when it was sent", async () => {
    expectErrorRedirect(
      await kit.authorize(authorizeParams(rp, { scope: "email" }), user.token),
      rp.redirectUri,
      "invalid_scope",
      "st-1",
    );
    expectErrorRedirect(
      await kit.authorize(authorizeParams(rp, { scope: "email", state: undefined }), user.token),
      rp.redirectUri,
      "invalid_scope",
    );
  });

  it("openid-client rejects a callback whose iss is another issuer", async () => {
    const config = await kit.rp(rp);
    const issued = await kit.issueCode(rp, user.token, { pkce: false });
    issued.callback.searchParams.set("iss", "https://evil.example");
    await expect(oidc.authorizationCodeGrant(config, issued.callback)).rejects.toThrow();
  });
});

describe("duplicate parameters (RFC 6749 §3.1, §3.2)", () => {
  it.each([
    "client_id",
    "redirect_uri",
    "response_type",
    "scope",
    "state",
    "code_challenge",
    "nonce",
  ])("authorize with %s twice → JSON invalid_request", async (name) => {
    const params: Record<string, string | string[] | undefined> = authorizeParams(rp, { nonce: "n" });
    const value = params[name];
    params[name] = [String(value), String(value)];
    const res = await kit.authorize(params, user.token);
    expectAuthorizeJsonError(res, "invalid_request", `Parameter ${name} must not repeat`);
  });

  it.each([
    "grant_type",
    "code",
    "redirect_uri",
    "code_verifier",
    "client_id",
  ])("token request with %s twice → invalid_request, and the code survives for a proper request", async (name) => {
    const issued = await kit.issueCode(pub, user.token);
    const form: Record<string, string | string[] | undefined> = {
      grant_type: "authorization_code",
      code: issued.code,
      redirect_uri: issued.redirectUri,
      code_verifier: issued.verifier,
      client_id: pub.clientId,
    };
    form[name] = [String(form[name]), String(form[name])];
    expectOidcError(await kit.postForm("/oidc/token", form), 400, "invalid_request");
    expect((await kit.exchange(pub, issued)).statusCode).toBe(200);
  });

  it("refresh_token twice → invalid_request; revoke with token twice → invalid_request", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    const refreshToken = tokens.refresh_token ?? "";
    expectOidcError(
      await kit.refresh(rp, refreshToken, { refresh_token: [refreshToken, refreshToken] }),
      400,
      "invalid_request",
    );
    expectOidcError(
      await kit.postForm("/oidc/revoke", { token: [refreshToken, refreshToken] }, kit.clientAuth(rp).headers),
      400,
      "invalid_request",
    );
    await kit.expectAccessTokenAlive(tokens.access_token);
  });
});

describe("oversized parameters", () => {
  it("authorize: a parameter over 4096 characters → JSON invalid_request", async () => {
    for (const name of ["state", "nonce", "scope", "redirect_uri"]) {
      const res = await kit.authorize(authorizeParams(rp, { [name]: "x".repeat(5000) }), user.token);
      expectAuthorizeJsonError(res, "invalid_request", `Parameter ${name} is too long`);
    }
  });

  it("authorize: a nonce over 512 characters → error redirect invalid_request", async () => {
    const res = await kit.authorize(authorizeParams(rp, { nonce: "n".repeat(513) }), user.token);
    expectErrorRedirect(res, rp.redirectUri, "invalid_request", "st-1", /nonce/);
  });

  it("token: code, redirect_uri, code_verifier, refresh_token, client_id over 4096 characters → invalid_request", async () => {
    const issued = await kit.issueCode(rp, user.token);
    for (const name of ["code", "redirect_uri", "code_verifier"]) {
      expectOidcError(await kit.exchange(rp, issued, { [name]: "x".repeat(5000) }), 400, "invalid_request");
    }
    expectOidcError(await kit.refresh(rp, "x".repeat(5000)), 400, "invalid_request");
    expectOidcError(
      await kit.postForm("/oidc/token", { grant_type: "authorization_code", client_id: "x".repeat(5000) }),
      400,
      "invalid_request",
    );
  });

  it("token: a body over the server's limit → invalid_request, not a crash", async () => {
    const res = await kit.postForm("/oidc/token", {
      grant_type: "refresh_token",
      padding: "x".repeat(1_100_000),
    });
    expectOidcError(res, 400, "invalid_request");
  });
});

describe("malformed client authentication", () => {
  const grant = () => ({ grant_type: "refresh_token", refresh_token: "x".repeat(43) });

  it.each([
    ["not base64", "Basic !!!"],
    ["no colon inside", `Basic ${Buffer.from("just-an-id").toString("base64")}`],
    ["an empty Basic value", "Basic "],
    ["broken percent-encoding", `Basic ${Buffer.from("%E0%A4%A:secret").toString("base64")}`],
    ["another scheme", "Bearer abc"],
    ["the right client with an empty secret", "__rp_empty__"],
  ])("%s → 401 invalid_client", async (_case, header) => {
    const authorization = header === "__rp_empty__" ? basicAuth(rp.clientId, "") : header;
    expectOidcError(await kit.postForm("/oidc/token", grant(), { authorization }), 401, "invalid_client");
  });

  it("Basic and client_secret in the body at once → invalid_request", async () => {
    expectOidcError(
      await kit.postForm(
        "/oidc/token",
        { ...grant(), client_secret: rp.clientSecret },
        kit.clientAuth(rp).headers,
      ),
      400,
      "invalid_request",
    );
  });

  it("the revocation endpoint refuses the same way (401 invalid_client, 400 without a token)", async () => {
    expectOidcError(
      await kit.postForm("/oidc/revoke", { token: "x" }, { authorization: "Basic !!!" }),
      401,
      "invalid_client",
    );
    expectOidcError(await kit.postForm("/oidc/revoke", { token: "x" }), 401, "invalid_client");
    expectOidcError(
      await kit.postForm("/oidc/revoke", {}, kit.clientAuth(rp).headers),
      400,
      "invalid_request",
    );
  });
});

describe("wrong content type at /oidc/token and /oidc/revoke", () => {
  it.each([
    ["application/json", JSON.stringify({ grant_type: "refresh_token", refresh_token: "x" })],
    ["text/plain", "grant_type=refresh_token&refresh_token=x"],
    [
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nrefresh_token\r\n--x--\r\n',
    ],
  ])("%s → 400 invalid_request", async (contentType, payload) => {
    for (const url of ["/oidc/token", "/oidc/revoke"]) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": contentType, ...kit.clientAuth(rp).headers },
        payload,
      });
      expectOidcError(res, 400, "invalid_request");
    }
  });

  it("no body at all → 400 invalid_request", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/oidc/token",
      headers: kit.clientAuth(rp).headers,
    });
    expectOidcError(res, 400, "invalid_request");
  });

  it("a form body that is not valid form encoding still answers in the OAuth shape", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/oidc/token",
      headers: { "content-type": FORM, ...kit.clientAuth(rp).headers },
      payload: "grant_type=%E0%A4%A&code=%",
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(Object.keys(res.json() as object).sort()).toEqual(["error", "error_description"]);
  });
});

describe("the grant is bound to its login session", () => {
  it("POST /logout with the session cookie kills the grant's access and refresh tokens", async () => {
    const session = await kit.newSession(user);
    const tokens = await kit.tokensFor(rp, session);
    const out = await t.app.inject({ method: "POST", url: "/logout", cookies: { session }, payload: {} });
    expect(out.statusCode).toBe(204);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
  });

  it("POST /logout with the session as a bearer token does the same; another session's grant lives on", async () => {
    const session = await kit.newSession(user);
    const doomed = await kit.tokensFor(rp, session);
    const survivor = await kit.tokensFor(rp, user.token);
    const out = await t.app.inject({
      method: "POST",
      url: "/logout",
      headers: { authorization: `Bearer ${session}` },
    });
    expect(out.statusCode).toBe(204);
    await kit.expectAccessTokenDead(doomed.access_token);
    await kit.expectRefreshTokenDead(rp, doomed.refresh_token ?? "");
    await kit.expectAccessTokenAlive(survivor.access_token);
    expect((await kit.refresh(rp, survivor.refresh_token ?? "")).statusCode).toBe(200);
  });

  it("an expired login session is no session: authorize sends the browser to the login page", async () => {
    const session = await kit.newSession(user);
    clock.advance(t.services.auth.sessionLifetimeMs);
    const res = await kit.authorize(authorizeParams(rp), session);
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toMatch(/^\/login\?next=/);
  });

  it("a code whose login session ended before the exchange → invalid_grant", async () => {
    const session = await kit.newSession(user);
    const issued = await kit.issueCode(rp, session);
    await t.services.auth.logout(session);
    expectOidcError(await kit.exchange(rp, issued), 400, "invalid_grant");
  });

  it("deleting the user kills its tokens", async () => {
    const { member, tokens } = await signedInWithTokens();
    const res = await t.app.inject({ method: "DELETE", url: `/users/${member.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(204);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
  });

  it("a user made inactive is refused at use time; deactivation through the API also ends its grants for good", async () => {
    const { member, tokens } = await signedInWithTokens();
    // Behind the services' back (the session survives): refused at every use, alive again when reactivated.
    const setActive = (isActive: boolean) =>
      t.db.withTenant(tenantId, (tx) => tx.user.updateMany({ where: { id: member.id }, data: { isActive } }));
    await setActive(false);
    await kit.expectAccessTokenDead(tokens.access_token);
    expectOidcError(await kit.refresh(rp, tokens.refresh_token ?? ""), 400, "invalid_grant");
    await setActive(true);
    await kit.expectAccessTokenAlive(tokens.access_token);

    // Through PUT /users/:id: the sessions end, and with them the grants; reactivating revives nothing.
    const put = (active: boolean) =>
      t.app.inject({
        method: "PUT",
        url: `/users/${member.id}`,
        headers: admin.headers,
        payload: { active },
      });
    expect((await put(false)).statusCode).toBe(200);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
    expect((await put(true)).statusCode).toBe(200);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
  });
});

describe("a deactivated tenant's tokens stop working", () => {
  it("when the tenant row is made inactive (checked at every use), and through PUT /tenants/:id for good", async () => {
    const platform = await t.createTenant("Platform", { platform: true });
    const operator = await t.createUser(platform.id, "admin");
    const doomedTenant = (await t.createTenant("Doomed Co")).id;
    const member = await t.createUser(doomedTenant, []);
    const tokens = await kit.tokensFor(rp, member.token);

    const setActive = (isActive: boolean) =>
      t.db.withPlatform((tx) => tx.tenant.update({ where: { id: doomedTenant }, data: { isActive } }));
    await setActive(false);
    await kit.expectAccessTokenDead(tokens.access_token);
    expectOidcError(await kit.refresh(rp, tokens.refresh_token ?? ""), 400, "invalid_grant");
    await setActive(true);
    await kit.expectAccessTokenAlive(tokens.access_token);

    const put = (active: boolean) =>
      t.app.inject({
        method: "PUT",
        url: `/tenants/${doomedTenant}`,
        headers: operator.headers,
        payload: { active },
      });
    expect((await put(false)).statusCode).toBe(200);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
    expect((await put(true)).statusCode).toBe(200);
    await kit.expectAccessTokenDead(tokens.access_token);
    await kit.expectRefreshTokenDead(rp, tokens.refresh_token ?? "");
  });
});

describe("oidcc-prompt-none-* (OIDC Core §3.1.2.1)", () => {
  it("oidcc-prompt-none-not-logged-in: prompt=none without a session → error redirect login_required, no login page", async () => {
    const res = await kit.authorize(authorizeParams(rp, { prompt: "none" }), null);
    expectErrorRedirect(res, rp.redirectUri, "login_required", "st-1");
  });

  it("oidcc-prompt-none-logged-in: prompt=none with a session → the code at once", async () => {
    const res = await kit.authorize(authorizeParams(rp, { prompt: "none" }), user.token);
    expect(new URL(String(res.headers.location)).searchParams.get("code")).toEqual(expect.any(String));
  });
});

describe("revocation endpoint hostile cases", () => {
  it("a client cannot revoke another client's refresh token (200, but the family lives)", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    const res = await kit.revoke(other, tokens.refresh_token ?? "", "refresh_token");
    expect(res.statusCode).toBe(200);
    await kit.expectAccessTokenAlive(tokens.access_token);
    expect((await kit.refresh(rp, tokens.refresh_token ?? "")).statusCode).toBe(200);
  });

  it("wrong secret at revoke → 401 invalid_client and nothing revoked", async () => {
    const tokens = await kit.tokensFor(rp, user.token);
    const res = await kit.postForm(
      "/oidc/revoke",
      { token: tokens.access_token },
      { authorization: basicAuth(rp.clientId, "wrong") },
    );
    expectOidcError(res, 401, "invalid_client");
    await kit.expectAccessTokenAlive(tokens.access_token);
  });

  it("the form body must be form-encoded", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/oidc/revoke",
      headers: { "content-type": "application/x-www-form-urlencoded", ...kit.clientAuth(rp).headers },
      payload: "",
    });
    expectOidcError(res, 400, "invalid_request");
  });
});
