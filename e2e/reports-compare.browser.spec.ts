import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import type { TCashflowReport, TIncomeStatement } from "../packages/finance/src/reports/reports.schema";
import { formatDate } from "../packages/ui/src/dates";
import { formatMoney, formatPercent } from "../packages/ui/src/money";
import { booksPageSteps, LANGS, type Lang, plain, signedInPage } from "./books-page";
import { type Books, dayOf, settled, startBooks } from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// Comparison, filters and the balance chart of the Reports section, in en, ru and uz
// (docs/decisions/0088-report-filters-and-comparison.md): every compared figure on screen equals the
// server's JSON, the choice lives in the address, the filters reach the server (JSON and .xlsx), and
// the comparison is on paper too. Screenshots: .tmp/screenshots/reports-compare/.

const SHOTS = path.join(ROOT, ".tmp/screenshots/reports-compare");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;

const money = (minor: string, currency: string, lang: Lang) => plain(formatMoney(minor, currency, 2, lang));
const percent = (value: string | null, lang: Lang) =>
  value === null ? "—" : plain(formatPercent(value, lang));

const skipReason = browserSkipReason();
if (skipReason) console.warn(`reports-compare.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("report comparison, filters and charts, in a real browser", () => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let books: Books;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  // This whole month, compared with last month (the seed posts in both).
  const start = dayOf(0, 1);
  const end = dayOf(0, 31);
  const range = `start=${start}&end=${end}`;

  beforeAll(async () => {
    session = await startBooks("hisob-e2e-reports-compare-");
    ({ books, browser } = session);
    ({ page, pageErrors } = await signedInPage(browser, books.base, { width: 1280, height: 800 }));
  }, 180_000);

  afterAll(async () => {
    await session?.stop();
  });

  const { shot, open, json, text } = booksPageSteps(SHOTS, () => ({ page, books }));
  /** The comparison table `testId`: each figure's four rows against the server's. */
  const checkComparison = async (
    testId: string,
    lang: Lang,
    currency: string,
    figures: Record<string, string>,
    // The compared entry of the JSON: `compare` and a figure per key.
    compared: object,
  ) => {
    const byKey = compared as Record<string, { value: string; change: string; changePercent: string | null }>;
    for (const [key, value] of Object.entries(figures)) {
      const figure = byKey[key];
      if (!figure) throw new Error(`no compared ${key}`);
      expect(await text(`${testId}-current-${key}`)).toBe(money(value, currency, lang));
      expect(await text(`${testId}-compared-${key}`)).toBe(money(figure.value, currency, lang));
      expect(await text(`${testId}-change-${key}`)).toBe(money(figure.change, currency, lang));
      expect(await text(`${testId}-changePercent-${key}`)).toBe(percent(figure.changePercent, lang));
    }
  };
  const pick = async (testId: string, option: string) => {
    await page.getByTestId(testId).click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option")
      .filter({ hasText: option })
      .first()
      .click();
  };

  for (const lang of LANGS) {
    it(`the income statement beside the previous period (${lang}): the server's figures, change and %`, async () => {
      const app = APP[lang];
      const report = await json<TIncomeStatement>(
        `/finance/reports/income-statement?startDate=${start}&endDate=${end}&compare=previousPeriod`,
      );
      const [period] = report.comparedPeriods;
      if (!period) throw new Error("no compared period");
      await open(lang, `/app/reports/income?${range}&compare=previousPeriod`);
      for (const section of report.currencies) {
        const compared = section.compared[0];
        if (!compared) throw new Error("no comparison");
        await checkComparison(
          `income-compare-${section.currency}`,
          lang,
          section.currency,
          { revenue: section.revenue, expenses: section.expenses, netIncome: section.netIncome },
          compared,
        );
      }
      // The compared period, as the server dated it, in the heading (on paper too).
      expect(await text("report-filters")).toContain(
        plain(
          app.reports.compare.line
            .replace("{{what}}", app.reports.compare.previousPeriod)
            .replace("{{start}}", formatDate(period.startDate, lang))
            .replace("{{end}}", formatDate(period.endDate, lang)),
        ),
      );
      await settled(page);
      await shot(`income-compare-${lang}`);

      // Another comparison is chosen on screen: the address and the figures follow.
      await pick("report-compare", app.reports.compare.previousYear);
      await expect.poll(() => new URL(page.url()).searchParams.get("compare")).toBe("previousYear");
      const lastYear = await json<TIncomeStatement>(
        `/finance/reports/income-statement?startDate=${start}&endDate=${end}&compare=previousYear`,
      );
      const uzs = lastYear.currencies.find((c) => c.currency === "UZS");
      const figure = uzs?.compared[0]?.revenue;
      if (!uzs || !figure) throw new Error("no UZS comparison");
      await expect
        .poll(() => text("income-compare-UZS-compared-revenue"), { timeout: 15_000 })
        .toBe(money(figure.value, "UZS", lang));
      expect(await text("income-compare-UZS-changePercent-revenue")).toBe(
        percent(figure.changePercent, lang),
      );
      // And none: no comparison table.
      await pick("report-compare", app.reports.compare.none);
      await expect.poll(() => new URL(page.url()).searchParams.get("compare")).toBe(null);
      await expect.poll(() => page.getByTestId("income-compare-UZS").count()).toBe(0);
    });

    it(`the income statement limited to a category and a counterparty (${lang})`, async () => {
      const app = APP[lang];
      const { sales, client, kassa } = books.ids;
      const report = await json<TIncomeStatement>(
        `/finance/reports/income-statement?startDate=${dayOf(1, 1)}&endDate=${end}&categoryId=${sales}&counterpartyId=${client}&accountId=${kassa}`,
      );
      expect(report.currencies.map((c) => c.currency)).toEqual(["UZS"]);
      const [uzs] = report.currencies;
      if (!uzs) throw new Error("no UZS");
      await open(
        lang,
        `/app/reports/income?start=${dayOf(1, 1)}&end=${end}&account=${kassa}&category=${sales}&counterparty=${client}`,
      );
      expect(await text("revenue-UZS")).toBe(money(uzs.revenue, "UZS", lang));
      expect(await text("expenses-UZS")).toBe(money(uzs.expenses, "UZS", lang));
      expect(await page.getByTestId("income-USD").count()).toBe(0);
      // Names in the filter line arrive with their lists ("…" until then): read them once they have.
      await expect
        .poll(() => text("report-filters"), { timeout: 15_000 })
        .toContain(`${app.reports.counterparties}: Client A`);
      const filters = await text("report-filters");
      expect(filters).toContain(`${app.reports.categories}: Sales`);
      expect(filters).toContain("Kassa (UZS)");
      await settled(page);
      await shot(`income-filters-${lang}`);
      // A second account chosen in the picker: both in the address, the report widens.
      await page.getByTestId("report-accounts").click();
      await page
        .locator(".ant-select-dropdown:visible .ant-select-item-option")
        .filter({ hasText: "Dollars" })
        .click();
      await page.keyboard.press("Escape");
      await expect
        .poll(() => new URL(page.url()).searchParams.getAll("account").sort())
        .toEqual([books.ids.dollars, kassa].sort());
    });

    it(`the cash flow beside the previous period (${lang}): per currency and per account`, async () => {
      const report = await json<TCashflowReport>(
        `/finance/reports/cashflow?startDate=${start}&endDate=${end}&compare=previousPeriod`,
      );
      await open(lang, `/app/reports/cashflow?${range}&compare=previousPeriod`);
      const keys = ["openingBalance", "inflows", "outflows", "closingBalance"] as const;
      const figures = (row: Record<(typeof keys)[number], string>) =>
        Object.fromEntries(keys.map((key) => [key, row[key]]));
      for (const total of report.totals) {
        const compared = total.compared[0];
        if (!compared) throw new Error("no comparison");
        await checkComparison(
          `cashflow-compare-${total.currency}`,
          lang,
          total.currency,
          figures(total),
          compared,
        );
      }
      const kassa = report.accounts.find((a) => a.accountId === books.ids.kassa);
      if (!kassa?.compared[0]) throw new Error("no Kassa");
      await checkComparison(
        `cashflow-compare-${kassa.accountId}`,
        lang,
        "UZS",
        figures(kassa),
        kassa.compared[0],
      );
      await settled(page);
      await shot(`cashflow-compare-${lang}`);
    });

    it(`the account statement's balance chart (${lang}): the server's closing balances, as a table too`, async () => {
      const app = APP[lang];
      const kassa = books.ids.kassa;
      // A month: by day (docs/decisions/0088).
      const report = await json<TCashflowReport>(
        `/finance/reports/cashflow?startDate=${start}&endDate=${end}&granularity=day&accountId=${kassa}`,
      );
      const periods = report.accounts[0]?.periods ?? [];
      await open(lang, `/app/reports/statement?${range}&account=${kassa}`);
      const card = page.getByTestId("chart-balance");
      await card.locator(".recharts-line").first().waitFor({ timeout: 20_000 });
      expect(plain(await card.locator(".ant-card-head-title").innerText())).toBe(
        plain(app.reports.charts.balance.replace("{{account}}", "Kassa (UZS)")),
      );
      // Axis labels in the user's language.
      const labels = (await card.locator(".recharts-label").allTextContents()).map(plain);
      expect(labels).toEqual(
        expect.arrayContaining([
          app.reports.periodColumn,
          app.reports.amountIn.replace("{{currency}}", "UZS"),
        ]),
      );
      await settled(page);
      await shot(`statement-balance-${lang}`);
      await card.getByText(app.reports.table, { exact: true }).click();
      const balanceTable = page.getByTestId("chart-balance-table");
      await balanceTable.waitFor();
      const cells = await balanceTable.locator("tbody td").allInnerTexts();
      expect(cells.map(plain)).toEqual(
        periods.flatMap((period) => [
          plain(formatDate(period.startDate, lang)),
          money(period.closingBalance, "UZS", lang),
        ]),
      );
    });
  }

  it("the comparison is on paper: the printed income statement carries it", async () => {
    const app = APP.ru;
    await open("ru", `/app/reports/income?${range}&compare=previousYear`);
    await page.getByTestId("income-compare-UZS").waitFor();
    await settled(page);
    await page.emulateMedia({ media: "print" });
    const pdf = path.join(SHOTS, "income-compare-ru.pdf");
    await page.pdf({ path: pdf, printBackground: true, preferCSSPageSize: true });
    await page.emulateMedia({ media: "screen" });
    const words = plain(execFileSync("pdftotext", ["-layout", pdf, "-"]).toString());
    expect(words).toContain(app.reports.compare.previousYear);
    expect(words).toContain(app.reports.compare.changePercent);
    expect(words).not.toContain(app.reports.compare.label);
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "1",
      "-l",
      "1",
      pdf,
      path.join(SHOTS, "income-print-ru"),
    ]);
  });

  it("the .xlsx takes the screen's comparison and filters", async () => {
    const { sales } = books.ids;
    const report = await json<TIncomeStatement>(
      `/finance/reports/income-statement?startDate=${start}&endDate=${end}&categoryId=${sales}&compare=previousPeriod`,
    );
    await open("uz", `/app/reports/income?${range}&category=${sales}&compare=previousPeriod`);
    await page.getByTestId("income-compare-UZS").waitFor();
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("report-xlsx").click(),
    ]);
    const saved = path.join(SHOTS, `income-uz-${file.suggestedFilename()}`);
    await file.saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[workbook.worksheets.length - 1];
    if (!sheet) throw new Error("no sheets");
    const rows: unknown[][] = [];
    sheet.eachRow((row, number) => {
      if (number > 1) rows.push((row.values as unknown[]).slice(1));
    });
    const uzs = report.currencies.find((c) => c.currency === "UZS");
    const revenue = uzs?.compared[0]?.revenue;
    if (!uzs || !revenue) throw new Error("no UZS comparison");
    // Only Sales (the filter): revenue beside last month's Sales, in major units.
    const line = rows.find((row) => row[1] === "UZS");
    expect(line?.slice(4)).toEqual([
      Number(uzs.revenue) / 100,
      Number(revenue.value) / 100,
      Number(revenue.change) / 100,
      revenue.changePercent,
    ]);
    expect(pageErrors).toEqual([]);
  });
});
