import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, serverEnv, startServer } from "./server-process";

// Done-when of the OIDC issue: a third-party app registered with the CLI signs a user in, end to
// end, against the server started the README's way, with openid-client as a strict relying party.

const REDIRECT = "https://rp.example/callback";
let dataDir: string;
let server: Awaited<ReturnType<typeof startServer>>;
let registered: { client_id: string; client_secret: string };
let adminEmail = "";
let adminPassword = "";

/** A tiny cookie jar: the browser side of the flow. */
const jar = new Map<string, string>();
const remember = (response: Response) => {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [name, ...value] = (pair ?? "").split("=");
    if (name) jar.set(name.trim(), value.join("="));
  }
};
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
const browse = async (url: string, init: RequestInit = {}) => {
  const response = await fetch(url, {
    ...init,
    redirect: "manual",
    headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
  });
  remember(response);
  return response;
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-oidc-"));
  const port = await freePort();
  const env = serverEnv(dataDir, port);
  adminEmail = "owner@firm.uz";
  adminPassword = "Owner-Passw0rd-2026";
  env.ADMIN_EMAIL = adminEmail;
  env.ADMIN_PASSWORD = adminPassword;
  const created = await runCli(
    [
      "oidc:client:create",
      "--name",
      "Partner app",
      "--redirect-uri",
      REDIRECT,
      "--scopes",
      "openid",
      "profile",
      "email",
      "offline_access",
    ],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  registered = JSON.parse(created.stdout);
  server = await startServer(env);
}, 180_000);

afterAll(async () => {
  const stopped = await server?.stop();
  expect(stopped?.code).toBe(0);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a third-party app signs a user in", () => {
  it("through discovery, the login page, code + PKCE, tokens, ID token, userinfo, refresh and revocation", async () => {
    const config = await client.discovery(
      new URL(server.base),
      registered.client_id,
      registered.client_secret,
      undefined,
      {
        execute: [client.allowInsecureRequests], // the test server is plain http on 127.0.0.1
      },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });

    // No session yet: the provider sends the browser to its login page.
    const first = await browse(authorizationUrl.href);
    expect(first.status).toBe(302);
    const loginUrl = new URL(first.headers.get("location") ?? "", server.base);
    expect(loginUrl.pathname).toBe("/login");
    const page = await browse(loginUrl.href);
    const html = await page.text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const next = loginUrl.searchParams.get("next") ?? "";
    const posted = await browse(`${server.base}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base },
      body: new URLSearchParams({ email: adminEmail, password: adminPassword, _csrf: csrf, next }).toString(),
    });
    expect(posted.status).toBe(303);
    // A third-party app: the consent page (docs/decisions/0036-oidc-consent.md), answered with Allow.
    const consent = await browse(new URL(posted.headers.get("location") ?? "", server.base).href);
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain("Partner app");
    const hidden = (name: string) =>
      (new RegExp(`name="${name}" value="([^"]+)"`).exec(consentHtml)?.[1] ?? "").replace(/&amp;/g, "&");
    const back = await browse(`${server.base}/oidc/consent`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.base },
      body: new URLSearchParams({
        _csrf: hidden("_csrf"),
        interaction: hidden("interaction"),
        decision: "allow",
      }).toString(),
    });
    expect(back.status).toBe(303);
    const callback = new URL(back.headers.get("location") ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get("iss")).toBe(server.base);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    expect(claims).toMatchObject({ iss: server.base, aud: registered.client_id, nonce });
    expect(typeof claims?.auth_time).toBe("number");
    const info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? "");
    expect(info).toMatchObject({ email: adminEmail, email_verified: false, given_name: "Platform" });

    // A third-party token is for userinfo only, not for our APIs.
    const api = await fetch(`${server.base}/account`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(api.status).toBe(401);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? "");
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? "")).rejects.toMatchObject({
      error: "invalid_grant",
    });
    // Reuse of the rotated token revoked the family: the new tokens are dead too.
    await expect(client.fetchUserInfo(config, refreshed.access_token, claims?.sub ?? "")).rejects.toThrow();
  });
});
