import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { REPORT_GROUPS, REPORT_KINDS } from "../apps/accountant/src/renderer/screens/reports/report-groups";
import type {
  TAccountStatement,
  TCashflowReport,
  TIncomeStatement,
} from "../packages/finance/src/reports/reports.schema";
import { formatDate } from "../packages/ui/src/dates";
import { formatMoney } from "../packages/ui/src/money";
import { booksPageSteps, LANGS, type Lang, plain, signedInPage } from "./books-page";
import { type Books, dayOf, ORGANIZATION, settled, startBooks } from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// The Reports section as an accountant reads it, in en, ru and uz: two months of books posted over the
// API (UZS and USD), every report's figures against the server's JSON, a drill-down from a figure to
// the payments behind it and back (period and scroll kept), a report printed to PDF (its first page
// rendered to PNG to look at), an .xlsx downloaded and one cancelled. Screenshots: .tmp/screenshots/reports/.

const SHOTS = path.join(ROOT, ".tmp/screenshots/reports");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const VIEWPORT = { width: 1280, height: 800 };

const money = (minor: bigint | string, currency: string, lang: Lang) =>
  plain(formatMoney(minor, currency, 2, lang));
const today = () => new Date().toISOString().slice(0, 10);

const skipReason = browserSkipReason();
if (skipReason) console.warn(`reports.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the Reports section, in a real browser", () => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let books: Books;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  // Last month and this month: the seed's payments, the rent, the reversed transfer.
  const start = dayOf(1, 1);
  const end = today();
  const range = `start=${start}&end=${end}`;

  beforeAll(async () => {
    session = await startBooks("hisob-e2e-reports-");
    ({ books, browser } = session);
    ({ page, pageErrors } = await signedInPage(browser, books.base, VIEWPORT));
  }, 420_000);

  afterAll(async () => {
    await session?.stop();
  });

  const { shot, open, json, text } = booksPageSteps(SHOTS, () => ({ page, books }));
  /** The heading every report and its printout carry. */
  const checkHeading = async (lang: Lang, title: string) => {
    const app = APP[lang];
    expect(await text("report-organization")).toBe(ORGANIZATION);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(title);
    expect(await text("report-period")).toBe(
      plain(
        app.reports.periodLine
          .replace("{{start}}", formatDate(start, lang))
          .replace("{{end}}", formatDate(end, lang)),
      ),
    );
    expect(await text("report-generated")).toContain(plain(formatDate(today(), lang)));
  };

  for (const lang of LANGS) {
    it(`the income statement (${lang}): per currency, as the server computes it`, async () => {
      const app = APP[lang];
      const report = await json<TIncomeStatement>(
        `/finance/reports/income-statement?startDate=${start}&endDate=${end}`,
      );
      await open(lang, `/app/reports/income?${range}`);
      await checkHeading(lang, app.reports.titles.income);
      expect(report.currencies.map((c) => c.currency).sort()).toEqual(["USD", "UZS"]);
      for (const section of report.currencies) {
        const { currency } = section;
        expect(await text(`revenue-${currency}`)).toBe(money(section.revenue, currency, lang));
        expect(await text(`expenses-${currency}`)).toBe(money(section.expenses, currency, lang));
        expect(await text(`net-${currency}`)).toBe(money(section.netIncome, currency, lang));
        // The table view of the monthly chart: the same figures, month by month.
        await page
          .getByTestId(`chart-months-${currency}`)
          .getByText(app.reports.table, { exact: true })
          .click();
        const table = page.getByTestId(`chart-months-${currency}-table`);
        await table.waitFor();
        const cells = await table.locator("tbody td").allInnerTexts();
        expect(cells.map(plain)).toEqual(
          section.byMonth.flatMap((row) => [
            expect.any(String),
            money(row.revenue, currency, lang),
            money(row.expenses, currency, lang),
          ]),
        );
        await page
          .getByTestId(`chart-months-${currency}`)
          .getByText(app.reports.chart, { exact: true })
          .click();
      }
      await page.locator(".recharts-bar-rectangle").first().waitFor();
      await settled(page);
      await shot(`income-${lang}`);
    });

    it(`the cash flow (${lang}): opening, in, out and closing per currency and per account`, async () => {
      const app = APP[lang];
      const report = await json<TCashflowReport>(
        `/finance/reports/cashflow?startDate=${start}&endDate=${end}&granularity=month`,
      );
      await open(lang, `/app/reports/cashflow?${range}`);
      await checkHeading(lang, app.reports.titles.cashflow);
      for (const total of report.totals) {
        expect(await text(`inflows-${total.currency}`)).toBe(money(total.inflows, total.currency, lang));
        expect(await text(`outflows-${total.currency}`)).toBe(money(total.outflows, total.currency, lang));
        expect(await text(`closing-${total.currency}`)).toBe(
          money(total.closingBalance, total.currency, lang),
        );
      }
      const kassa = report.accounts.find((a) => a.accountId === books.ids.kassa);
      if (!kassa) throw new Error("no Kassa in the cash flow");
      const rows = await page.getByTestId(`cashflow-account-${kassa.accountId}`).locator("tbody tr").all();
      expect(rows).toHaveLength(kassa.periods.length);
      for (const [index, period] of kassa.periods.entries()) {
        const cells = (await rows[index]?.locator("td").allInnerTexts())?.map(plain) ?? [];
        // Kassa exchanged nothing: no exchange columns.
        expect(cells.slice(1)).toEqual(
          [
            period.openingBalance,
            period.income,
            period.expense,
            period.transfersIn,
            period.transfersOut,
            period.closingBalance,
          ].map((amount) => money(amount, "UZS", lang)),
        );
      }
      // By week: the step is in the address too.
      await page.getByTestId("report-granularity").click();
      await page
        .locator(".ant-select-dropdown:visible .ant-select-item-option")
        .filter({ hasText: app.reports.by.week })
        .click();
      await expect.poll(() => new URL(page.url()).searchParams.get("by")).toBe("week");
      const weekly = await json<TCashflowReport>(
        `/finance/reports/cashflow?startDate=${start}&endDate=${end}&granularity=week`,
      );
      const weeks = weekly.accounts.find((a) => a.accountId === books.ids.kassa)?.periods.length;
      await expect
        .poll(() => page.getByTestId(`cashflow-account-${kassa.accountId}`).locator("tbody tr").count(), {
          timeout: 15_000,
        })
        .toBe(weeks);
      await page.locator(".recharts-bar-rectangle").first().waitFor();
      await settled(page);
      await shot(`cashflow-${lang}`);
    });

    it(`the account statement (${lang}): any account, opening and closing as the server says`, async () => {
      const app = APP[lang];
      const kassa = books.ids.kassa;
      const report = await json<TAccountStatement>(
        `/finance/reports/account-statement/${kassa}?startDate=${start}&endDate=${end}&limit=500`,
      );
      await open(lang, `/app/reports/statement?${range}&account=${kassa}`);
      await checkHeading(lang, app.reports.titles.statement);
      expect(await text("statement-opening")).toBe(money(report.openingBalance, "UZS", lang));
      expect(await text("statement-closing")).toBe(money(report.closingBalance, "UZS", lang));
      expect(await page.getByTestId("statement-table").locator("tbody tr").count()).toBe(
        report.entries.length + 2,
      );
      await settled(page);
      await shot(`statement-${lang}`);
      // Its print view is one of its outputs, for the same account and period.
      await page.getByTestId("statement-print-view").click();
      await page.waitForURL(new RegExp(`/accounts/${kassa}/print\\?start=${start}&end=${end}`));
      expect(plain(await page.getByTestId("print-closing").innerText())).toBe(
        money(report.closingBalance, "UZS", lang),
      );
    });
  }

  it("a chart's view switched back before its thumb moved still settles (a cancelled motion ends)", async () => {
    await open("en", `/app/reports/income?${range}`);
    await page.locator(".recharts-bar-rectangle").first().waitFor();
    await settled(page);
    // Table, and back to Chart the moment the thumb's transition starts: the browser cancels it
    // (transitioncancel, no transitionend), which used to leave the thumb in its motion for good.
    const thumbMoved = await page.getByTestId("chart-months-UZS").evaluate(
      (card) =>
        new Promise<"cancelled" | "ended">((resolve) => {
          const items = card.querySelectorAll<HTMLElement>(".ant-segmented-item");
          const onThumb = (event: Event) =>
            event.target instanceof Element && event.target.classList.contains("ant-segmented-thumb");
          card.addEventListener("transitioncancel", (event) => onThumb(event) && resolve("cancelled"));
          // The browser's own end (not one sent for a cancelled motion) means the race was not hit.
          card.addEventListener(
            "transitionend",
            (event) => onThumb(event) && event.isTrusted && resolve("ended"),
          );
          const observer = new MutationObserver(() => {
            if (!card.querySelector(".ant-segmented-thumb-motion-appear-active")) return;
            observer.disconnect();
            items[0]?.click();
          });
          observer.observe(card, { subtree: true, attributes: true, childList: true });
          items[1]?.click();
        }),
    );
    expect(thumbMoved).toBe("cancelled");
    await settled(page);
    const chart = page.getByTestId("chart-months-UZS");
    await chart.getByTestId("chart-months-UZS-chart").waitFor();
    expect(await chart.locator(".ant-segmented-item-selected").innerText()).toBe(appEn.reports.chart);
  });

  it("the reports' navigation: two labelled groups, every report one click away at 1280 and 1024 px", async () => {
    const groups = { cash: REPORT_GROUPS[0]?.kinds ?? [], books: REPORT_GROUPS[1]?.kinds ?? [] };
    for (const lang of LANGS) {
      const app = APP[lang];
      await open(lang, `/app/reports/income?${range}`);
      const nav = page.getByRole("navigation", { name: app.reports.nav });
      await nav.getByTestId("report-nav-profit-and-loss").waitFor();
      for (const [key, kinds] of Object.entries(groups) as [keyof typeof groups, typeof groups.cash][]) {
        // Each group's list is named by its label, and lists its reports' links.
        const list = nav.getByRole("list", { name: app.reports.groups[key] });
        await expect.poll(() => list.getByRole("link").count()).toBe(kinds.length);
      }
      expect(await nav.getByRole("link").count()).toBe(REPORT_KINDS.length);
      await expect
        .poll(() => page.getByTestId("report-nav-income").getAttribute("aria-current"))
        .toBe("page");
      for (const width of [1280, 1024]) {
        await page.setViewportSize({ width, height: 800 });
        await settled(page);
        // Every link inside the window (the rows wrap, nothing scrolls out of view), the page no wider.
        await expect
          .poll(() =>
            page.evaluate(
              (ids: string[]) =>
                ids.filter((id) => {
                  const box = document
                    .querySelector(`[data-testid="report-nav-${id}"]`)
                    ?.getBoundingClientRect();
                  return !box || box.width === 0 || box.left < 0 || box.right > window.innerWidth;
                }),
              REPORT_KINDS,
            ),
          )
          .toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await shot(`nav-${lang}-${width}`);
      }
      await page.setViewportSize(VIEWPORT);
    }
    // One click each, the period kept; the current report marked. Then by the keyboard alone.
    for (const kind of REPORT_KINDS) {
      await page.getByTestId(`report-nav-${kind}`).click();
      await page.getByTestId(`report-${kind}`).first().waitFor();
      expect(new URL(page.url()).pathname).toBe(`/app/reports/${kind}`);
      expect(new URL(page.url()).search).toBe(`?${range}`);
      expect(await page.getByTestId(`report-nav-${kind}`).getAttribute("aria-current")).toBe("page");
      expect(await page.locator('[data-testid^="report-nav-"][aria-current]').count()).toBe(1);
    }
    await page.getByTestId("report-nav-income").focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "report-nav-cashflow",
    );
    await page.keyboard.press("Enter");
    await page.getByTestId("report-cashflow").waitFor();
    expect(page.url()).toBe(`${books.base}/app/reports/cashflow?${range}`);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("report-nav-cashflow");
  });

  it("a figure opens the entries behind it; Back returns to the report, its period and its scroll", async () => {
    const report = await json<TIncomeStatement>(
      `/finance/reports/income-statement?startDate=${start}&endDate=${end}`,
    );
    const uzs = report.currencies.find((c) => c.currency === "UZS");
    const index = uzs?.revenueByCategory.findIndex((line) => line.categoryId === books.ids.sales) ?? -1;
    const sales = uzs?.revenueByCategory[index];
    if (!sales) throw new Error("no Sales line");
    await open("en", `/app/reports/income?${range}`);
    await page.locator(".recharts-bar-rectangle").first().waitFor();
    // Scrolled well down the report, then into the Sales figure.
    await page.evaluate(() => window.scrollTo(0, 700));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBe(700);
    const reportUrl = page.url();
    const link = page.getByTestId(`drill-payments-UZS-${index}`);
    expect(plain(await link.innerText())).toBe(money(sales.amount, "UZS", "en"));
    await link.evaluate((element: HTMLElement) => element.click());
    await page.waitForURL(/\/app\/payments\?/);
    const filters = new URL(page.url()).searchParams;
    expect(Object.fromEntries(filters)).toEqual({ from: start, to: end, categoryId: books.ids.sales });
    // The list, filtered as the figure counts: its UZS total is the figure.
    await expect
      .poll(async () => plain(await page.getByTestId("documents-total-UZS").innerText()), { timeout: 15_000 })
      .toContain(money(sales.amount, "UZS", "en"));
    expect(await page.getByTestId("documents-total-USD").count()).toBe(0);
    await settled(page);
    await shot("drill-payments-en");
    await page.goBack();
    await page.waitForURL(reportUrl);
    await page.getByTestId("revenue-USD").waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBe(scrolled);
    expect(page.url()).toBe(reportUrl);
  });

  it("prints a report as paper: heading, no navigation, page numbers, repeated headers", async () => {
    await open("ru", `/app/reports/cashflow?${range}&by=day`);
    await page.getByTestId("inflows-UZS").waitFor();
    await settled(page);
    await page.emulateMedia({ media: "print" });
    const pdf = path.join(SHOTS, "cashflow-by-day-ru.pdf");
    // As the desktop app prints (main/print-pdf.ts): the page's own @page size and margins.
    await page.pdf({ path: pdf, printBackground: true, preferCSSPageSize: true });
    await page.emulateMedia({ media: "screen" });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [pdf]).toString())?.[1]);
    expect(pages).toBeGreaterThan(1);
    const words = plain(execFileSync("pdftotext", ["-layout", pdf, "-"]).toString());
    const app = APP.ru;
    expect(words).toContain(ORGANIZATION);
    expect(words).toContain(app.reports.titles.cashflow);
    // The margin's "1 / 5" (pdftotext may drop the spaces of that small line).
    expect(words).toMatch(new RegExp(`\\b1 ?/ ?${pages}\\b`));
    expect(words).toMatch(new RegExp(`\\b${pages} ?/ ?${pages}\\b`));
    expect(words).not.toContain(app.nav.dashboard);
    expect(words).not.toContain(appRu.downloads.xlsx);
    // The accounts' table headers ("Доходы" is only there) on every page but the first (the totals):
    // three tables, repeated on each page they run over.
    const headerCount = words.split(app.reports.flows.income).length - 1;
    expect(headerCount).toBeGreaterThanOrEqual(pages - 1);
    expect(headerCount).toBeGreaterThan(3);
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "1",
      "-l",
      "1",
      pdf,
      path.join(SHOTS, "cashflow-print-ru"),
    ]);
    execFileSync("pdftoppm", [
      "-png",
      "-r",
      "60",
      "-f",
      "2",
      "-l",
      "2",
      pdf,
      path.join(SHOTS, "cashflow-print-ru"),
    ]);
  });

  it("downloads the report's .xlsx in the app's language, and cancels a slow one", async () => {
    await open("uz", `/app/reports/income?${range}`);
    await page.getByTestId("revenue-UZS").waitFor();
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("report-xlsx").click(),
    ]);
    const saved = path.join(SHOTS, `income-uz-${file.suggestedFilename()}`);
    await file.saveAs(saved);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
    const cells: string[] = [];
    for (const sheet of workbook.worksheets)
      sheet.eachRow((row) => {
        for (const value of (row.values as unknown[]).slice(1)) cells.push(String(value ?? ""));
      });
    expect(cells.some((cell) => cell.includes("Sales"))).toBe(true);

    // A slow file (the server's answer held back 4 s): progress in bytes, and Cancel aborts it.
    await page.route("**/finance/reports/income-statement/export**", async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 4000));
      await route.fulfill({ response }).catch(() => undefined);
    });
    let downloaded = false;
    page.on("download", () => {
      downloaded = true;
    });
    await page.getByTestId("report-xlsx").click();
    const progress = page.getByTestId("report-xlsx-progress");
    await progress.waitFor({ timeout: 5000 });
    expect(plain(await progress.innerText())).toMatch(/^Yuklanmoqda: \d+(,\d)? KB/);
    await settled(page);
    await shot("xlsx-progress-uz");
    await page.getByTestId("report-xlsx-cancel").click();
    await page.getByText(appUz.reports.exportCancelled).waitFor();
    await expect.poll(() => page.getByTestId("report-xlsx-progress").count()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(downloaded).toBe(false);
    await page.unroute("**/finance/reports/income-statement/export**");
    expect(pageErrors).toEqual([]);
  });
});
