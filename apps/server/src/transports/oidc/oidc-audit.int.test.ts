import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { ALL_SCOPES, createOidcKit, DESKTOP_CLIENT_ID, type OidcKit } from "./oidc-test-kit";

/*
 * Sign-outs and OIDC grants leave audit entries: a REST logout, a code exchange, a refresh, and the
 * revocation of a grant whose code or refresh token was presented again — each with who, which
 * application and from where, read back through GET /audit as an administrator reads them.
 */

let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let admin: SeededUser;
let user: SeededUser;

beforeAll(async () => {
  t = await createTestApp();
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Audit Co")).id;
  admin = await t.createUser(tenantId, "admin");
  user = await t.createUser(tenantId, []);
});
afterAll(async () => t?.close());

type Entry = {
  userId: string | null;
  ip: string | null;
  requestId: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  after: Record<string, unknown> | null;
};

const entries = async (query: string): Promise<Entry[]> => {
  const res = await t.app.inject({ method: "GET", url: `/audit?${query}&limit=100`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Entry[] }).items;
};

/** The accountant app's sign-in with openid-client: public client, loopback, PKCE. */
const signIn = async (session: string) => {
  const config = await kit.rp(kit.desktop, "none");
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: "http://127.0.0.1:49152/callback",
    scope: ALL_SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  const callback = await kit.follow(url, session);
  const checks = { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true };
  const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
  return { config, callback, checks, tokens };
};

describe("audit entries of sign-out and OIDC grants", () => {
  it("a REST logout records who signed out, from where", async () => {
    const session = await kit.newSession(user);
    const res = await t.app.inject({
      method: "POST",
      url: "/logout",
      headers: { authorization: `Bearer ${session}`, "user-agent": "audit-test/1.0" },
    });
    expect(res.statusCode).toBe(204);
    const signOuts = (await entries(`userId=${user.id}&entity=session`)).filter(
      (e) => e.action === "sign_out",
    );
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0]).toMatchObject({ userId: user.id, entity: "session", ip: expect.any(String) });
    // A second logout with the dead token changes nothing and records nothing.
    await t.app.inject({ method: "POST", url: "/logout", headers: { authorization: `Bearer ${session}` } });
    const again = (await entries(`userId=${user.id}&entity=session`)).filter((e) => e.action === "sign_out");
    expect(again).toHaveLength(1);
  });

  it("an RP-initiated logout (end_session) records the sign-out as the REST logout does", async () => {
    const other = await t.createUser(tenantId, []);
    const session = await kit.newSession(other);
    const { tokens } = await signIn(session);
    const res = await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?id_token_hint=${encodeURIComponent(tokens.id_token as string)}`,
      headers: { "user-agent": "audit-test/2.0" },
    });
    expect(res.statusCode).toBe(302);
    const signOuts = (await entries(`userId=${other.id}&entity=session`)).filter(
      (e) => e.action === "sign_out",
    );
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0]).toMatchObject({
      userId: other.id,
      ip: expect.any(String),
      requestId: expect.any(String),
    });
    // The session is gone: a second logout with the same hint records nothing more.
    await t.app.inject({
      method: "GET",
      url: `/oidc/end_session?id_token_hint=${encodeURIComponent(tokens.id_token as string)}`,
    });
    const again = (await entries(`userId=${other.id}&entity=session`)).filter((e) => e.action === "sign_out");
    expect(again).toHaveLength(1);
  });

  it("a code exchange and a refresh record the grant, the application and its scopes", async () => {
    const { config, tokens } = await signIn(user.token);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).toBeTruthy();
    const grants = await entries(`userId=${user.id}&entity=oidc_grant`);
    const issue = grants.find((e) => e.action === "issue");
    const refresh = grants.find((e) => e.action === "refresh");
    expect(issue).toMatchObject({
      userId: user.id,
      ip: expect.any(String),
      requestId: expect.any(String),
      after: {
        clientId: DESKTOP_CLIENT_ID,
        clientName: expect.any(String),
        scope: expect.stringContaining("openid"),
      },
    });
    expect(refresh?.entityId).toBe(issue?.entityId);
  });

  it("a replayed code and a reused refresh token revoke the grant and say why", async () => {
    const first = await signIn(user.token);
    await expect(oidc.authorizationCodeGrant(first.config, first.callback, first.checks)).rejects.toThrow();
    const second = await signIn(user.token);
    const oldRefresh = second.tokens.refresh_token as string;
    await oidc.refreshTokenGrant(second.config, oldRefresh);
    await expect(oidc.refreshTokenGrant(second.config, oldRefresh)).rejects.toThrow();
    const revoked = (await entries(`userId=${user.id}&entity=oidc_grant`)).filter(
      (e) => e.action === "revoke_replay",
    );
    const reasons = revoked.map((e) => e.after?.reason).sort();
    expect(reasons).toEqual(["code_replayed", "refresh_reused"]);
    const issued = (await entries(`userId=${user.id}&entity=oidc_grant`)).filter((e) => e.action === "issue");
    for (const entry of revoked) {
      expect(issued.map((e) => e.entityId)).toContain(entry.entityId);
      expect(entry.after).toMatchObject({ clientId: DESKTOP_CLIENT_ID });
    }
  });
});
