import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { en } from "../packages/i18n/src/locales/en";
import { ru } from "../packages/i18n/src/locales/ru";
import { uz } from "../packages/i18n/src/locales/uz";
import { browserSkipReason, confineToLocal, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, runCli, serverEnv, startServer } from "./server-process";

// The consent page of a third-party app (docs/decisions/0036-oidc-consent.md) in a real browser: the
// login page names the app, the consent page names the app, organization and user in the asked
// language; Allow returns a code, a second request goes straight back, Deny returns access_denied.
// Screenshots of every language go to .tmp/screenshots/.

const MESSAGES = { en, ru, uz } as const;
type Lang = keyof typeof MESSAGES;
const LANGS: readonly Lang[] = ["en", "ru", "uz"];
const RP_ORIGIN = "https://rp.example";
const REDIRECT = `${RP_ORIGIN}/callback`;
const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const APP = "Budget Planner";

const skipReason = browserSkipReason();
if (skipReason) console.warn(`consent.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the consent page, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let clientId = "";
  const adminEmail = "owner@firm.uz";
  const adminPassword = "Owner-Passw0rd-2026";
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-consent-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = adminEmail;
    env.ADMIN_PASSWORD = adminPassword;
    const launching = launchChromium();
    launching.catch(() => undefined);
    const created = await runCli(
      [
        "oidc:client:create",
        "--name",
        APP,
        "--public",
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

  const openPage = async () => {
    if (!browser) throw new Error("the browser did not start");
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const confinement = await confineToLocal(page, { allowed: [base()], stubbed: [RP_ORIGIN] });
    return { page, confinement };
  };

  const authorizationRequest = (lang: Lang, scope: string) => {
    const state = randomBytes(16).toString("base64url");
    const url = new URL("/oidc/authorize", base());
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope,
      state,
      code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
      code_challenge_method: "S256",
      ui_locales: lang,
    }).toString();
    return { url: url.href, state };
  };

  const signIn = async (page: Page, lang: Lang) => {
    const text = MESSAGES[lang].login;
    expect(await page.locator("p.for-app").innerText()).toBe(text.forApp.replace("{{app}}", APP));
    await page.getByLabel(text.email, { exact: true }).fill(adminEmail);
    await page.getByLabel(text.password, { exact: true }).fill(adminPassword);
    await page.getByLabel(text.password, { exact: true }).press("Enter");
    await page.waitForURL((url) => url.pathname === "/oidc/authorize", { waitUntil: "load" });
  };

  const callbackOf = async (page: Page) => {
    await page.waitForURL((url) => url.href.startsWith(REDIRECT), { waitUntil: "load" });
    return new URL(page.url());
  };

  it.each(
    LANGS,
  )("ui_locales=%s: names the app, Allow returns a code, the next request asks nothing", async (lang) => {
    const { page } = await openPage();
    const first = authorizationRequest(lang, "openid profile email");
    // prompt=consent: an earlier language's Allow is remembered; this one must still see the page.
    await page.goto(`${first.url}&prompt=consent`);
    await signIn(page, lang);
    const text = MESSAGES[lang].consent;
    expect(await page.locator("html").getAttribute("lang")).toBe(lang);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(
      text.heading.replace("{{app}}", APP),
    );
    expect(await page.locator("ul.scopes li").allInnerTexts()).toEqual([
      text.scope.openid,
      text.scope.profile,
      text.scope.email,
    ]);
    expect(await page.locator("main").innerText()).toContain(adminEmail);
    await page.screenshot({ path: path.join(SCREENSHOTS, `consent-${lang}.png`), fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `consent-${lang}-phone.png`), fullPage: true });

    await page.getByRole("button", { name: text.allow, exact: true }).click();
    const callback = await callbackOf(page);
    expect(callback.searchParams.get("code")).toEqual(expect.any(String));
    expect(callback.searchParams.get("state")).toBe(first.state);

    // Remembered: the same scopes go straight back to the app.
    const second = authorizationRequest(lang, "openid profile");
    await page.goto(second.url);
    const again = await callbackOf(page);
    expect(again.searchParams.get("code")).toEqual(expect.any(String));
    expect(again.searchParams.get("state")).toBe(second.state);
  });

  it("Deny sends access_denied and the state back to the app", async () => {
    const { page } = await openPage();
    const request = authorizationRequest("en", "openid");
    await page.goto(`${request.url}&prompt=consent`);
    if (new URL(page.url()).pathname === "/login") await signIn(page, "en");
    await page.getByRole("button", { name: en.consent.deny, exact: true }).click();
    const callback = await callbackOf(page);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(request.state);
  });
});
