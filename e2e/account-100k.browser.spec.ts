import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { seedLedger } from "./seed-ledger";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";

// An account with 100,000 transactions in the accountant app (Chromium, the real server on the
// embedded database): it opens on its newest entries, scrolls to the middle and to the very first
// entry with every balance right, and the books still reconcile. One server for the suite (started
// once to migrate and create the organization, stopped for the seed, started again).

const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const COUNT = 100_000;
const LAST_DATE = "2026-10-31";
const EMAIL = "big@firm.uz";
const PASSWORD = "Big-Account-Passw0rd-2026";

const skipReason = browserSkipReason();
if (skipReason) console.warn(`account-100k.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("an account with 100,000 transactions", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let accountId = "";
  let balance = "";
  let cookie = "";

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-100k-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    const login = await fetch(`${server.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const me = (await (await fetch(`${server.base}/account`, { headers: { cookie } })).json()) as {
      id: string;
      tenant: { id: string };
    };
    const created = await fetch(`${server.base}/finance/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ name: "Main till", currency: "UZS" }),
    });
    expect(created.status).toBe(201);
    accountId = ((await created.json()) as { id: string }).id;
    await server.stop();
    const seeded = await seedLedger({
      dataDir,
      tenantId: me.tenant.id,
      accountId,
      userId: me.id,
      count: COUNT,
      lastDate: LAST_DATE,
    });
    console.log(`seeded ${COUNT} entries in ${Math.round(seeded.ms)} ms`);
    balance = seeded.balance;
    server = await startServer(env);
    browser = await launching;
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" })
    ).newPage();
    await page.goto(`${server.base}/app/`);
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.getByRole("heading", { name: appEn.dashboard.title }).waitFor();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    const result = await server?.stop();
    if (result && result.code !== 0) console.error(result.stderr);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const rows = () => page.getByTestId("statement-scroller").locator("tr[aria-rowindex]");
  /** The rendered row for 0-based entry `index` (newest first), once its page has arrived. */
  const rowAt = (index: number) =>
    page.getByTestId("statement-scroller").locator(`tr[aria-rowindex="${index + 3}"]`);
  /** The cells of entry `index` (date, type, comment, change, balance after, reversal), once loaded. */
  const cellsAt = async (index: number) => {
    await expect.poll(() => rowAt(index).locator("td").count(), { timeout: 30_000 }).toBe(6);
    return rowAt(index).locator("td").allInnerTexts();
  };
  /** "UZS 83,123.45" → minor units as a bigint (the en-US format of the screen). */
  const minor = (shown: string) => BigInt(shown.replace(/[^\d-]/g, ""));

  it("opens on the newest entries, with the account's balance after the newest", async () => {
    if (!server) throw new Error("no server");
    const started = performance.now();
    await page.goto(`${server.base}/app/accounts/${accountId}`);
    const [date, , comment, , after] = await cellsAt(0);
    console.log(`first rows rendered ${Math.round(performance.now() - started)} ms after navigation`);
    expect(comment).toMatch(/^Entry \d+$/);
    expect(date).toBe("Oct 31, 2026");
    expect(minor(after ?? "")).toBe(BigInt(balance));
    expect(await page.getByText(/100,000 entries/).count()).toBe(1);
    // Only what is visible is in the page: a few dozen rows, not 100,000.
    expect(await rows().count()).toBeLessThan(60);
    await page.screenshot({ path: path.join(SCREENSHOTS, "app-account-100k-en.png") });
  });

  it("scrolls to the middle and to the first entry; each balance is the one after it", async () => {
    const scroller = page.getByTestId("statement-scroller");
    const height = await scroller.evaluate((el) => el.scrollHeight);
    await scroller.evaluate((el, to) => el.scrollTo({ top: to }), Math.floor(height / 2));
    const middle = Math.floor(COUNT / 2);
    const index = await expect
      .poll(async () => Number((await rows().first().getAttribute("aria-rowindex")) ?? 0) - 3)
      .toBeGreaterThan(middle - 30)
      .then(async () => Number((await rows().nth(12).getAttribute("aria-rowindex")) ?? 0) - 3);
    const [, , , upperChange, upperBalance] = await cellsAt(index);
    const [, , , , lowerBalance] = await cellsAt(index + 1);
    // Neighbours chain: the balance after the older one plus the newer one's change is the newer's.
    expect(minor(lowerBalance ?? "") + minor(upperChange ?? "")).toBe(minor(upperBalance ?? ""));
    await page.screenshot({ path: path.join(SCREENSHOTS, "app-account-100k-middle-en.png") });

    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const [date, , comment, change, after] = await cellsAt(COUNT - 1);
    expect(comment).toMatch(/^Entry \d+$/);
    expect(date).toBe("May 11, 2021");
    // The first entry ever, from a zero balance: the balance after it is its own amount.
    expect(minor(after ?? "")).toBe(minor(change ?? ""));
  });

  it("the screen in ru and uz reads the same account", async () => {
    for (const [lang, name, app] of [
      ["ru", "Русский", appRu],
      ["uz", "Oʻzbekcha", appUz],
    ] as const) {
      const select = page.getByLabel(lang === "ru" ? "Language" : "Язык", { exact: true });
      await select.click();
      await select.fill(name);
      await page.locator(".ant-select-item-option-active:visible").first().waitFor();
      await select.press("Enter");
      await page.getByText(app.accounts.transactions, { exact: true }).first().waitFor();
      await page.getByTestId("statement-scroller").evaluate((el) => el.scrollTo({ top: 0 }));
      await cellsAt(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `app-account-100k-${lang}.png`) });
    }
  });

  it("the books reconcile after the seed", async () => {
    if (!server) throw new Error("no server");
    const login = await fetch(`${server.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const reconcile = await fetch(`${server.base}/finance/reconcile`, { headers: { cookie } });
    expect(reconcile.status).toBe(200);
    expect(await reconcile.json()).toMatchObject({ ok: true });
  });
});
