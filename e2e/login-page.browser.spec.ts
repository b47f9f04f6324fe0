import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LOCALE_NAMES } from "@hisob/i18n";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { en } from "../packages/i18n/src/locales/en";
import { ru } from "../packages/i18n/src/locales/ru";
import { uz } from "../packages/i18n/src/locales/uz";
import {
  browserSkipReason,
  type Confinement,
  confineToLocal,
  launchChromium,
  requireChromium,
} from "./browser";
import { freePort, ROOT, runCli, serverEnv, startServer } from "./server-process";

// The login page inside the authorize flow, in a real browser (Debian's Chromium): a relying
// party's authorization request lands on the page in the asked language, the user signs in with
// the keyboard, and the browser arrives back at the relying party with a code. Screenshots of every
// language go to .tmp/screenshots/ for a human to look at.

const MESSAGES = { en, ru, uz } as const;
type Lang = keyof typeof MESSAGES;
const LANGS: readonly Lang[] = ["en", "ru", "uz"];

const RP_ORIGIN = "https://rp.example";
const REDIRECT = `${RP_ORIGIN}/callback`;
const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

const skipReason = browserSkipReason();
if (skipReason) console.warn(`login-page.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the login page in the authorize flow, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let clientId = "";
  const adminEmail = "owner@firm.uz";
  const adminPassword = "Owner-Passw0rd-2026";
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    requireChromium(); // on CI a missing browser fails here, before the slow setup
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-login-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = adminEmail;
    env.ADMIN_PASSWORD = adminPassword;
    // The browser starts while the CLI registers the client (the embedded database is single-process:
    // the CLI must finish before the server opens it).
    const launching = launchChromium();
    launching.catch(() => undefined);
    const created = await runCli(
      [
        "oidc:client:create",
        "--name",
        "Partner app",
        "--public",
        // First-party: this suite is about the login page; the consent page has its own (consent.browser.spec.ts).
        "--first-party",
        "--redirect-uri",
        REDIRECT,
        "--scopes",
        "openid",
        "profile",
        "email",
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    clientId = (JSON.parse(created.stdout) as { client_id: string }).client_id;
    server = await startServer(env);
    browser = await launching;
  }, 120_000);

  afterEach(async () => {
    await Promise.allSettled(contexts.splice(0).map((context) => context.close()));
  });

  afterAll(async () => {
    await browser?.close();
    const stopped = await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(stopped?.code).toBe(0);
  });

  const base = () => server?.base ?? "";

  /** A fresh browser profile whose Accept-Language follows `locale`, kept on this machine. */
  const openPage = async (
    locale: string,
    viewport = DESKTOP,
  ): Promise<{ page: Page; confinement: Confinement }> => {
    if (!browser) throw new Error("the browser did not start");
    const context = await browser.newContext({ locale, viewport });
    contexts.push(context);
    const page = await context.newPage();
    const confinement = await confineToLocal(page, { allowed: [base()], stubbed: [RP_ORIGIN] });
    return { page, confinement };
  };

  /** A relying party's authorization request: public client, PKCE S256, state. */
  const authorizationRequest = (uiLocales?: string) => {
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(16).toString("base64url");
    const url = new URL("/oidc/authorize", base());
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid",
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      ...(uiLocales ? { ui_locales: uiLocales } : {}),
    }).toString();
    return { url: url.href, verifier, state };
  };

  const fields = (page: Page, lang: Lang) => ({
    email: page.getByLabel(MESSAGES[lang].login.email, { exact: true }),
    password: page.getByLabel(MESSAGES[lang].login.password, { exact: true }),
  });

  const focused = (page: Page, attribute: string) =>
    page.locator(":focus").getAttribute(attribute, { timeout: 5_000 });

  /** The page shows the login form in `lang`, from the page's own i18n resources. */
  const expectLoginPageIn = async (page: Page, lang: Lang) => {
    const text = MESSAGES[lang].login;
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.locator("html").getAttribute("lang")).toBe(lang);
    expect(await page.title()).toBe(text.title);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(text.heading);
    expect(await page.locator('label[for="email"]').innerText()).toBe(text.email);
    expect(await page.locator('label[for="password"]').innerText()).toBe(text.password);
    // The labels are the inputs' accessible names.
    const { email, password } = fields(page, lang);
    expect(await email.getAttribute("name")).toBe("email");
    expect(await password.getAttribute("name")).toBe("password");
    expect(await page.getByRole("button", { name: text.submit, exact: true }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: text.language, exact: true }).count()).toBe(1);
  };

  /** Types the credentials and submits with Enter in the password field. */
  const signIn = async (page: Page, lang: Lang, password: string) => {
    const input = fields(page, lang);
    await input.email.fill(adminEmail);
    await input.password.fill(password);
    await input.password.press("Enter");
  };

  /** The browser is at the relying party's redirect_uri with code, state and iss; the code works. */
  const expectBackAtClient = async (
    page: Page,
    confinement: Confinement,
    request: { verifier: string; state: string },
  ) => {
    await page.waitForURL((url) => url.href.startsWith(REDIRECT), { waitUntil: "load" });
    const callback = new URL(page.url());
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe(request.state);
    expect(callback.searchParams.get("iss")).toBe(base());
    const code = callback.searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    expect(confinement.stubbed.at(0)).toBe(callback.href);
    expect(confinement.blocked).toEqual([]);

    const tokens = await fetch(`${base()}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: request.verifier,
      }),
    });
    expect(tokens.status).toBe(200);
    expect(await tokens.json()).toMatchObject({ token_type: "Bearer", id_token: expect.any(String) });
  };

  const screenshot = async (page: Page, name: string, viewport = DESKTOP) => {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };

  // Accept-Language says something else each time, so the page can only be following ui_locales.
  const OTHER_BROWSER_LOCALE: Record<Lang, string> = { en: "ru-RU", ru: "uz-UZ", uz: "en-US" };

  it.each(LANGS)("ui_locales=%s: localized page, keyboard sign-in, back at the client", async (lang) => {
    const { page, confinement } = await openPage(OTHER_BROWSER_LOCALE[lang]);
    const request = authorizationRequest(lang);
    await page.goto(request.url);
    await expectLoginPageIn(page, lang);
    // The email field has the focus when the page opens (autofocus), with its focus ring.
    expect(await focused(page, "id")).toBe("email");
    await screenshot(page, `login-${lang}`);
    await screenshot(page, `login-${lang}-phone`, PHONE);

    // Keyboard only from here: the fields are filled through their labels, Tab reaches the button
    // (its focus ring is in the screenshot), Enter submits.
    const { email, password } = fields(page, lang);
    await email.fill(adminEmail);
    await password.fill(adminPassword);
    await page.keyboard.press("Tab");
    expect(await focused(page, "type")).toBe("submit");
    await screenshot(page, `login-${lang}-keyboard`);
    await page.keyboard.press("Enter");
    await expectBackAtClient(page, confinement, request);
  });

  it.each(LANGS)("ui_locales=%s: a wrong password, the one generic alert, then success", async (lang) => {
    const { page, confinement } = await openPage(OTHER_BROWSER_LOCALE[lang]);
    const request = authorizationRequest(lang);
    await page.goto(request.url);
    const refused = page.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/login",
    );
    await signIn(page, lang, "not-the-password");
    expect((await refused).status()).toBe(401);
    await page.waitForLoadState("load");

    const text = MESSAGES[lang].login;
    await expectLoginPageIn(page, lang);
    const alert = page.getByRole("alert");
    expect(await alert.count()).toBe(1);
    expect(await alert.innerText()).toBe(text.error.invalid_credentials);
    const { email, password } = fields(page, lang);
    expect(await email.inputValue()).toBe(adminEmail);
    expect(await password.inputValue()).toBe("");
    // Typing continues in the password field, and what Chromium tells assistive technology about it
    // is its label as the name and the error as the description.
    expect(await focused(page, "id")).toBe("password");
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "#password" });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
    const node = nodes.find((candidate) => !candidate.ignored);
    expect(node?.name?.value).toBe(text.password);
    expect(node?.description?.value).toBe(text.error.invalid_credentials);
    expect(node?.properties?.find((property) => property.name === "focused")?.value.value).toBe(true);
    await cdp.detach();
    await screenshot(page, `login-${lang}-error`);
    await screenshot(page, `login-${lang}-error-phone`, PHONE);

    await password.fill(adminPassword);
    await password.press("Enter");
    await expectBackAtClient(page, confinement, request);
  });

  it("Accept-Language alone (ru-RU, no ui_locales) gives Russian; the language links stay in the flow", async () => {
    const { page, confinement } = await openPage("ru-RU");
    const request = authorizationRequest();
    await page.goto(request.url);
    await expectLoginPageIn(page, "ru");

    // Choosing Uzbek on the page beats the browser's language and keeps the authorization request.
    const uzbek = page.getByRole("link", { name: LOCALE_NAMES.uz, exact: true });
    await uzbek.focus();
    await uzbek.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("ui_locales") === "uz", { waitUntil: "load" });
    await expectLoginPageIn(page, "uz");
    await signIn(page, "uz", adminPassword);
    await expectBackAtClient(page, confinement, request);
  });
});
