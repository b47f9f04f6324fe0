import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, ISSUER, type SeededUser, type TestApp } from "../testing/test-app";

let t: TestApp;
let user: SeededUser;

/** openid-client talks HTTP through `fetch`: route it into the in-process app. */
const customFetch: client.CustomFetch = async (url, options) => {
  const target = new URL(url);
  const res = await t.app.inject({
    method: (options.method ?? "GET") as "GET",
    url: `${target.pathname}${target.search}`,
    headers: Object.fromEntries(new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).entries()),
    ...(options.body ? { payload: options.body.toString() } : {}),
  });
  return new Response(res.statusCode === 204 ? null : res.rawPayload, { status: res.statusCode, headers: res.headers as Record<string, string> });
};

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant("OIDC Co");
  user = await t.createUser(tenant.id, []);
});

afterAll(async () => {
  await t?.close();
});

describe("OIDC smoke", () => {
  it("code + PKCE S256 with a confidential client, id token, userinfo, refresh, revoke", async () => {
    const { clientSecret, client: registered } = await t.oidc.clients.create({
      name: "Third party",
      redirectUris: ["https://rp.example/cb"],
    });
    const config = await client.discovery(new URL(ISSUER), registered.clientId, clientSecret, undefined, {
      [client.customFetch]: customFetch,
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const authUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: "https://rp.example/cb",
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      nonce,
      state,
    });
    const authorize = await t.app.inject({ method: "GET", url: `${authUrl.pathname}${authUrl.search}`, cookies: { session: user.token } });
    expect(authorize.statusCode).toBe(302);
    const callback = new URL(authorize.headers.location as string);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.claims()?.sub).toBe(user.id);
    const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info).toMatchObject({ sub: user.id, email: user.email, email_verified: false });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await client.tokenRevocation(config, refreshed.refresh_token ?? "");
    await expect(client.fetchUserInfo(config, refreshed.access_token, user.id)).rejects.toThrow();
  });
});
