import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, launchChromium } from "../../../../e2e/browser";
import { createTestApp, type TestApp } from "../testing/test-app";
import { freePort, startUpstreamProvider } from "../testing/upstream-oidc";
import { codeOf, gql } from "../transports/graphql/graphql-test-kit";
import { FLOW_COOKIE } from "./flow-cookie";

/*
 * googleAuthenticate end to end against a real upstream OpenID provider (oidc-provider from npm, on a real
 * port): our server (also on a real port) builds the authorization URL, the upstream signs its account
 * in, redirects back to /auth/external/callback, and openid-client exchanges the code and checks the ID
 * token. Each refusal is driven by what a real attacker or a real provider would do.
 */

const CLIENT_ID = "hisob-test";
const CLIENT_SECRET = "upstream-client-secret-0123456789";
const FLOW_MUTATION = /* GraphQL */ `mutation Start($next: String) { googleAuthenticate(next: $next) { url provider expiresAt } }`;

type Jar = Map<string, string>;

const remember = (jar: Jar, response: Response) => {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair?.indexOf("=") ?? -1;
    if (pair && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
};
const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

describe("googleAuthenticate: sign-in through an upstream OpenID provider", () => {
  let testApp: TestApp;
  let upstream: Awaited<ReturnType<typeof startUpstreamProvider>>;
  let base = "";
  let tenantId = "";
  const alice = "alice.external@firm.uz";
  const dora = "dora.disabled@firm.uz";

  beforeAll(async () => {
    const [upstreamPort, ourPort] = [await freePort(), await freePort()];
    base = `http://localhost:${ourPort}`;
    upstream = await startUpstreamProvider({
      port: upstreamPort,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUri: `${base}/auth/external/callback`,
      accounts: {
        alice: { email: alice, emailVerified: true },
        "alice-unverified": { email: alice, emailVerified: false },
        "alice-silent": { email: alice },
        stranger: { email: "nobody@elsewhere.example", emailVerified: true },
        dora: { email: dora, emailVerified: true },
      },
    });
    testApp = await createTestApp({
      env: {
        OIDC_ISSUER_URL: base,
        EXTERNAL_OIDC_ISSUER_URL: upstream.issuer,
        EXTERNAL_OIDC_CLIENT_ID: CLIENT_ID,
        EXTERNAL_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        EXTERNAL_OIDC_NAME: "Firm SSO",
      },
    });
    await testApp.app.listen({ host: "localhost", port: ourPort });
    tenantId = (await testApp.createTenant()).id;
    await testApp.createUser(tenantId, ["users:read:all"], { email: alice });
    const disabled = await testApp.createUser(tenantId, [], { email: dora });
    await testApp.db.withTenant(tenantId, (tx) =>
      tx.user.update({ where: { id: disabled.id }, data: { isActive: false } }),
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await upstream?.close();
  });

  /** googleAuthenticate over real HTTP: the authorization URL and the flow cookie it set. */
  const start = async (next?: string) => {
    const response = await fetch(`${base}/api/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: FLOW_MUTATION, variables: { next } }),
    });
    const body = (await response.json()) as {
      data: { googleAuthenticate: { url: string; provider: string } };
    };
    const jar: Jar = new Map();
    remember(jar, response);
    return {
      ...body.data.googleAuthenticate,
      flowCookie: jar.get(FLOW_COOKIE) ?? "",
      headers: response.headers,
    };
  };

  /** The upstream's own login screen, submitted as `login`: returns the URL it sends the browser back to. */
  const signInUpstream = async (authorizationUrl: string, login: string): Promise<URL> => {
    const jar: Jar = new Map();
    let url = authorizationUrl;
    let posted = false;
    for (let hop = 0; hop < 10; hop += 1) {
      if (url.startsWith(`${base}/`)) return new URL(url);
      const isInteraction: boolean = new URL(url).pathname.startsWith("/interaction/") && !posted;
      const response = await fetch(url, {
        method: isInteraction ? "POST" : "GET",
        redirect: "manual",
        headers: {
          cookie: cookieHeader(jar),
          ...(isInteraction ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
        ...(isInteraction
          ? { body: new URLSearchParams({ prompt: "login", login, password: "x" }).toString() }
          : {}),
      });
      posted ||= isInteraction;
      remember(jar, response);
      const location = response.headers.get("location");
      if (!location)
        throw new Error(`upstream answered ${response.status} without a redirect: ${await response.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error("too many redirects at the upstream");
  };

  const callback = (url: URL, flowCookie: string | undefined) =>
    fetch(url, {
      redirect: "manual",
      headers: flowCookie === undefined ? {} : { cookie: `${FLOW_COOKIE}=${flowCookie}` },
    });

  const sessionCookieOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .find((line) => line.startsWith("session="))
      ?.split(";")[0];

  it("tells a signed-in administrator which upstream provider is configured (GET /auth/methods)", async () => {
    const admin = await testApp.createUser(tenantId, "admin");
    const res = await testApp.app.inject({ method: "GET", url: "/auth/methods", headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: true, external: { name: "Firm SSO" } });
  });

  it("returns the upstream authorization URL with state, nonce and PKCE S256, and binds it to this browser", async () => {
    const started = await start("/users");
    expect(started.provider).toBe("Firm SSO");
    const url = new URL(started.url);
    expect(url.origin).toBe(upstream.issuer);
    expect(url.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(url.searchParams.get("redirect_uri")).toBe(`${base}/auth/external/callback`);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")?.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.get("nonce")?.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    // The flow cookie is sealed: neither state nor verifier can be read from it.
    expect(started.flowCookie).not.toBe("");
    expect(started.flowCookie).not.toContain(url.searchParams.get("state"));
    const line = started.headers.getSetCookie().find((cookie) => cookie.startsWith(FLOW_COOKIE));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\/auth\/external/);
    expect(started.headers.get("cache-control")).toBe("no-store");
  });

  it("signs the verified user in: session cookie, redirect to the safe next, and the session works", async () => {
    const started = await start("/users?page=2");
    const back = await signInUpstream(started.url, "alice");
    const response = await callback(back, started.flowCookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/users?page=2");
    const session = sessionCookieOf(response);
    expect(session).toBeDefined();
    const me = await gql(`${base}/api/graphql`, "{ me { email } }", { headers: { cookie: session ?? "" } });
    expect(me.body.data).toEqual({ me: { email: alice } });
    // The flow is single use: the same response again is refused.
    const replay = await callback(back, started.flowCookie);
    expect(replay.status).not.toBe(303);
  });

  it("never redirects to another site: an unsafe next becomes /account", async () => {
    const started = await start("https://evil.example/steal");
    const response = await callback(await signInUpstream(started.url, "alice"), started.flowCookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/account");
  });

  it("refuses a state that is not this browser's (a response from another sign-in)", async () => {
    const mine = await start();
    const theirs = await start();
    // An attacker's own authorization response, delivered to the victim's browser (login CSRF).
    const response = await callback(await signInUpstream(theirs.url, "alice"), mine.flowCookie);
    expect(response.status).toBe(400);
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await response.text()).toContain("does not match the sign-in this browser started");
  });

  it("refuses a callback without the flow cookie (another browser, or expired)", async () => {
    const started = await start();
    const response = await callback(await signInUpstream(started.url, "alice"), undefined);
    expect(response.status).toBe(400);
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await response.text()).toContain("started in another browser");
  });

  it("refuses an ID token whose nonce is not the one this sign-in asked for", async () => {
    const started = await start();
    const tampered = new URL(started.url);
    tampered.searchParams.set("nonce", "an-attacker-chosen-nonce-0123456789abcdefghijk");
    const response = await callback(await signInUpstream(tampered.href, "alice"), started.flowCookie);
    expect(response.status).toBe(401);
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await response.text()).toContain("was not issued for this sign-in");
  });

  it("refuses an email the upstream says is unverified, or does not say is verified", async () => {
    for (const login of ["alice-unverified", "alice-silent"]) {
      const started = await start();
      const response = await callback(await signInUpstream(started.url, login), started.flowCookie);
      expect(response.status).toBe(403);
      expect(sessionCookieOf(response)).toBeUndefined();
      expect(await response.text()).toContain("has not verified this email address");
    }
  });

  it("refuses an email no user has, and a deactivated user, with clear messages", async () => {
    const stranger = await start();
    const unknown = await callback(await signInUpstream(stranger.url, "stranger"), stranger.flowCookie);
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain("There is no user with this email address");

    const disabled = await start();
    const inactive = await callback(await signInUpstream(disabled.url, "dora"), disabled.flowCookie);
    expect(inactive.status).toBe(401);
    expect(sessionCookieOf(inactive)).toBeUndefined();
    expect(await inactive.text()).toContain("deactivated");
  });

  it("shows the refusal in the language the sign-in started in", async () => {
    const response = await fetch(`${base}/auth/external/start?ui_locales=ru`, { redirect: "manual" });
    expect(response.status).toBe(303);
    const flowCookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith(FLOW_COOKIE))
      ?.split(";")[0]
      ?.slice(FLOW_COOKIE.length + 1);
    const refused = await callback(
      await signInUpstream(response.headers.get("location") ?? "", "stranger"),
      flowCookie,
    );
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("Пользователя с таким адресом электронной почты нет");
  });

  it("puts a 'Sign in with …' button on the login page", async () => {
    for (const [locale, label] of [
      ["en", "Sign in with Firm SSO"],
      ["ru", "Войти через Firm SSO"],
      ["uz", "Firm SSO orqali kirish"],
    ] as const) {
      const page = await (await fetch(`${base}/login?ui_locales=${locale}&next=%2Fusers`)).text();
      expect(page).toContain(label);
      expect(page).toContain(`href="/auth/external/start?next=%2Fusers&amp;ui_locales=${locale}"`);
    }
  });

  it("a server without EXTERNAL_OIDC_* answers a clear error and shows no button", async () => {
    const plain = await createTestApp({ db: testApp.db });
    try {
      const response = await plain.app.inject({
        method: "POST",
        url: "/api/graphql",
        headers: { "content-type": "application/json" },
        payload: { query: FLOW_MUTATION },
      });
      const body = response.json() as {
        errors: { message: string; extensions: { code: string; reason: string } }[];
      };
      expect(body.errors[0]?.extensions).toMatchObject({
        code: "UNAVAILABLE",
        reason: "auth.external_not_configured",
      });
      expect(body.errors[0]?.message).toBe(
        "Sign-in through an external identity provider is not configured on this server",
      );
      const page = await plain.app.inject({ method: "GET", url: "/login" });
      expect(page.body).not.toContain("/auth/external/start");
      expect(page.body).not.toContain("Sign in with");
      expect(
        (await plain.app.inject({ method: "GET", url: "/auth/external/callback?code=x&state=y" })).statusCode,
      ).toBe(404);
    } finally {
      await plain.close();
    }
    expect(codeOf(await gql(`${base}/api/graphql`, FLOW_MUTATION))).toBeUndefined();
  });

  describe.skipIf(browserSkipReason() !== undefined)("in Chromium, through the login page's button", () => {
    const SCREENSHOTS = path.resolve(import.meta.dirname, "../../../../.tmp/screenshots");
    let browser: Browser;

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    const LABELS = { en: "Sign in with Firm SSO", ru: "Войти через Firm SSO", uz: "Firm SSO orqali kirish" };

    for (const lang of ["en", "ru", "uz"] as const) {
      it(`${lang}: the button signs a verified user in; an unverified email is refused on our page`, async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          await page.goto(`${base}/login?ui_locales=${lang}&next=%2Fhealthz`);
          await page.screenshot({
            path: path.join(SCREENSHOTS, `external-sign-in-login-${lang}.png`),
            fullPage: true,
          });
          // Keyboard and pointer both reach it: a real link with an accessible name.
          await page.getByRole("link", { name: LABELS[lang] }).click();
          await page.waitForURL((url) => url.origin === upstream.issuer);
          await page.fill('input[name="login"]', "alice");
          await page.fill('input[name="password"]', "any");
          await page.click('button[type="submit"]');
          await page.waitForURL(`${base}/healthz`);
          const cookies = await context.cookies(base);
          expect(cookies.find((cookie) => cookie.name === "session")?.httpOnly).toBe(true);
          expect(cookies.find((cookie) => cookie.name === FLOW_COOKIE)).toBeUndefined();

          // A fresh browser whose upstream account has an unverified email: our login page with the reason.
          const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          try {
            const refusedPage = await other.newPage();
            await refusedPage.goto(`${base}/login?ui_locales=${lang}`);
            await refusedPage.getByRole("link", { name: LABELS[lang] }).click();
            await refusedPage.waitForURL((url) => url.origin === upstream.issuer);
            await refusedPage.fill('input[name="login"]', "alice-unverified");
            await refusedPage.fill('input[name="password"]', "any");
            await refusedPage.click('button[type="submit"]');
            await refusedPage.waitForURL((url) => url.pathname === "/auth/external/callback");
            await expect
              .poll(() => refusedPage.getByRole("alert").textContent())
              .toContain(
                { en: "has not verified this email", ru: "не подтвердил этот адрес", uz: "tasdiqlamagan" }[
                  lang
                ],
              );
            expect((await other.cookies(base)).find((cookie) => cookie.name === "session")).toBeUndefined();
            await refusedPage.screenshot({
              path: path.join(SCREENSHOTS, `external-sign-in-refused-${lang}.png`),
              fullPage: true,
            });
          } finally {
            await other.close();
          }
        } finally {
          await context.close();
        }
      });
    }
  });
});
