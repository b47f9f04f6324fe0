import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en } from "../packages/i18n/src/locales/en";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { browserSkipReason, confineToLocal, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, runCli, serverEnv, startServer } from "./server-process";

// "Connected apps" in the accountant app (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md),
// in a real browser against the real server: the user allows a third-party application on the consent
// page, finds it under the user menu with what it may do in words and the date, revokes it after a
// confirmation, and it is gone — on the screen and on the server. Screenshots in en, ru and uz.

const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const RP_ORIGIN = "https://rp.example";
const REDIRECT = `${RP_ORIGIN}/callback`;
const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const THIRD_PARTY = "Budget Planner";

const skipReason = browserSkipReason();
if (skipReason) console.warn(`app-connected-apps.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("connected apps in the accountant app", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let app: Page;
  let clientId = "";
  let cookie = "";
  const email = "owner@firm.uz";
  const password = "Owner-Passw0rd-2026";

  /** REST as the user, straight to the server. */
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${server?.base}${route}`, {
      method,
      headers: { "content-type": "application/json", cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-connected-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = email;
    env.ADMIN_PASSWORD = password;
    const launching = launchChromium();
    launching.catch(() => undefined);
    const created = await runCli(
      [
        "oidc:client:create",
        "--name",
        THIRD_PARTY,
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
    const login = await fetch(`${server.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    app = await context.newPage();
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    const stopped = await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(stopped?.code).toBe(0);
  });

  const signInIfAsked = async (page: Page) => {
    if (new URL(page.url()).pathname !== "/login") return;
    await page.getByLabel(en.login.email, { exact: true }).fill(email);
    await page.getByLabel(en.login.password, { exact: true }).fill(password);
    await page.getByLabel(en.login.password, { exact: true }).press("Enter");
  };

  /** The third-party application asks for openid, profile and email; the user allows it. */
  const allowThirdParty = async () => {
    const page = await context.newPage();
    await confineToLocal(page, { allowed: [server?.base ?? ""], stubbed: [RP_ORIGIN] });
    const url = new URL("/oidc/authorize", server?.base);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid profile email",
      state: randomBytes(16).toString("base64url"),
      code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
      code_challenge_method: "S256",
      ui_locales: "en",
    }).toString();
    await page.goto(url.href);
    await signInIfAsked(page);
    await page.getByRole("button", { name: en.consent.allow, exact: true }).click();
    await page.waitForURL((at) => at.href.startsWith(REDIRECT), { waitUntil: "load" });
    expect(new URL(page.url()).searchParams.get("code")).toEqual(expect.any(String));
    await page.close();
  };

  const openConnectedApps = async (lang: keyof typeof APP) => {
    // The user menu's button is named in the page's language: these calls are in English.
    await app.getByRole("button", { name: uiEn.userMenu }).click();
    await app.getByRole("menuitem", { name: APP[lang].connectedApps.title }).click();
    await app.getByRole("heading", { name: APP[lang].connectedApps.title }).waitFor();
  };

  it("lists the allowed application with its scopes in words and the date; Revoke, confirmed, takes it away", async () => {
    await app.goto(`${server?.base}/app/`);
    await app.waitForURL(/\/login\?/);
    await signInIfAsked(app);
    await app.getByRole("heading", { level: 1 }).first().waitFor();

    // Nothing allowed yet.
    await openConnectedApps("en");
    await app.getByText(appEn.connectedApps.none).waitFor();

    await allowThirdParty();
    await app.reload();
    const table = app.getByTestId("connected-apps");
    const row = table.locator(".ant-table-row", { hasText: THIRD_PARTY });
    await row.waitFor();
    expect(await row.locator("li").allInnerTexts()).toEqual([
      appEn.connectedApps.scope.openid,
      appEn.connectedApps.scope.profile,
      appEn.connectedApps.scope.email,
    ]);
    const today = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(new Date());
    expect(await row.innerText()).toContain(today);
    await app.screenshot({ path: path.join(SCREENSHOTS, "app-connected-apps-en.png"), fullPage: true });

    // In the user's language: Russian, then Uzbek (dd.mm.yyyy).
    for (const lang of ["ru", "uz"] as const) {
      expect((await call("PUT", "/account", { uiLanguage: lang })).status).toBe(200);
      await app.reload();
      await app.getByRole("heading", { name: APP[lang].connectedApps.title }).waitFor();
      // The heading renders before the consents arrive: wait for the row itself, then read it.
      const localRow = table.locator(".ant-table-row", { hasText: THIRD_PARTY });
      await localRow.locator("li", { hasText: APP[lang].connectedApps.scope.openid }).waitFor();
      expect(await localRow.locator("li").allInnerTexts()).toEqual([
        APP[lang].connectedApps.scope.openid,
        APP[lang].connectedApps.scope.profile,
        APP[lang].connectedApps.scope.email,
      ]);
      await app.screenshot({
        path: path.join(SCREENSHOTS, `app-connected-apps-${lang}.png`),
        fullPage: true,
      });
    }
    const uzDate = new Date().toISOString().slice(0, 10).split("-").reverse().join(".");
    expect(await row.innerText()).toContain(uzDate);

    // Revoke asks first; "Keep" keeps it.
    await row.getByRole("button", { name: appUz.connectedApps.revoke }).click();
    const confirm = app.locator(".ant-popover:visible");
    await confirm.getByText(appUz.connectedApps.confirmRevoke.replace("{{app}}", THIRD_PARTY)).waitFor();
    await app.screenshot({
      path: path.join(SCREENSHOTS, "app-connected-apps-confirm-uz.png"),
      fullPage: true,
    });
    await confirm.getByRole("button", { name: appUz.connectedApps.keep }).click();
    await confirm.waitFor({ state: "hidden" });
    expect((await (await call("GET", "/account/consents")).json()) as unknown[]).toHaveLength(1);

    await row.getByRole("button", { name: appUz.connectedApps.revoke }).click();
    const revoked = app.waitForResponse((response) => response.url().includes("consents.revoke"));
    await app
      .locator(".ant-popover:visible")
      .getByRole("button", { name: appUz.connectedApps.revoke })
      .click();
    expect((await revoked).status()).toBe(200);
    await app.getByText(appUz.connectedApps.none).waitFor();
    expect(await table.count()).toBe(0);
    expect(await (await call("GET", "/account/consents")).json()).toEqual([]);
    await app.screenshot({ path: path.join(SCREENSHOTS, "app-connected-apps-empty-uz.png"), fullPage: true });
    expect((await call("PUT", "/account", { uiLanguage: "en" })).status).toBe(200);
  });
});
