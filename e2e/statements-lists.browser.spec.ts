import { readFileSync } from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en as serverEn } from "../packages/i18n/src/locales/en";
import { ru as serverRu } from "../packages/i18n/src/locales/ru";
import { uz as serverUz } from "../packages/i18n/src/locales/uz";
import { formatDate } from "../packages/ui/src/dates";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { ru as uiRu } from "../packages/ui/src/locales/ru";
import { uz as uiUz } from "../packages/ui/src/locales/uz";
import { formatMoney } from "../packages/ui/src/money";
import { booksPageSteps, LANGS, type Lang, plain, signedInPage } from "./books-page";
import {
  type Books,
  dayOf,
  LONG_COMMENT,
  ORGANIZATION,
  REVERSAL_REASON,
  settled,
  startBooks,
} from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// The accountant app's statements and lists as an accountant reads them, in en, ru and uz, at
// 1280×720: the account screen's opening-balance line and its period (presets and custom dates, in the
// address), its .xlsx dated by its entries, the reversal reason on paper, the payments list's count,
// totals per currency over every matching payment (not one page) and its category and counterparty
// columns, whole comments, dialogs that fit the window, the picker's clear button out of the Tab order
// and the dashboard's printout naming the organization and the day. Screenshots: .tmp/shots/money-views/.

const SHOTS = path.join(ROOT, ".tmp/shots/money-views");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const SERVER = { en: serverEn, ru: serverRu, uz: serverUz } as const;
const UI = { en: uiEn, ru: uiRu, uz: uiUz } as const;
const VIEWPORT = { width: 1280, height: 720 };

const money = (minor: bigint | string, currency: string, lang: Lang) =>
  plain(formatMoney(minor, currency, 2, lang));
const today = () => new Date().toISOString().slice(0, 10);

const skipReason = browserSkipReason();
if (skipReason) console.warn(`statements-lists.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("statements and lists, in a real browser", () => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let books: Books;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    session = await startBooks("hisob-e2e-views-");
    ({ books, browser } = session);
    ({ page, pageErrors } = await signedInPage(browser, books.base, VIEWPORT));
  }, 180_000);

  afterAll(async () => {
    await session?.stop();
  });

  const { shot, open } = booksPageSteps(SHOTS, () => ({ page, books }));
  const balanceOf = async (id: string) => {
    const response = await books.call("GET", `/finance/accounts/${id}`);
    return ((await response.json()) as { balance: string }).balance;
  };
  /** How many entries the statement holds (its rows are virtual: only those in view are drawn). */
  const entryCount = async () =>
    Number(await page.locator("table[aria-rowcount]").getAttribute("aria-rowcount")) - 3;
  const choosePreset = async (lang: Lang, preset: keyof (typeof appEn)["accounts"]["periods"]) => {
    await page.getByTestId("period-preset").click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option")
      .filter({ hasText: APP[lang].accounts.periods[preset] })
      .click();
  };

  for (const lang of LANGS) {
    it(`the account screen (${lang}): an opening-balance line, a period in the address, the .xlsx dated by its entries`, async () => {
      const app = APP[lang];
      const { payments, ids } = books;
      await open(lang, `/app/accounts/${ids.kassa}`);
      // All time: every entry (25 payments, the rent, the transfer and its reversal), between the
      // opening balance as it was entered and today's balance.
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(28);
      const opening = page.getByTestId("statement-opening");
      expect(plain(await opening.innerText())).toContain(app.accounts.opening);
      expect(plain(await opening.innerText())).toContain(money(500000000n, "UZS", lang));
      expect(plain(await page.getByTestId("statement-closing").innerText())).toContain(
        money(await balanceOf(ids.kassa), "UZS", lang),
      );
      await settled(page);
      await shot(`account-all-time-${lang}`);

      // This month: in the address, and what it holds; the opening line is the month's first balance.
      await choosePreset(lang, "thisMonth");
      await page.waitForURL(/start=\d{4}-\d{2}-01&end=\d{4}-\d{2}-\d{2}/);
      const monthStart = `${today().slice(0, 8)}01`;
      expect(new URL(page.url()).searchParams.get("start")).toBe(monthStart);
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(payments.thisMonth + 3);
      // Payments 1…10 came last month: (1 + … + 10) × 10,000.00 + 10 × 0.50 UZS.
      const lastMonthSum = 55n * 1_000_000n + 10n * 50n;
      await expect
        .poll(async () => plain(await page.getByTestId("statement-opening").innerText()))
        .toContain(money(500000000n + lastMonthSum, "UZS", lang));
      expect(await page.getByTestId("statement-opening").innerText()).toContain(formatDate(monthStart, lang));
      // A reload keeps the period (it is in the address).
      await page.reload();
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(payments.thisMonth + 3);
      // The screen may render before the user's saved language has arrived: read it once it has.
      await expect
        .poll(() => page.getByTestId("period-preset").innerText(), { timeout: 15_000 })
        .toContain(app.accounts.periods.thisMonth);
      await settled(page);
      await shot(`account-this-month-${lang}`);
      await choosePreset(lang, "lastMonth");
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(payments.lastMonth);
      // Custom dates: typed, in the language's format; the preset reads "custom".
      const from = page.getByLabel(APP[lang].documents.from, { exact: true });
      await from.click();
      await from.fill(
        lang === "en"
          ? `${dayOf(1, 3).slice(5, 7)}/03/${dayOf(1, 3).slice(0, 4)}`
          : formatDate(dayOf(1, 3), "uz"),
      );
      await from.press("Enter");
      await expect.poll(() => new URL(page.url()).searchParams.get("start")).toBe(dayOf(1, 3));
      await expect
        .poll(() => page.getByTestId("period-preset").innerText())
        .toContain(app.accounts.periods.custom);
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(payments.lastMonth - 1);
      // An end before the start: said so, no statement that cannot load (no endless skeleton).
      const to = page.getByLabel(APP[lang].documents.to, { exact: true });
      await to.click();
      await to.fill(
        lang === "en"
          ? `${dayOf(1, 2).slice(5, 7)}/02/${dayOf(1, 2).slice(0, 4)}`
          : formatDate(dayOf(1, 2), "uz"),
      );
      await to.press("Enter");
      await page.getByText(app.accounts.periodOrder).waitFor();
      expect(await page.locator(".ant-skeleton").count()).toBe(0);
      await choosePreset(lang, "allTime");
      await expect.poll(() => new URL(page.url()).search).toBe("");
      await expect.poll(entryCount, { timeout: 15_000 }).toBe(28);

      // The .xlsx of all time: dated by the first and last entry, never 1900-01-01 or 9999-12-31.
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("download-statement").click(),
      ]);
      const name = file.suggestedFilename();
      expect(name).toMatch(
        new RegExp(`^statement-${dayOf(2, 5)}-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`),
      );
      expect(name).not.toMatch(/1900|9999/);
      const saved = path.join(SHOTS, `download-${lang}-${name}`);
      await file.saveAs(saved);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      if (!sheet) throw new Error("no sheet");
      const words = SERVER[lang].export.finance;
      expect(sheet.getRow(2).getCell(1).value).toEqual(new Date(`${dayOf(2, 5)}T00:00:00.000Z`));
      expect(sheet.getRow(2).getCell(2).value).toBe(app.accounts.opening);
      expect(sheet.getRow(2).getCell(1).numFmt).toBe(lang === "en" ? "mmm d, yyyy" : "dd.mm.yyyy");
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toContain(words.columns.reversal);
      const reasons: string[] = [];
      sheet.eachRow((row) => {
        const text = String(row.getCell(5).value ?? "");
        if (text.includes(REVERSAL_REASON)) reasons.push(text);
      });
      expect(reasons).toEqual([
        `${words.rows.reversed}: ${REVERSAL_REASON}`,
        `${words.rows.reversal}: ${REVERSAL_REASON}`,
      ]);
    });

    it(`the print view (${lang}) keeps the reversal reason and names the organization and the day`, async () => {
      await open(lang, `/app/accounts/${books.ids.kassa}`);
      await choosePreset(lang, "thisMonth");
      await page.waitForURL(/start=/);
      await page.getByTestId("open-print-view").click();
      await page.waitForURL(/\/print\?start=\d{4}-\d{2}-01&end=/);
      await page.getByTestId("print-closing").waitFor();
      const notes = page.locator("[data-testid^=print-reversal-]");
      await expect.poll(() => notes.count()).toBe(2);
      for (const note of await notes.all()) expect(await note.innerText()).toContain(REVERSAL_REASON);
      expect(await page.getByTestId("print-organization").innerText()).toBe(ORGANIZATION);
      expect(await page.getByTestId("print-date").innerText()).toContain(formatDate(today(), lang));
      await page.emulateMedia({ media: "print" });
      await shot(`statement-paper-${lang}`);
      await page.emulateMedia({ media: "screen" });
    });

    it(`the payments list (${lang}): a count and totals per currency of every match, category and counterparty columns, whole comments`, async () => {
      const app = APP[lang];
      const { payments } = books;
      await open(lang, "/app/payments");
      const count = page.getByTestId("documents-count");
      // 25 in Kassa and one in dollars: two pages of 20, counted and summed whole by the server.
      await expect
        .poll(async () => plain(await count.innerText()))
        .toBe(app.documents.paymentCount.replace("{{n}}", "26"));
      expect(plain(await page.getByTestId("documents-total-UZS").innerText())).toContain(
        money(payments.kassaSum, "UZS", lang),
      );
      expect(plain(await page.getByTestId("documents-total-USD").innerText())).toContain(
        money(150000n, "USD", lang),
      );
      // The count can arrive before the table has drawn its header: wait for the header, not a moment.
      await expect
        .poll(() => page.locator(".ant-table-thead th").allInnerTexts())
        .toEqual(expect.arrayContaining([app.documents.category, app.documents.counterparty]));
      // The row of the long comment: its category, its counterparty, and the whole comment in view.
      const row = page.getByRole("row").filter({ hasText: "Payment for the consulting" });
      await row.waitFor();
      const comment = row.getByText(LONG_COMMENT, { exact: true });
      expect(await comment.isVisible()).toBe(true);
      expect(await comment.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect(await comment.evaluate((el) => getComputedStyle(el.closest("td") ?? el).textOverflow)).not.toBe(
        "ellipsis",
      );
      expect(await row.innerText()).toContain("Client A");
      await settled(page);
      await shot(`payments-${lang}`);

      // Filtered by category: the totals of every sale, not of the rows shown.
      const category = page.getByLabel(app.documents.category, { exact: true });
      await category.click();
      await category.fill("Sales");
      await page
        .locator(".ant-select-dropdown:visible .ant-select-item-option-active")
        .filter({ hasText: "Sales" })
        .waitFor();
      await category.press("Enter");
      await page.locator(".ant-select-dropdown:visible").waitFor({ state: "hidden" });
      await expect
        .poll(async () => plain(await count.innerText()))
        .toBe(app.documents.paymentCount.replace("{{n}}", String(payments.salesCount)));
      expect(plain(await page.getByTestId("documents-total-UZS").innerText())).toContain(
        money(payments.salesSum, "UZS", lang),
      );
      expect(await page.getByTestId("documents-total-USD").count()).toBe(0);
      await settled(page);
      await shot(`payments-filtered-${lang}`);
      // The list's .xlsx names its columns as the screen does (the Uzbek category is "Modda") and
      // shows dates as the language writes them.
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("download-documents").click(),
      ]);
      const saved = path.join(SHOTS, `download-${lang}-${file.suggestedFilename()}`);
      await file.saveAs(saved);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const fileHeaders = (sheet?.getRow(1).values as unknown[]).slice(1);
      expect(fileHeaders).toEqual(
        expect.arrayContaining([
          app.documents.date,
          app.documents.account,
          app.documents.category,
          app.documents.comment,
        ]),
      );
      expect(sheet?.rowCount).toBe(1 + payments.salesCount);
      expect(sheet?.getRow(2).getCell(1).numFmt).toBe(lang === "en" ? "mmm d, yyyy" : "dd.mm.yyyy");
    });

    it(`the expenses list (${lang}): totals that fail to load say so, with a retry, not a blank`, async () => {
      const ui = UI[lang];
      // The totals' request fails (the server down for it); the list itself still loads.
      await page.route(/\/trpc\/expenses\.totals/, (route) =>
        route.fulfill({ status: 503, contentType: "application/json", body: "{}" }),
      );
      try {
        await open(lang, "/app/expenses");
        const totals = page.getByTestId("documents-totals");
        await totals.getByRole("alert").waitFor({ timeout: 15_000 });
        expect(plain(await totals.innerText())).toContain(APP[lang].documents.totalsFailed);
        await settled(page);
        await shot(`expenses-totals-failed-${lang}`);
      } finally {
        await page.unroute(/\/trpc\/expenses\.totals/);
      }
      await page.getByTestId("documents-totals").getByRole("button", { name: ui.retry }).click();
      await page.getByTestId("documents-count").waitFor();
      expect(await page.getByTestId("documents-totals").getByRole("alert").count()).toBe(0);
    });

    it(`dialogs fit 1280×720 (${lang}): buttons in view, the body scrolls; the picker's clear button is no Tab stop`, async () => {
      const ui = UI[lang];
      /** The open dialog lies inside the window, its buttons included, and its body scrolls. */
      const fits = async (name: string) => {
        const dialog = page.locator(".ant-modal:visible");
        await dialog.waitFor();
        await settled(page);
        const box = await dialog.boundingBox();
        expect(box, name).not.toBeNull();
        expect(box?.y ?? -1, name).toBeGreaterThanOrEqual(0);
        expect((box?.y ?? 0) + (box?.height ?? 0), name).toBeLessThanOrEqual(VIEWPORT.height);
        const footer = await dialog.locator(".ant-modal-footer button").last().boundingBox();
        expect((footer?.y ?? 0) + (footer?.height ?? 0), name).toBeLessThanOrEqual(VIEWPORT.height);
        expect(await dialog.locator(".ant-modal-body").evaluate((el) => getComputedStyle(el).overflowY)).toBe(
          "auto",
        );
        // The window as it is, not the whole page: what a 1280×720 screen shows.
        await page.screenshot({ path: path.join(SHOTS, `dialog-${name}-${lang}.png`) });
      };
      await open(lang, "/app/payments");
      await page.getByTestId("new-document").click();
      await fits("new-payment");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });

      // The long-comment payment has a category and a counterparty: Tab goes from one to the other.
      const row = page.getByRole("row").filter({ hasText: "Payment for the consulting" });
      await row.getByRole("button", { name: ui.edit, exact: true }).click();
      await fits("edit-payment");
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Client A", { exact: true }).waitFor();
      await page.locator("#document-category").focus();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("document-counterparty");
      await page.keyboard.press("Shift+Tab");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("document-category");
      // The clear buttons are still there for the mouse.
      expect(await dialog.locator(".ant-select-clear").count()).toBeGreaterThan(0);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });

      await open(lang, "/app/accounts");
      await page.getByTestId("new-account").click();
      await fits("new-account");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await open(lang, `/app/accounts/${books.ids.bank}`);
      await page
        .getByTestId("statement-scroller")
        .getByRole("button", { name: ui.edit, exact: true })
        .first()
        .click();
      await fits("movement-edit");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
    });

    it(`the dashboard's printout (${lang}) names the organization and the day it was printed`, async () => {
      await open(lang, "/app/");
      await page.getByTestId("twelve-months").waitFor();
      // On screen the frame's header names the organization; the print header is for paper only.
      expect(await page.getByTestId("print-header").isVisible()).toBe(false);
      await page.emulateMedia({ media: "print" });
      try {
        expect(await page.getByTestId("print-header").isVisible()).toBe(true);
        // The organization's name comes with the user's profile, which may arrive after the chart.
        await expect
          .poll(() => page.getByTestId("print-organization").innerText(), { timeout: 15_000 })
          .toBe(ORGANIZATION);
        expect(await page.getByTestId("print-date").innerText()).toContain(formatDate(today(), lang));
        expect(await page.getByRole("navigation").isVisible()).toBe(false);
        await settled(page);
        await shot(`dashboard-paper-${lang}`);
      } finally {
        await page.emulateMedia({ media: "screen" });
      }
    });
  }

  it("no script error on any screen", () => {
    expect(pageErrors).toEqual([]);
  });
});
