import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { axeViolations, type Books, settled, signIn, startBooks, watchFailedRequests } from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// axe-core on every screen of both apps (the accountant app at /app and the admin screens at
// /admin), and on their dialogs, in en, ru and uz, at 1280×720: text contrast (WCAG 2.1 AA) and every
// other rule. Ant Design's default greys failed contrast on most screens; the shared theme
// (packages/ui/src/theme.ts) is what makes them pass. Screenshots go to .tmp/shots/money-views/.

const SHOTS = path.join(ROOT, ".tmp/shots/money-views");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
type Lang = keyof typeof APP;
const LANGS: Lang[] = ["en", "ru", "uz"];

/** The accountant app's screens: a path, and what to wait for once there. */
const APP_SCREENS = (ids: Books["ids"]) =>
  [
    ["dashboard", "/app/", "twelve-months"],
    ["accounts", "/app/accounts", "new-account"],
    ["account", `/app/accounts/${ids.kassa}`, "statement-opening"],
    ["statement-print", `/app/accounts/${ids.kassa}/print`, "print-closing"],
    ["payments", "/app/payments", "documents-count"],
    ["expenses", "/app/expenses", "documents-count"],
    ["transfers", "/app/transfers", null],
    ["debts", "/app/debts", "debts-table"],
    ["counterparties", "/app/counterparties", "counterparties-table"],
    ["counterparty", `/app/counterparties/${ids.client}`, "counterparty-debts"],
    // The reports with their comparison tables, filters and charts.
    ["report-income", "/app/reports/income?compare=previousPeriod", "income-compare-UZS"],
    ["report-cashflow", "/app/reports/cashflow?compare=previousYear", "cashflow-compare-UZS"],
    ["report-statement", `/app/reports/statement?account=${ids.kassa}`, "chart-balance"],
    // A books' report: the navigation with its second group's link current (decision 0108).
    ["report-trial-balance", "/app/reports/trial-balance", "report-trial-balance"],
  ] as const;

const ADMIN_SCREENS = [
  "users",
  "roles",
  "groups",
  "oidc-clients",
  "signing-keys",
  "audit",
  "tenants",
  "currencies",
] as const;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`accessibility.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("accessibility (axe-core) of both apps, in a real browser", () => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let books: Books;
  let browser: Browser;
  let page: Page;
  let failed: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    session = await startBooks("hisob-e2e-a11y-");
    ({ books, browser } = session);
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" })
    ).newPage();
    failed = watchFailedRequests(page);
    await signIn(page, books.base);
  }, 180_000);

  afterAll(async () => {
    await session?.stop();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const useLanguage = async (lang: Lang) => {
    expect((await books.call("PUT", "/account", { uiLanguage: lang })).status).toBe(200);
  };

  for (const lang of LANGS) {
    it(`every screen of the accountant app passes axe in ${lang}`, async () => {
      await useLanguage(lang);
      const violations: string[] = [];
      for (const [name, url, ready] of APP_SCREENS(books.ids)) {
        await page.goto(`${books.base}${url}`);
        await page.getByRole("heading").first().waitFor();
        if (ready) await page.getByTestId(ready).first().waitFor();
        await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
        await settled(page);
        await shot(`a11y-app-${name}-${lang}`);
        violations.push(...(await axeViolations(page, `/app ${name} (${lang})`)));
      }
      expect(violations, violations.join("\n")).toEqual([]);
    });

    it(`the accountant app's dialogs pass axe in ${lang}`, async () => {
      await useLanguage(lang);
      const violations: string[] = [];
      await page.goto(`${books.base}/app/payments`);
      await page.getByTestId("new-document").click();
      await page.getByRole("dialog").waitFor();
      await settled(page);
      violations.push(...(await axeViolations(page, `/app new payment (${lang})`)));
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await page.goto(`${books.base}/app/accounts/${books.ids.bank}`);
      // The bank's statement: the transfer in and its reversal, each with an edit button.
      await page.getByTestId("statement-scroller").locator("button").first().click();
      await page.getByRole("dialog").waitFor();
      await settled(page);
      violations.push(...(await axeViolations(page, `/app movement edit (${lang})`)));
      expect(violations, violations.join("\n")).toEqual([]);
    });

    it(`every admin screen passes axe in ${lang}`, async () => {
      await useLanguage(lang);
      const violations: string[] = [];
      for (const screen of ADMIN_SCREENS) {
        await page.goto(`${books.base}/admin/${screen}`);
        await page.getByRole("heading").first().waitFor();
        await expect.poll(() => page.locator("html").getAttribute("lang")).toBe(lang);
        await settled(page);
        await shot(`a11y-admin-${screen}-${lang}`);
        violations.push(...(await axeViolations(page, `/admin ${screen} (${lang})`)));
      }
      expect(violations, violations.join("\n")).toEqual([]);
    });
  }

  it("no page load asked for a missing file (/favicon.ico included)", async () => {
    expect(failed).toEqual([]);
    for (const url of ["/favicon.ico", "/app/favicon.ico", "/admin/favicon.ico"]) {
      const response = await page.request.get(`${books.base}${url}`);
      expect(response.status(), url).toBe(200);
    }
    const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
    expect(icon).toMatch(/^\/(app|admin)\/favicon\.ico$/);
  });
});
