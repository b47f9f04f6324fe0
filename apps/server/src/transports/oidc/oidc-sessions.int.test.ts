import { createHash, randomBytes } from "node:crypto";
import { createManualClock } from "@hisob/kernel";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, ISSUER, type SeededUser, type TestApp } from "../../testing/test-app";

// OIDC part 2: prompt and max_age, RP-initiated logout, introspection, signing-key rotation.

const clock = createManualClock(new Date("2026-05-01T08:00:00Z"));
const CALLBACK = "https://rp.example/cb";
const LOGGED_OUT = "https://rp.example/bye";
let t: TestApp;
let user: SeededUser;
let rp: { clientId: string; secret: string };
let other: { clientId: string; secret: string };

const basic = (c: { clientId: string; secret: string }) =>
  `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString("base64")}`;

const authorizeUrl = (extra: Record<string, string> = {}, challenge?: string) =>
  `/oidc/authorize?${new URLSearchParams({
    client_id: rp.clientId,
    redirect_uri: CALLBACK,
    response_type: "code",
    scope: "openid profile email offline_access",
    state: "st-1",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
    ...extra,
  })}`;

/** Runs the code flow for the user's session cookie and returns the token response. */
const signIn = async (session: string = user.token) => {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const authorize = await t.app.inject({
    method: "GET",
    url: authorizeUrl({}, challenge),
    cookies: { session },
  });
  const code = new URL(authorize.headers.location as string).searchParams.get("code") ?? "";
  const token = await t.app.inject({
    method: "POST",
    url: "/oidc/token",
    headers: { authorization: basic(rp), "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    }).toString(),
  });
  expect(token.statusCode, token.body).toBe(200);
  return token.json() as { access_token: string; refresh_token: string; id_token: string };
};

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();

beforeAll(async () => {
  t = await createTestApp({ clock });
  const tenant = await t.createTenant("Sessions Co");
  user = await t.createUser(tenant.id, []);
  // First-party, so these flows are not about the consent page (oidc-consent.int.test.ts is).
  const created = await t.oidc.clients.create({
    name: "RP",
    isFirstParty: true,
    redirectUris: [CALLBACK],
    postLogoutRedirectUris: [LOGGED_OUT],
  });
  rp = { clientId: created.client.clientId, secret: created.clientSecret ?? "" };
  const second = await t.oidc.clients.create({
    name: "Other RP",
    isFirstParty: true,
    redirectUris: [CALLBACK],
  });
  other = { clientId: second.client.clientId, secret: second.clientSecret ?? "" };
});

afterAll(async () => {
  await t?.close();
});

describe("prompt and max_age", () => {
  it("prompt=none without a session answers login_required at the redirect URI", async () => {
    const res = await t.app.inject({ method: "GET", url: authorizeUrl({ prompt: "none" }) });
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "login_required",
      state: "st-1",
      iss: ISSUER,
    });
  });

  it("prompt=none with a session issues the code at once", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ prompt: "none" }),
      cookies: { session: user.token },
    });
    expect(new URL(res.headers.location as string).searchParams.get("code")).toBeTruthy();
  });

  it("prompt=login asks a signed-in user to sign in again, then issues the code", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ prompt: "login" }),
      cookies: { session: user.token },
    });
    const login = new URL(res.headers.location as string, ISSUER);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("prompt")).toBe("login");
    const next = login.searchParams.get("next") ?? "";
    expect(next).not.toContain("prompt=");
    expect(next).toContain("auth_after=");
    // The old session does not satisfy it, even though the login page would otherwise skip ahead.
    const page = await t.app.inject({
      method: "GET",
      url: `${login.pathname}${login.search}`,
      cookies: { session: user.token },
    });
    expect(page.statusCode).toBe(200);
    const stillOld = await t.app.inject({ method: "GET", url: next, cookies: { session: user.token } });
    expect(new URL(stillOld.headers.location as string, ISSUER).pathname).toBe("/login");
    // A new sign-in (a new session) satisfies it.
    clock.advance(1_000);
    const fresh = await t.services.auth.login(
      { email: user.email, password: user.password },
      { ip: "127.0.0.1", userAgent: "t" },
    );
    const done = await t.app.inject({ method: "GET", url: next, cookies: { session: fresh.token } });
    expect(new URL(done.headers.location as string).searchParams.get("code")).toBeTruthy();
  });

  it("max_age sends an old session to sign in again and keeps a young one", async () => {
    const session = (
      await t.services.auth.login(
        { email: user.email, password: user.password },
        { ip: "127.0.0.1", userAgent: "t" },
      )
    ).token;
    const young = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ max_age: "600" }),
      cookies: { session },
    });
    expect(new URL(young.headers.location as string).searchParams.get("code")).toBeTruthy();
    clock.advance(601_000);
    const old = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ max_age: "600" }),
      cookies: { session },
    });
    expect(new URL(old.headers.location as string, ISSUER).pathname).toBe("/login");
    const none = await t.app.inject({
      method: "GET",
      url: authorizeUrl({ max_age: "600", prompt: "none" }),
      cookies: { session },
    });
    expect(new URL(none.headers.location as string).searchParams.get("error")).toBe("login_required");
  });

  it("refuses malformed prompt and max_age values at the redirect URI", async () => {
    const cases: Record<string, string>[] = [
      { prompt: "none login" },
      { prompt: "sometimes" },
      { max_age: "-1" },
      { max_age: "soon" },
    ];
    for (const extra of cases) {
      const res = await t.app.inject({
        method: "GET",
        url: authorizeUrl(extra),
        cookies: { session: user.token },
      });
      expect(new URL(res.headers.location as string).searchParams.get("error"), JSON.stringify(extra)).toBe(
        "invalid_request",
      );
    }
  });
});

describe("RP-initiated logout", () => {
  it("ends the login session, revokes its tokens and returns to the registered URI with state", async () => {
    const login = await t.services.auth.login(
      { email: user.email, password: user.password },
      { ip: "127.0.0.1", userAgent: "t" },
    );
    const tokens = await signIn(login.token);
    const res = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?${form({ id_token_hint: tokens.id_token, post_logout_redirect_uri: LOGGED_OUT, state: "bye-1" })}`,
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${LOGGED_OUT}?state=bye-1`);
    expect(
      (await t.app.inject({ method: "GET", url: "/account", cookies: { session: login.token } })).statusCode,
    ).toBe(401);
    const info = await t.app.inject({
      method: "GET",
      url: "/oidc/userinfo",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: "POST",
      url: "/oidc/token",
      headers: { authorization: basic(rp), "content-type": "application/x-www-form-urlencoded" },
      payload: form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token }),
    });
    expect(refresh.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses an unregistered post-logout URI, a missing hint and a forged hint", async () => {
    const tokens = await signIn();
    const unregistered = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?${form({ id_token_hint: tokens.id_token, post_logout_redirect_uri: "https://evil.example/" })}`,
    });
    expect(unregistered.statusCode).toBe(400);
    expect(unregistered.json()).toEqual({
      error: "invalid_request",
      error_description: "Invalid post_logout_redirect_uri",
    });
    const missing = await t.app.inject({
      method: "GET",
      url: "/oidc/end_session",
      cookies: { session: user.token },
    });
    expect(missing.statusCode).toBe(400);
    const [header, payload, signature] = tokens.id_token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: "x", sid: "y", iss: ISSUER, aud: rp.clientId })).toString("base64url")}.${signature}`;
    const tampered = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?${form({ id_token_hint: forged })}`,
    });
    expect(tampered.statusCode).toBe(400);
    expect(payload).toBeTruthy();
    // The user's own session survived all of that.
    expect(
      (await t.app.inject({ method: "GET", url: "/account", cookies: { session: user.token } })).statusCode,
    ).toBe(200);
  });
});

describe("introspection", () => {
  it("describes a client's own active token and says active:false for everything else", async () => {
    const tokens = await signIn();
    const ask = (client: { clientId: string; secret: string }, token: string) =>
      t.app.inject({
        method: "POST",
        url: "/oidc/introspect",
        headers: { authorization: basic(client), "content-type": "application/x-www-form-urlencoded" },
        payload: form({ token }),
      });
    const own = await ask(rp, tokens.access_token);
    expect(own.statusCode).toBe(200);
    expect(own.headers["cache-control"]).toBe("no-store");
    expect(own.json()).toMatchObject({
      active: true,
      client_id: rp.clientId,
      sub: user.id,
      token_type: "Bearer",
      iss: ISSUER,
    });
    expect((await ask(rp, tokens.refresh_token)).json()).toMatchObject({
      active: true,
      token_type: "refresh_token",
    });
    expect((await ask(other, tokens.access_token)).json()).toEqual({ active: false });
    expect((await ask(rp, "not-a-token")).json()).toEqual({ active: false });
    await t.app.inject({
      method: "POST",
      url: "/oidc/revoke",
      headers: { authorization: basic(rp), "content-type": "application/x-www-form-urlencoded" },
      payload: form({ token: tokens.access_token }),
    });
    expect((await ask(rp, tokens.access_token)).json()).toEqual({ active: false });
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/oidc/introspect",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: form({ token: tokens.refresh_token }),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe("invalid_client");
  });

  it("says active:false for an expired access token", async () => {
    const tokens = await signIn();
    clock.advance(3_600_000 + 1_000);
    const res = await t.app.inject({
      method: "POST",
      url: "/oidc/introspect",
      headers: { authorization: basic(rp), "content-type": "application/x-www-form-urlencoded" },
      payload: form({ token: tokens.access_token }),
    });
    expect(res.json()).toEqual({ active: false });
  });

  it("is advertised with end_session in discovery", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/.well-known/openid-configuration" })).json();
    expect(doc).toMatchObject({
      introspection_endpoint: `${ISSUER}/oidc/introspect`,
      end_session_endpoint: `${ISSUER}/oidc/end_session`,
    });
  });
});

describe("signing-key rotation", () => {
  it("signs with the newest key once published long enough, keeps older ones published, and retires them only when nothing valid needs them", async () => {
    const before = await signIn();
    const oldKid = decodeProtectedHeader(before.id_token).kid ?? "";
    const rotated = await t.oidc.keys.rotate();
    expect(rotated.kid).not.toBe(oldKid);
    expect(decodeProtectedHeader((await signIn()).id_token).kid).toBe(oldKid);
    clock.advance(120_000); // the propagation delay: every instance publishes the key before it signs
    const after = await signIn();
    expect(decodeProtectedHeader(after.id_token).kid).toBe(rotated.kid);
    const jwks = (await t.app.inject({ method: "GET", url: "/oidc/keys" })).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(
      expect.arrayContaining([oldKid, rotated.kid]),
    );
    // A token signed before the rotation still verifies.
    await jwtVerify(before.id_token, createLocalJWKSet(jwks), { issuer: ISSUER, currentDate: clock.now() });

    await expect(t.oidc.keys.retire(rotated.kid)).rejects.toThrow(/signs/);
    await expect(t.oidc.keys.retire(oldKid)).rejects.toThrow(/may still verify/);
    clock.advance(31 * 24 * 3600 * 1000);
    const retired = await t.oidc.keys.retire(oldKid);
    expect(retired).toMatchObject({ active: false, signing: false });
    const later = (await t.app.inject({ method: "GET", url: "/oidc/keys" })).json();
    expect(later.keys.map((k: { kid: string }) => k.kid)).toContain(rotated.kid);
  });
});
