import { createManualClock } from "@hisob/kernel";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError } from "../../testing/rest";
import { createTestApp, ISSUER, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit, type RegisteredClient } from "./oidc-test-kit";

/*
 * The consent page of third-party clients (docs/decisions/0036-oidc-consent.md), with openid-client as a
 * strict relying party: asked once per scope set, remembered, asked again for new scopes, after a
 * revocation and with prompt=consent; prompt=none answers consent_required; first-party apps never ask.
 */

// Now: openid-client checks the ID token's times against the real clock.
const clock = createManualClock(new Date());
let t: TestApp;
let kit: OidcKit;
let tenantId: string;
let user: SeededUser;
let admin: SeededUser;
const as = caller(() => t);

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  tenantId = (await t.createTenant("Consent Co")).id;
  user = await t.createUser(tenantId, []);
  admin = await t.createUser(tenantId, ["users:read:all", "users:update:all"]);
});

afterAll(async () => {
  await t?.close();
});

/** An authorization URL from openid-client (PKCE S256, state, nonce) and what it must check on the way back. */
const startFlow = async (client: RegisteredClient, scope: string, extra: Record<string, string> = {}) => {
  const config = await kit.rp(client);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirectUri,
    scope,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  });
  const open = (session: string) =>
    t.app.inject({ method: "GET", url: `${url.pathname}${url.search}`, cookies: { session } });
  const finish = (location: string) =>
    oidc.authorizationCodeGrant(config, new URL(location), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
  return { url, state, open, finish };
};

const scopesShown = (body: string) =>
  [...body.matchAll(/<li data-scope="([^"]+)">/g)].map((match) => match[1]);
const alreadyAllowed = (body: string) =>
  [...body.matchAll(/<li data-scope="([^"]+)">[^<]*<small>/g)].map((match) => match[1]);

describe("consent", () => {
  it("asks once, names the app, the organization and the user; Allow gives tokens; the next time no page", async () => {
    const client = await kit.register({ name: "Budget Planner" });
    const first = await startFlow(client, "openid profile");
    const page = await first.open(user.token);
    expect(kit.isConsentPage(page)).toBe(true);
    expect(page.body).toContain("Budget Planner");
    expect(page.body).toContain("Consent Co");
    expect(page.body).toContain("Test ");
    expect(page.body).toContain(user.email);
    expect(scopesShown(page.body)).toEqual(["openid", "profile"]);
    const allowed = await kit.answerConsent(page, user.token, "allow");
    expect(allowed.statusCode).toBe(303);
    const tokens = await first.finish(String(allowed.headers.location));
    expect(tokens.claims()?.sub).toBe(user.id);

    // Remembered: the same scopes go straight back to the client.
    const second = await startFlow(client, "openid profile");
    const again = await second.open(user.token);
    expect(again.statusCode).toBe(302);
    expect((await second.finish(String(again.headers.location))).access_token).toEqual(expect.any(String));

    const own = await as(user, "GET", "/account/consents");
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual([
      expect.objectContaining({
        clientId: client.clientId,
        clientName: "Budget Planner",
        scopes: ["openid", "profile"],
      }),
    ]);
  });

  it("a new scope asks again, for the new one; prompt=consent always asks", async () => {
    const client = await kit.register({ name: "Mail Sync" });
    const first = await startFlow(client, "openid");
    await first.finish(
      String((await kit.answerConsent(await first.open(user.token), user.token, "allow")).headers.location),
    );

    const wider = await startFlow(client, "openid email");
    const page = await wider.open(user.token);
    expect(kit.isConsentPage(page)).toBe(true);
    expect(alreadyAllowed(page.body)).toEqual(["openid"]);
    const allowed = await kit.answerConsent(page, user.token, "allow");
    expect((await wider.finish(String(allowed.headers.location))).scope).toContain("email");

    const forced = await startFlow(client, "openid email", { prompt: "consent" });
    expect(kit.isConsentPage(await forced.open(user.token))).toBe(true);
  });

  it("Deny sends access_denied with the state to the client, and remembers nothing", async () => {
    const client = await kit.register({ name: "Nosy App" });
    const flow = await startFlow(client, "openid email");
    const denied = await kit.answerConsent(await flow.open(user.token), user.token, "deny");
    expect(denied.statusCode).toBe(303);
    const location = new URL(String(denied.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe(flow.state);
    expect(location.searchParams.get("iss")).toBe(ISSUER);
    await expect(flow.finish(location.toString())).rejects.toMatchObject({ error: "access_denied" });
    expect(kit.isConsentPage(await (await startFlow(client, "openid")).open(user.token))).toBe(true);
  });

  it("prompt=none without consent answers consent_required at the redirect URI", async () => {
    const client = await kit.register({ name: "Silent App" });
    const flow = await startFlow(client, "openid", { prompt: "none" });
    const res = await flow.open(user.token);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get("error")).toBe("consent_required");
    expect(location.searchParams.get("state")).toBe(flow.state);
  });

  it("a first-party app never asks", async () => {
    const first = await kit.register({ name: "Our own app", isFirstParty: true });
    const flow = await startFlow(first, "openid profile email");
    const res = await flow.open(user.token);
    expect(res.statusCode).toBe(302);
    expect((await flow.finish(String(res.headers.location))).access_token).toEqual(expect.any(String));
  });

  it("revoking (own or by an admin) ends the client's refresh tokens and asks again; audited", async () => {
    const client = await kit.register({ name: "Revocable App" });
    const flow = await startFlow(client, "openid offline_access");
    const tokens = await flow.finish(
      String((await kit.answerConsent(await flow.open(user.token), user.token, "allow")).headers.location),
    );
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const listed = await as(admin, "GET", `/users/${user.id}/consents`);
    expect(listed.json().map((row: { clientId: string }) => row.clientId)).toContain(client.clientId);
    const revoked = await as(admin, "DELETE", `/users/${user.id}/consents/${client.clientId}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    await kit.expectRefreshTokenDead(client, tokens.refresh_token ?? "");
    await kit.expectAccessTokenDead(tokens.access_token);
    expect(kit.isConsentPage(await (await startFlow(client, "openid offline_access")).open(user.token))).toBe(
      true,
    );
    expectError(
      await as(user, "DELETE", `/account/consents/${client.clientId}`),
      404,
      "NOT_FOUND",
      "consent.not_found",
    );

    const actions = await t.db.withTenant(tenantId, (tx) =>
      tx.auditEntry.findMany({
        where: { tenantId, entity: "oidc_consent", entityId: client.clientId },
        select: { action: true },
      }),
    );
    expect(actions.map((row) => row.action).sort()).toEqual(["grant", "revoke"]);
  });

  it("another user's consents need users:read:all / users:update:all", async () => {
    const plain = await t.createUser(tenantId, []);
    expectError(await as(plain, "GET", `/users/${user.id}/consents`), 403, "FORBIDDEN");
    expectError(await as(plain, "DELETE", `/users/${user.id}/consents/x`), 403, "FORBIDDEN");
  });
});

describe("hostile consent posts: clear refusals, never a 500", () => {
  let client: RegisteredClient;
  beforeAll(async () => {
    client = await kit.register({ name: "Target App" });
  });

  const consentPage = async (session: string) => (await startFlow(client, "openid email")).open(session);

  it("a missing or forged CSRF token, or a foreign Origin, is refused with a page (403)", async () => {
    const page = await consentPage(user.token);
    for (const res of [
      await kit.answerConsent(page, user.token, "allow", { form: { _csrf: "" } }),
      await kit.answerConsent(page, user.token, "allow", { form: { _csrf: "forged" } }),
      await kit.answerConsent(page, user.token, "allow", { csrf: "A".repeat(43) }),
      await kit.answerConsent(page, user.token, "allow", { headers: { origin: "https://evil.example" } }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.body).toContain("another site");
    }
  });

  it("another user's interaction id is refused (403) and grants nothing", async () => {
    const other = await t.createUser(tenantId, []);
    const page = await consentPage(other.token);
    const res = await kit.answerConsent(page, user.token, "allow");
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("another signed-in account");
    const mine = await as(user, "GET", "/account/consents");
    expect(mine.json().map((row: { clientId: string }) => row.clientId)).not.toContain(client.clientId);
  });

  it("an edited, garbage or expired interaction and an unknown decision are refused (400)", async () => {
    const page = await consentPage(user.token);
    const tampered = await kit.answerConsent(page, user.token, "allow", {
      form: { interaction: "eyJ9.AAAA" },
    });
    expect(tampered.statusCode).toBe(400);
    expect(
      (await kit.answerConsent(page, user.token, "allow", { form: { decision: "maybe" } })).statusCode,
    ).toBe(400);
    clock.advance(11 * 60_000);
    const expired = await kit.answerConsent(page, user.token, "allow");
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain("too long");
  });

  it("an unknown client is an error page/JSON at authorize, never a consent page or a 500", async () => {
    const res = await kit.authorize(
      {
        client_id: "no-such-client",
        redirect_uri: "https://rp.example/cb",
        response_type: "code",
        scope: "openid",
      },
      user.token,
      { accept: "text/html" },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain("/oidc/consent");
  });

  it("the login page names the application that asks", async () => {
    const flow = await startFlow(client, "openid");
    const res = await t.app.inject({ method: "GET", url: `${flow.url.pathname}${flow.url.search}` });
    const login = await t.app.inject({ method: "GET", url: String(res.headers.location) });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain("Target App asks you to sign in");
  });
});
