import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import type {
  TGlAccountDto,
  TTrialBalance,
} from "../packages/finance/src/general-ledger/general-ledger.schema";
import type {
  TBalanceSheet,
  TGeneralLedger,
  TProfitAndLoss,
} from "../packages/finance/src/general-ledger/ledger-reports.schema";
import { formatMoney } from "../packages/ui/src/money";
import { booksPageSteps, LANGS, type Lang, plain, signedInPage } from "./books-page";
import { type Books, dayOf, ORGANIZATION, settled, startBooks } from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// The books' reports (docs/decisions/0101-books-reports.md) as an accountant reads them, in en, ru
// and uz: two months of books posted over the API, each report's figures on screen against the
// server's JSON, account names in the user's language, a drill-down from a trial-balance figure to its
// account's general ledger, from a ledger line to its document, and back. One server for the file.
// Screenshots: .tmp/screenshots/books-reports/.

const SHOTS = path.join(ROOT, ".tmp/screenshots/books-reports");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;

const money = (minor: string, lang: Lang) => plain(formatMoney(minor, "UZS", 2, lang));
const today = () => new Date().toISOString().slice(0, 10);

const skipReason = browserSkipReason();
if (skipReason) console.warn(`books-reports.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the books' reports, in a real browser", () => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let books: Books;
  let browser: Browser;
  let page: Page;
  let chart: Record<string, TGlAccountDto>;
  let pageErrors: string[] = [];
  const start = dayOf(1, 1);
  const end = today();
  const range = `start=${start}&end=${end}`;

  beforeAll(async () => {
    session = await startBooks("hisob-e2e-books-reports-");
    ({ books, browser } = session);
    ({ page, pageErrors } = await signedInPage(browser, books.base, { width: 1280, height: 800 }));
    const accounts = await json<TGlAccountDto[]>("/finance/ledger/accounts");
    chart = Object.fromEntries(accounts.map((account) => [account.code, account]));
  }, 420_000);

  afterAll(async () => {
    await session?.stop();
  });

  const { shot, open, json, text } = booksPageSteps(SHOTS, () => ({ page, books }));
  const heading = async (title: string) => {
    expect(await text("report-organization")).toBe(ORGANIZATION);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(title);
  };
  const nameIn = (lang: Lang, code: string) => {
    const account = chart[code];
    if (!account) throw new Error(`no account ${code}`);
    return lang === "ru" ? account.nameRu : lang === "uz" ? account.nameUz : account.nameEn;
  };

  for (const lang of LANGS) {
    it(`trial balance (${lang}): totals and a leaf as the server computes them`, async () => {
      const app = APP[lang].booksReports;
      const report = await json<TTrialBalance>(
        `/finance/ledger/trial-balance?startDate=${start}&endDate=${end}`,
      );
      expect(report.balanced).toBe(true);
      await open(lang, `/app/reports/trial-balance?${range}`);
      await heading(app.titles["trial-balance"]);
      for (const key of ["opening", "debit", "credit", "closing"] as const) {
        expect(await text(`tb-total-${key}`)).toBe(money(report.totals[key], lang));
      }
      const bank = report.tree.find((row) => row.code === "5110");
      if (!bank) throw new Error("no 5110 in the trial balance");
      expect(await text("tb-5110-closing")).toBe(money(bank.closing, lang));
      expect(await text("trial-balance-table")).toContain(nameIn(lang, "5110"));
      await settled(page);
      await shot(`trial-balance-${lang}`);
    });

    it(`general ledger (${lang}): opening, lines and closing of the settlement account`, async () => {
      const id = chart["5110"]?.id ?? "";
      const report = await json<TGeneralLedger>(
        `/finance/ledger/general-ledger/${id}?startDate=${start}&endDate=${end}`,
      );
      await open(lang, `/app/reports/general-ledger?${range}&gl=${id}`);
      await heading(APP[lang].booksReports.titles["general-ledger"]);
      expect(await text("gl-opening")).toBe(money(report.opening, lang));
      expect(await text("gl-closing")).toBe(money(report.closing, lang));
      await expect.poll(() => page.getByTestId("gl-line").count()).toBe(report.lines.length);
      expect(await text("report-filters")).toContain(nameIn(lang, "5110"));
      await settled(page);
      await shot(`general-ledger-${lang}`);
    });

    it(`balance sheet (${lang}): it balances, beside the end of last month`, async () => {
      const compareDate = dayOf(1, 31);
      const report = await json<TBalanceSheet>(
        `/finance/ledger/balance-sheet?date=${end}&compareDate=${compareDate}`,
      );
      expect(report.balanced).toBe(true);
      await open(lang, `/app/reports/balance-sheet?date=${end}&compareDate=${compareDate}`);
      await heading(APP[lang].booksReports.titles["balance-sheet"]);
      expect(await text("bs-assets")).toBe(money(report.assets.total, lang));
      expect(await text("bs-liabilities")).toBe(money(report.liabilities.total, lang));
      expect(await text("bs-equity")).toBe(money(report.equity.total, lang));
      expect(await text("bs-retained")).toBe(money(report.retainedEarnings.amount, lang));
      expect(await text("bs-liabilities-and-equity")).toBe(money(report.assets.total, lang));
      expect(await page.getByTestId("bs-unbalanced").count()).toBe(0);
      await settled(page);
      await shot(`balance-sheet-${lang}`);
    });

    it(`profit and loss (${lang}): income, expenses and net result against the previous period`, async () => {
      const report = await json<TProfitAndLoss>(
        `/finance/ledger/profit-and-loss?startDate=${start}&endDate=${end}&compare=previousPeriod`,
      );
      await open(lang, `/app/reports/profit-and-loss?${range}&compare=previousPeriod`);
      await heading(APP[lang].booksReports.titles["profit-and-loss"]);
      expect(await text("pl-income")).toBe(money(report.income, lang));
      expect(await text("pl-expenses")).toBe(money(report.expenses, lang));
      expect(await text("pl-net")).toBe(money(report.netResult, lang));
      const change = report.compared[0]?.netResult.change ?? "";
      expect(await text("pl-comparison-change-netResult")).toBe(money(change, lang));
      await settled(page);
      await shot(`profit-and-loss-${lang}`);
    });
  }

  it("drills from a trial-balance figure to the account's general ledger, to a document, and back", async () => {
    const id = chart["5110"]?.id ?? "";
    const ledger = await json<TGeneralLedger>(
      `/finance/ledger/general-ledger/${id}?startDate=${start}&endDate=${end}`,
    );
    await open("en", `/app/reports/trial-balance?${range}`);
    const reportUrl = page.url();
    await page.getByTestId("tb-5110-closing").getByRole("link").click();
    await page.waitForURL(/\/app\/reports\/general-ledger\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ start, end, gl: id });
    expect(await text("gl-closing")).toBe(money(ledger.closing, "en"));
    // A payment's line opens the payments of that day into that account.
    const payment = ledger.lines.find((line) => line.document.kind === "payment");
    if (!payment) throw new Error("no payment line");
    const ledgerUrl = page.url();
    await page.getByTestId(`gl-document-${payment.lineId}`).click();
    await page.waitForURL(/\/app\/payments\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({
      from: payment.date,
      to: payment.date,
      accountId: payment.moneyAccountId,
    });
    await settled(page);
    await shot("drill-document-en");
    await page.goBack();
    await page.waitForURL(ledgerUrl);
    expect(await text("gl-closing")).toBe(money(ledger.closing, "en"));
    await page.goBack();
    await page.waitForURL(reportUrl);
    await page.getByTestId("tb-total-closing").waitFor();
    expect(pageErrors).toEqual([]);
  });
});
