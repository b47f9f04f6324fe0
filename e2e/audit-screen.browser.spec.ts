import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";

// The audit log as an administrator reads it, in en, ru and uz: a payment's amount in major units with
// its currency, field names in words, a sign-out, no JSON. Screenshots go to SHOTS (looked at by hand).

const SHOTS = process.env.AUDIT_SHOTS_DIR ?? path.join(ROOT, ".tmp/screenshots");
const EMAIL = "owner@audit.uz";
const PASSWORD = "Owner-Passw0rd-2026";

const skipReason = browserSkipReason();
if (skipReason) console.warn(`audit-screen.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the audit log screen, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let page: Page;

  const api = async (cookie: string, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server?.base}${url}`, {
      method,
      headers: { "content-type": "application/json", cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${url}`).toBeLessThan(300);
    return response.status === 204 ? null : ((await response.json()) as Record<string, unknown>);
  };
  const login = async () => {
    const response = await fetch(`${server?.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  };

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    expect(existsSync(path.join(ROOT, "apps/admin/dist/web/index.html"))).toBe(true);
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-audit-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    // Entries to read: an account, a payment above 2^53 minor units, its amount changed, a sign-out.
    const cookie = await login();
    const account = await api(cookie, "POST", "/finance/accounts", { name: "Main till", currency: "UZS" });
    const payment = await api(cookie, "POST", "/finance/payments", {
      accountId: account?.id,
      amount: "9007199254740993",
      date: "2026-11-20",
      comment: "Big deal",
    });
    await api(cookie, "PUT", `/finance/payments/${payment?.id}`, { amount: "1250000" });
    await api(cookie, "POST", "/logout", {});
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("reads every entry as words in en, ru and uz", async () => {
    const base = server?.base ?? "";
    await page.goto(`${base}/admin/`);
    await page.waitForURL(/\/login\?/);
    await page.fill("#email", EMAIL);
    await page.fill("#password", PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/admin\//);
    const languages = [
      {
        code: "en",
        label: "English",
        amount: /90,071,992,547,409\.93 UZS/,
        signOut: "signed out",
        account: "Account",
      },
      {
        code: "ru",
        label: "Русский",
        amount: /90\s071\s992\s547\s409,93 UZS/,
        signOut: "выход",
        account: "Счёт",
      },
      {
        code: "uz",
        label: "Oʻzbekcha",
        amount: /90\s071\s992\s547\s409,93 UZS/,
        signOut: "chiqish",
        account: "Hisob",
      },
    ];
    for (const language of languages) {
      await page.getByLabel(/Language|Язык|Til/).click();
      await page.locator(".ant-select-item-option", { hasText: language.label }).click();
      await page.goto(`${base}/admin/audit`);
      await page.locator(".ant-table-row").first().waitFor();
      await expect.poll(async () => page.locator(".ant-spin-spinning").count(), { timeout: 20_000 }).toBe(0);
      const text = await page.locator(".ant-table-tbody").innerText();
      expect(text, language.code).toMatch(language.amount);
      expect(text, language.code).toContain(language.signOut);
      // References by the name the log knows: the account's name, the author's email.
      expect(text, language.code).toContain(`${language.account}: Main till`);
      // No field identifier, no JSON, no minor units on screen.
      expect(text, language.code).not.toMatch(/accountId|createdBy|userAgent|expiresAt|\{"|9007199254740993/);
      await page.screenshot({ path: path.join(SHOTS, `audit-${language.code}.png`), fullPage: true });
    }
  });
});
