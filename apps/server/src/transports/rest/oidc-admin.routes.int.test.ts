import { createManualClock } from "@hisob/kernel";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { createOidcKit, type OidcKit, type RegisteredClient, RP_CALLBACK } from "../oidc/oidc-test-kit";

// OIDC clients and signing keys managed over REST on a running server, by the same
// service as the CLI; a client registered here works with openid-client as a strict RP.

// Starts the propagation delay behind the real time, so that after the rotation test moves it on, the
// strict relying party (which checks iat and exp against the real time) still accepts the tokens.
const clock = createManualClock(new Date(Date.now() - 120_000));
let t: TestApp;
let kit: OidcKit;
let platformAdmin: SeededUser;
let tenantAdmin: SeededUser;
let endUser: SeededUser;

const call = (user: SeededUser | null, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: user ? { ...user.headers, "user-agent": "oidc-admin-test" } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A full authorization code flow with PKCE through openid-client: the tokens, verified. */
const signIn = async (client: RegisteredClient) => {
  const config = await kit.rp(client);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirectUri,
    scope: "openid email",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
  });
  const callback = await kit.follow(url, await kit.newSession(endUser));
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
};

beforeAll(async () => {
  t = await createTestApp({ clock });
  kit = createOidcKit(t);
  const platform = await t.createTenant("Platform", { platform: true });
  const tenant = await t.createTenant("Customer");
  platformAdmin = await t.createUser(platform.id, "admin");
  tenantAdmin = await t.createUser(tenant.id, "admin");
  endUser = await t.createUser(tenant.id, ["users:read:own"]);
});

afterAll(async () => {
  await t?.close();
});

describe("OIDC clients over REST", () => {
  it("registers a confidential client (secret shown once) that a strict RP signs in with", async () => {
    const res = await call(platformAdmin, "POST", "/oidc-clients", {
      name: "Partner portal",
      redirectUris: [RP_CALLBACK],
      requirePkce: true,
      scopes: ["openid", "email"],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { client, clientSecret } = res.json() as { client: { clientId: string }; clientSecret: string };
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // Never again: not in the list, not in the detail.
    const listed = await call(platformAdmin, "GET", "/oidc-clients");
    expect(listed.body).not.toContain(clientSecret);
    expect(listed.body).not.toContain("secretHash");
    const detail = await call(platformAdmin, "GET", `/oidc-clients/${client.clientId}`);
    expect(detail.json()).toMatchObject({ name: "Partner portal", isPublic: false, isActive: true });

    const rp = { clientId: client.clientId, clientSecret, redirectUri: RP_CALLBACK };
    const tokens = await signIn(rp);
    expect(tokens.claims()?.sub).toBe(endUser.id);

    // Rotating the secret: the new one works, the old one stops at once.
    const rotated = await call(platformAdmin, "POST", `/oidc-clients/${client.clientId}/secret`);
    expect(rotated.statusCode).toBe(200);
    const newSecret = rotated.json().clientSecret as string;
    expect(newSecret).not.toBe(clientSecret);
    await expect(signIn(rp)).rejects.toThrow();
    expect((await signIn({ ...rp, clientSecret: newSecret })).claims()?.sub).toBe(endUser.id);

    // Edit, then deactivate: its sign-ins stop.
    const edited = await call(platformAdmin, "PUT", `/oidc-clients/${client.clientId}`, { name: "Partner" });
    expect(edited.json()).toMatchObject({ name: "Partner" });
    const off = await call(platformAdmin, "PUT", `/oidc-clients/${client.clientId}`, { isActive: false });
    expect(off.json()).toMatchObject({ isActive: false });
    await expect(signIn({ ...rp, clientSecret: newSecret })).rejects.toThrow();

    // Every change is in the platform's audit log, without a secret.
    const audit = await call(platformAdmin, "GET", `/audit?entity=oidc_client&entityId=${client.clientId}`);
    const actions = (audit.json().items as Array<{ action: string; tenantId: string | null }>).map(
      (e) => e.action,
    );
    expect(actions).toEqual(["update", "update", "rotate_secret", "create"]);
    expect(audit.body).not.toContain(clientSecret);
    expect(audit.body).not.toContain(newSecret);
  });

  it("validates input and refuses what makes no sense", async () => {
    const bad = [
      { name: "x", redirectUris: ["https://rp.example/cb#frag"] },
      { name: "x", redirectUris: ["javascript:alert(1)"] },
      { name: "x", redirectUris: [RP_CALLBACK], scopes: ["email"] },
      { name: "x", redirectUris: [RP_CALLBACK], clientId: "chosen-id" },
      { name: "", redirectUris: [RP_CALLBACK] },
    ];
    for (const body of bad) {
      expect(
        (await call(platformAdmin, "POST", "/oidc-clients", body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    const pub = await call(platformAdmin, "POST", "/oidc-clients", {
      name: "SPA",
      redirectUris: [RP_CALLBACK],
      isPublic: true,
    });
    expect(pub.json().clientSecret).toBeUndefined();
    const id = pub.json().client.clientId as string;
    const noSecret = await call(platformAdmin, "POST", `/oidc-clients/${id}/secret`);
    expect(noSecret.statusCode).toBe(422);
    expect(noSecret.json().error.reason).toBe("oidc.public_client_has_no_secret");
    const noPkce = await call(platformAdmin, "PUT", `/oidc-clients/${id}`, { requirePkce: false });
    expect(noPkce.json().error.reason).toBe("oidc.public_client_needs_pkce");
    const missing = await call(platformAdmin, "GET", "/oidc-clients/no-such-client");
    expect(missing.statusCode).toBe(404);
  });

  it("is for platform administrators only: 401 without credentials, 403 for a tenant's admin", async () => {
    expect((await call(null, "GET", "/oidc-clients")).statusCode).toBe(401);
    for (const [method, url] of [
      ["GET", "/oidc-clients"],
      ["POST", "/oidc-clients"],
      ["GET", "/signing-keys"],
      ["POST", "/signing-keys"],
    ] as const) {
      const body = url === "/oidc-clients" ? { name: "Sneaky", redirectUris: [RP_CALLBACK] } : undefined;
      const res = await call(tenantAdmin, method, url, method === "POST" ? body : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("is in /openapi.json", async () => {
    const paths = Object.keys((await call(null, "GET", "/openapi.json")).json().paths as object);
    for (const path of [
      "/oidc-clients",
      "/oidc-clients/{clientId}",
      "/oidc-clients/{clientId}/secret",
      "/signing-keys",
      "/signing-keys/{kid}/retire",
      "/audit",
      "/audit/export",
    ]) {
      expect(paths, path).toContain(path);
    }
  });
});

describe("signing keys over REST", () => {
  it("rotates on the running server: the new key is published at once and signs after the propagation delay; retiring early is 409", async () => {
    const before = (await call(platformAdmin, "GET", "/signing-keys")).json() as Array<{
      kid: string;
      signing: boolean;
    }>;
    const old = before.find((key) => key.signing);
    const rotated = await call(platformAdmin, "POST", "/signing-keys");
    expect(rotated.statusCode).toBe(201);
    const created = rotated.json() as {
      kid: string;
      signing: boolean;
      published: boolean;
      createdAt: string;
      signsFrom: string;
    };
    // Published at once, signing only once every instance has had time to publish it too.
    expect(created).toMatchObject({ signing: false, published: true });
    expect(Date.parse(created.signsFrom) - Date.parse(created.createdAt)).toBe(120_000);

    const jwks = (await t.app.inject({ method: "GET", url: "/oidc/keys" })).json() as {
      keys: Array<{ kid: string }>;
    };
    expect(jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining([created.kid, old?.kid]));

    // Until then the old key signs; afterwards the new one, and a strict RP verifies both.
    const client = await kit.register({ redirectUris: [RP_CALLBACK], requirePkce: true });
    const kidOf = (tokens: { id_token?: unknown }) =>
      JSON.parse(Buffer.from(String(tokens.id_token).split(".")[0] ?? "", "base64url").toString()).kid;
    expect(kidOf(await signIn(client))).toBe(old?.kid);
    clock.advance(120_000);
    expect(kidOf(await signIn(client))).toBe(created.kid);

    const early = await call(platformAdmin, "POST", `/signing-keys/${old?.kid}/retire`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.reason).toBe("oidc.key_still_needed");
    const signing = await call(platformAdmin, "POST", `/signing-keys/${created.kid}/retire`);
    expect(signing.statusCode).toBe(409);
    const unknown = await call(
      platformAdmin,
      "POST",
      "/signing-keys/01900000-0000-7000-8000-000000000000/retire",
    );
    expect(unknown.statusCode).toBe(404);

    const audit = await call(platformAdmin, "GET", `/audit?entity=signing_key&entityId=${created.kid}`);
    expect(audit.json().items).toMatchObject([
      { action: "rotate", userId: platformAdmin.id, tenantId: null },
    ]);
  });
});
