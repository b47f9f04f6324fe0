import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import type {
  TAccountStatement,
  TAgingDebts,
  TAgingReport,
  TBalancesReport,
  TCounterpartyStatement,
} from "../packages/finance/src/reports/reports.schema";
import { formatDate } from "../packages/ui/src/dates";
import { formatMoney } from "../packages/ui/src/money";
import { booksPageSteps, LANGS, type Lang, plain, signedInPage } from "./books-page";
import { axeViolations, type Books, dayOf, ORGANIZATION, settled, startBooks } from "./books-session";
import { browserSkipReason } from "./browser";
import { ROOT } from "./server-process";

// The reports an accountant hands a client (decision 0087), in en, ru and uz, in a real browser against
// the real server: the books of books-session.ts plus debts both ways in UZS and USD, overdue by
// 10, 45 and 100 days, one partly settled and one written off. Each report's figures against the JSON
// of the same operation; an aging figure opens the debts behind it and Back returns (day and scroll
// kept); a balance opens the account's statement ending that day; the counterparty page opens its
// statement; the aging printed to PDF (first page rendered to PNG); the statement's .xlsx.
// Screenshots: .tmp/screenshots/party-reports/.

const SHOTS = path.join(ROOT, ".tmp/screenshots/party-reports");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const VIEWPORT = { width: 1280, height: 800 };
const BUCKETS = ["notDue", "days1To30", "days31To60", "days61To90", "over90", "total"] as const;

const money = (minor: bigint | string, currency: string, lang: Lang) =>
  plain(formatMoney(minor, currency, 2, lang));
const iso = (date: Date) => date.toISOString().slice(0, 10);
const today = () => iso(new Date());
const daysAgo = (days: number) => iso(new Date(Date.now() - days * 86_400_000));

const skipReason = browserSkipReason();
if (skipReason) console.warn(`party-reports.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)(
  "aging, balances and counterparty statement, in a real browser",
  () => {
    let session: Awaited<ReturnType<typeof startBooks>> | undefined;
    let books: Books;
    let browser: Browser;
    let page: Page;
    let supplier = "";
    let pageErrors: string[] = [];
    const start = dayOf(1, 1);
    const end = today();
    // Balances in the middle of last month: after the opening balance and some payments, before the rest.
    const balancesDay = dayOf(1, 15);

    beforeAll(async () => {
      session = await startBooks("hisob-e2e-party-reports-");
      ({ books, browser } = session);
      const post = async (route: string, body: unknown, status = 201) => {
        const response = await books.call("POST", route, body);
        expect(response.status, `${route}: ${await response.clone().text()}`).toBe(status);
        return (await response.json()) as { id: string };
      };
      supplier = (await post("/finance/counterparties", { name: "Supplier B", tin: "300000002" })).id;
      const { client } = books.ids;
      // Owed to us: UZS 10 days overdue (the seed's UZS one is not yet due), USD 100 days overdue.
      await post("/finance/debts", {
        kind: "receivable",
        counterpartyId: client,
        amount: "20000000",
        currency: "UZS",
        dueDate: daysAgo(10),
        description: "Invoice 31",
      });
      // A large one 20 days overdue: figures of eight digits are what make the aging's columns wide.
      await post("/finance/debts", {
        kind: "receivable",
        counterpartyId: client,
        amount: "1234567890",
        currency: "UZS",
        dueDate: daysAgo(20),
        description: "Invoice 32",
      });
      await post("/finance/debts", {
        kind: "receivable",
        counterpartyId: client,
        amount: "50000",
        currency: "USD",
        dueDate: daysAgo(100),
        description: "Consulting, USD",
      });
      // We owe: UZS 45 days overdue, partly paid; USD without a due date; UZS 70 days overdue, written off.
      const payable = await post("/finance/debts", {
        kind: "payable",
        counterpartyId: supplier,
        amount: "40000000",
        currency: "UZS",
        dueDate: daysAgo(45),
        description: "Goods, delivery 7",
      });
      await post(`/finance/debts/${payable.id}/settle`, {
        amount: "15000000",
        accountId: books.ids.kassa,
        date: today(),
        comment: "Part of delivery 7",
      });
      await post("/finance/debts", {
        kind: "payable",
        counterpartyId: supplier,
        amount: "12000",
        currency: "USD",
        description: "Spare parts",
      });
      const lost = await post("/finance/debts", {
        kind: "payable",
        counterpartyId: supplier,
        amount: "3000000",
        currency: "UZS",
        dueDate: daysAgo(70),
        description: "Disputed delivery",
      });
      await post(`/finance/debts/${lost.id}/write-off`, { reason: "Goods never arrived" }, 200);
      await post("/finance/expenses", {
        accountId: books.ids.kassa,
        amount: "2500000",
        date: today(),
        counterpartyId: supplier,
        comment: "Delivery fee",
      });
      ({ page, pageErrors } = await signedInPage(browser, books.base, VIEWPORT));
    }, 420_000);

    afterAll(async () => {
      await session?.stop();
    });

    const { shot, open, json, text } = booksPageSteps(SHOTS, () => ({ page, books }));
    const checkHeading = async (title: string, when: string) => {
      expect(await text("report-organization")).toBe(ORGANIZATION);
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(title);
      expect(await text("report-period")).toBe(plain(when));
    };

    for (const lang of LANGS) {
      it(`the aging (${lang}): every bucket of every counterparty and total, per currency, as the server ages them`, async () => {
        const app = APP[lang];
        const report = await json<TAgingReport>(`/finance/reports/aging?asOf=${today()}`);
        await open(lang, `/app/reports/aging?date=${today()}`);
        await checkHeading(
          app.partyReports.titles.aging,
          app.partyReports.asOfLine.replace("{{date}}", formatDate(today(), lang)),
        );
        // Both ways in both currencies; the written-off debt counts nowhere.
        expect(report.totals.map((line) => `${line.kind} ${line.currency}`).sort()).toEqual([
          "payable USD",
          "payable UZS",
          "receivable USD",
          "receivable UZS",
        ]);
        expect(report.totals.find((l) => l.kind === "payable" && l.currency === "UZS")?.days31To60).toBe(
          "25000000",
        );
        for (const line of report.totals)
          for (const bucket of BUCKETS)
            expect(await text(`aging-total-${line.kind}-${line.currency}-${bucket}`)).toBe(
              money(line[bucket], line.currency, lang),
            );
        for (const row of report.rows)
          for (const bucket of BUCKETS)
            expect(await text(`aging-${row.kind}-${row.currency}-${row.counterpartyId}-${bucket}`)).toBe(
              money(row[bucket], row.currency, lang),
            );
        // The chart's table view: the same totals, bucket by bucket, both ways.
        const chart = page.getByTestId("chart-aging-UZS");
        await chart.getByText(app.reports.table, { exact: true }).click();
        const agingTable = page.getByTestId("chart-aging-UZS-table");
        await agingTable.waitFor();
        const cells = (await agingTable.locator("tbody td").allInnerTexts()).map(plain);
        const uzs = (kind: string) => report.totals.find((l) => l.kind === kind && l.currency === "UZS");
        expect(cells).toEqual(
          BUCKETS.filter((b) => b !== "total").flatMap((bucket) => [
            plain(app.partyReports.bucketsShort[bucket]),
            money(uzs("receivable")?.[bucket] ?? "0", "UZS", lang),
            money(uzs("payable")?.[bucket] ?? "0", "UZS", lang),
          ]),
        );
        await chart.getByText(app.reports.chart, { exact: true }).click();
        await page.locator(".recharts-bar-rectangle").first().waitFor();
        await settled(page);
        await shot(`aging-${lang}`);
        // 1280×720, figures of eight digits: every aging table fits its card, nothing scrolls sideways.
        await page.setViewportSize({ width: 1280, height: 720 });
        await settled(page);
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 })
          .toBeLessThanOrEqual(1280);
        const overflowing = await page.evaluate(() =>
          [...document.querySelectorAll(".report-table-scroll")]
            .filter((box) => box.scrollWidth > box.clientWidth)
            .map(
              (box) =>
                `${box.querySelector("table")?.getAttribute("data-testid")}: ${box.scrollWidth} > ${box.clientWidth}`,
            ),
        );
        expect(overflowing).toEqual([]);
        await shot(`aging-${lang}-1280x720`);
        // A narrower window: the wide table scrolls in its box, the page does not (the reports' navigation wraps).
        await page.setViewportSize({ width: 1024, height: 768 });
        await settled(page);
        // The charts follow the window through a ResizeObserver: wait until the layout has caught up.
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 })
          .toBeLessThanOrEqual(1024);
        // A table wider than its card says it scrolls: a shadow on the side with more to show (print.css).
        const box = page.getByTestId("aging-receivable-UZS").locator("xpath=..");
        const { overflows, hint } = await box.evaluate((element) => ({
          overflows: element.scrollWidth > element.clientWidth,
          hint: getComputedStyle(element).backgroundImage,
        }));
        if (overflows) expect(hint).toContain("radial-gradient");
        await shot(`aging-${lang}-1024`);
        await page.setViewportSize(VIEWPORT);
      });

      it(`the balances on a date (${lang}): every account at the end of the day, per currency`, async () => {
        const app = APP[lang];
        const report = await json<TBalancesReport>(`/finance/reports/balances?date=${balancesDay}`);
        await open(lang, `/app/reports/balances?date=${balancesDay}`);
        await checkHeading(
          app.partyReports.titles.balances,
          app.partyReports.asOfLine.replace("{{date}}", formatDate(balancesDay, lang)),
        );
        expect(report.accounts.length).toBeGreaterThan(0);
        for (const account of report.accounts)
          expect(await text(`balance-${account.accountId}`)).toBe(
            money(account.balance, account.currency, lang),
          );
        for (const total of report.totals)
          expect(await text(`balances-total-${total.currency}`)).toBe(
            money(total.balance, total.currency, lang),
          );
        // Today: every account, its balance the stored one.
        await page.getByTestId("report-day-preset").click();
        await page
          .locator(".ant-select-dropdown:visible .ant-select-item-option")
          .filter({ hasText: app.partyReports.dayPresets.today })
          .click();
        await expect.poll(() => new URL(page.url()).searchParams.get("date")).toBe(today());
        const now = await json<TBalancesReport>(`/finance/reports/balances?date=${today()}`);
        const kassa = now.accounts.find((a) => a.accountId === books.ids.kassa);
        await expect
          .poll(() => text(`balance-${books.ids.kassa}`), { timeout: 15_000 })
          .toBe(money(kassa?.balance ?? "", "UZS", lang));
        await settled(page);
        await shot(`balances-${lang}`);
      });

      it(`the counterparty statement (${lang}): opening, every entry, closing, both ways, per currency`, async () => {
        const app = APP[lang];
        const report = await json<TCounterpartyStatement>(
          `/finance/reports/counterparty-statement/${supplier}?startDate=${start}&endDate=${end}`,
        );
        await open(lang, `/app/reports/counterparty?start=${start}&end=${end}&counterparty=${supplier}`);
        await checkHeading(
          app.partyReports.titles.counterparty,
          app.reports.periodLine
            .replace("{{start}}", formatDate(start, lang))
            .replace("{{end}}", formatDate(end, lang)),
        );
        // The filters line names the counterparty once its statement is in.
        await expect.poll(() => text("report-filters"), { timeout: 15_000 }).toContain("Supplier B");
        expect(report.currencies.map((c) => c.currency).sort()).toEqual(["USD", "UZS"]);
        for (const section of report.currencies) {
          const { currency } = section;
          expect(await text(`opening-receivable-${currency}`)).toBe(
            money(section.openingReceivable, currency, lang),
          );
          expect(await text(`opening-payable-${currency}`)).toBe(
            money(section.openingPayable, currency, lang),
          );
          expect(await text(`closing-receivable-${currency}`)).toBe(
            money(section.closingReceivable, currency, lang),
          );
          expect(await text(`closing-payable-${currency}`)).toBe(
            money(section.closingPayable, currency, lang),
          );
          expect(await text(`received-${currency}`)).toBe(money(section.received, currency, lang));
          expect(await text(`paid-${currency}`)).toBe(money(section.paid, currency, lang));
          const entries = report.entries.filter((entry) => entry.currency === currency);
          expect(await page.getByTestId(`counterparty-table-${currency}`).locator("tbody tr").count()).toBe(
            entries.length + 2,
          );
        }
        // UZS: the payable recorded, partly settled, another recorded and written off, a delivery fee.
        const uzs = report.currencies.find((c) => c.currency === "UZS");
        expect(uzs?.closingPayable).toBe("25000000");
        const types = report.entries.filter((e) => e.currency === "UZS").map((e) => e.type);
        expect(types.sort()).toEqual(["debt", "debt", "expense", "settlement", "writeOff"]);
        const row = page.getByTestId("counterparty-table-UZS").locator("tbody tr");
        expect(plain(await row.nth(1).innerText())).toContain(app.partyReports.entryTypes.debt);
        await settled(page);
        await shot(`counterparty-${lang}`);
      });
    }

    it("an aging figure opens the debts behind it; Back returns to the report, its day and its scroll", async () => {
      const report = await json<TAgingReport>(`/finance/reports/aging?asOf=${today()}`);
      const line = report.rows.find((r) => r.kind === "payable" && r.currency === "UZS");
      if (!line) throw new Error("no UZS payable row");
      await open("en", `/app/reports/aging?date=${today()}`);
      await page.locator(".recharts-bar-rectangle").first().waitFor();
      await page.evaluate(() => window.scrollTo(0, 400));
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBe(400);
      const reportUrl = page.url();
      const link = page.getByTestId(`aging-payable-UZS-${supplier}-days31To60`);
      expect(plain(await link.innerText())).toBe(money(line.days31To60, "UZS", "en"));
      await link.evaluate((element: HTMLElement) => element.click());
      await page.waitForURL(/\/app\/debts\?/);
      const filters = Object.fromEntries(new URL(page.url()).searchParams);
      expect(filters).toEqual({
        kind: "payable",
        currency: "UZS",
        counterpartyId: supplier,
        dueAfter: daysAgo(61),
        dueBefore: daysAgo(30),
        open: "true",
      });
      // The list, filtered as the figure counts: the one partly paid debt, what is left of it the figure.
      const rows = page.getByTestId("debts-table").locator("tbody tr.ant-table-row");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      // The counterparty's name comes with its own request.
      await expect.poll(() => rows.first().innerText(), { timeout: 15_000 }).toContain("Supplier B");
      expect(plain(await rows.first().innerText())).toContain("Goods, delivery 7");
      expect(plain(await rows.first().innerText())).toContain(money(line.days31To60, "UZS", "en"));
      expect(await page.getByRole("checkbox", { name: appEn.debts.openOnly }).isChecked()).toBe(true);
      await settled(page);
      await shot("drill-aging-debts-en");
      await page.goBack();
      await page.waitForURL(reportUrl);
      await page.getByTestId(`aging-total-payable-UZS-total`).waitFor();
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBe(scrolled);
      expect(page.url()).toBe(reportUrl);
      // "Not yet due" counts the debts without a due date too: the list's own filter says so.
      const usd = report.rows.find((r) => r.kind === "payable" && r.currency === "USD");
      const notDue = page.getByTestId(`aging-payable-USD-${supplier}-notDue`);
      expect(plain(await notDue.innerText())).toBe(money(usd?.notDue ?? "", "USD", "en"));
      await notDue.evaluate((element: HTMLElement) => element.click());
      await page.waitForURL(/\/app\/debts\?/);
      expect(new URL(page.url()).searchParams.get("notDueOn")).toBe(today());
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
      expect(plain(await rows.first().innerText())).toContain("Spare parts");
      expect(plain(await page.getByTestId("filter-not-due").innerText())).toBe(
        appEn.debts.notDueOn.replace("{{date}}", formatDate(today(), "en")),
      );
      await page.goBack();
      await page.waitForURL(reportUrl);
    });

    it("an aging figure's own debts, with what was left of each at the end of the day (decision 0106)", async () => {
      // A figure read at a past day opens this list (its address: party-report-query.test.ts); the
      // debts here are recorded today, so the list is opened at today through the same address.
      const asOf = today();
      const report = await json<TAgingReport>(`/finance/reports/aging?asOf=${asOf}`);
      const cases = [
        { kind: "payable", bucket: "days31To60", counterpartyId: supplier },
        { kind: "payable", bucket: "total", counterpartyId: null },
        { kind: "receivable", bucket: "total", counterpartyId: books.ids.client },
      ] as const;
      for (const lang of LANGS) {
        const app = APP[lang];
        await open(lang, `/app/reports/aging?date=${asOf}`);
        const reportUrl = page.url();
        await page.getByTestId("aging-total-payable-UZS-total").waitFor({ timeout: 20_000 });
        for (const figure of cases) {
          const line = figure.counterpartyId
            ? report.rows.find(
                (r) =>
                  r.kind === figure.kind &&
                  r.currency === "UZS" &&
                  r.counterpartyId === figure.counterpartyId,
              )
            : report.totals.find((r) => r.kind === figure.kind && r.currency === "UZS");
          if (!line) throw new Error(`no ${figure.kind} UZS line`);
          const query = new URLSearchParams({
            asOf,
            kind: figure.kind,
            currency: "UZS",
            bucket: figure.bucket,
          });
          if (figure.counterpartyId) query.set("counterpartyId", figure.counterpartyId);
          const debts = await json<TAgingDebts>(`/finance/reports/aging/debts?${query.toString()}`);
          // What the figure says is what its debts add up to.
          expect(debts.left).toBe(line[figure.bucket]);
          expect(debts.items.reduce((sum, item) => sum + BigInt(item.left), 0n).toString()).toBe(
            line[figure.bucket],
          );
          const testId = figure.counterpartyId
            ? `aging-${figure.kind}-UZS-${figure.counterpartyId}-${figure.bucket}`
            : `aging-total-${figure.kind}-UZS-${figure.bucket}`;
          expect(plain(await page.getByTestId(testId).innerText())).toBe(
            money(line[figure.bucket], "UZS", lang),
          );
          const value = [
            figure.kind,
            "UZS",
            figure.bucket,
            ...(figure.counterpartyId ? [figure.counterpartyId] : []),
          ];
          await page.goto(`${reportUrl}&debts=${value.join(".")}`);
          const drawer = page.getByTestId("aging-debts");
          await drawer.getByTestId("aging-debts-summary").waitFor({ timeout: 20_000 });
          expect(plain(await drawer.getByTestId("aging-debts-summary").innerText())).toBe(
            plain(
              app.partyReports.agingDebts.summary
                .replace("{{n}}", String(debts.total))
                .replace("{{amount}}", money(debts.left, "UZS", lang)),
            ),
          );
          const rows = drawer.getByTestId("aging-debts-table").locator("tbody tr");
          expect(await rows.count()).toBe(debts.items.length);
          for (const item of debts.items) {
            expect(plain(await drawer.getByTestId(`aging-debt-left-${item.id}`).innerText())).toBe(
              money(item.left, "UZS", lang),
            );
            expect(plain(await drawer.getByTestId(`aging-debt-${item.id}`).innerText())).toContain(
              item.description,
            );
          }
          await settled(page);
          await page.screenshot({
            path: path.join(SHOTS, `aging-debts-${figure.kind}-${figure.bucket}-${lang}.png`),
          });
          // Closing the list leaves the report at its day.
          await page.locator(".ant-drawer-close").click();
          await expect.poll(() => drawer.count(), { timeout: 10_000 }).toBe(0);
          expect(page.url()).toBe(reportUrl);
        }
      }
      // The partly paid debt: 40 000 000, 15 000 000 paid today, so 25 000 000 left at the end of today.
      const partly = await json<TAgingDebts>(
        `/finance/reports/aging/debts?asOf=${asOf}&kind=payable&currency=UZS&bucket=days31To60&counterpartyId=${supplier}`,
      );
      expect(partly.items.map((item) => [item.description, item.amount, item.left])).toEqual([
        ["Goods, delivery 7", "40000000", "25000000"],
      ]);
    });

    it("a balance opens the account's statement ending that day, which closes on it", async () => {
      const report = await json<TBalancesReport>(`/finance/reports/balances?date=${balancesDay}`);
      const kassa = report.accounts.find((a) => a.accountId === books.ids.kassa);
      if (!kassa) throw new Error("no Kassa on the day");
      await open("ru", `/app/reports/balances?date=${balancesDay}`);
      const reportUrl = page.url();
      await page.getByTestId(`balance-${kassa.accountId}`).click();
      await page.waitForURL(/\/app\/reports\/statement\?/);
      const params = Object.fromEntries(new URL(page.url()).searchParams);
      expect(params).toEqual({
        start: `${balancesDay.slice(0, 8)}01`,
        end: balancesDay,
        account: kassa.accountId,
      });
      const statement = await json<TAccountStatement>(
        `/finance/reports/account-statement/${kassa.accountId}?startDate=${params.start}&endDate=${balancesDay}`,
      );
      expect(statement.closingBalance).toBe(kassa.balance);
      expect(await text("statement-closing")).toBe(money(kassa.balance, "UZS", "ru"));
      await page.goBack();
      await page.waitForURL(reportUrl);
      await page.getByTestId(`balance-${kassa.accountId}`).waitFor();
    });

    it("the counterparty's page opens its statement; a statement's payment opens that day's payments", async () => {
      await open("uz", `/app/counterparties/${books.ids.client}`);
      await page.getByTestId("counterparty-statement").click();
      await page.waitForURL(new RegExp(`/app/reports/counterparty\\?counterparty=${books.ids.client}`));
      const month = Object.fromEntries(new URL(page.url()).searchParams);
      expect(month).toEqual({ counterparty: books.ids.client });
      // This month, the preset the report starts on.
      const first = `${today().slice(0, 8)}01`;
      const report = await json<TCounterpartyStatement>(
        `/finance/reports/counterparty-statement/${books.ids.client}?startDate=${first}&endDate=${today()}`,
      );
      const uzs = report.currencies.find((c) => c.currency === "UZS");
      if (!uzs) throw new Error("no UZS with Client A this month");
      expect(await text("closing-receivable-UZS")).toBe(money(uzs.closingReceivable, "UZS", "uz"));
      const index = report.entries.filter((e) => e.currency === "UZS").findIndex((e) => e.type === "payment");
      const payment = report.entries.filter((e) => e.currency === "UZS")[index];
      if (!payment) throw new Error("no payment from Client A this month");
      await page.getByTestId(`counterparty-drill-UZS-${index}`).click();
      await page.waitForURL(/\/app\/payments\?/);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
        from: payment.date,
        to: payment.date,
        counterpartyId: books.ids.client,
      });
      await page.goBack();
      await page.getByTestId("closing-receivable-UZS").waitFor();
    });

    it("the three reports have no accessibility violations (axe, WCAG 2.1 AA)", async () => {
      const violations: string[] = [];
      for (const [name, url, ready] of [
        ["aging", `/app/reports/aging?date=${today()}`, "aging-total-payable-UZS-total"],
        ["balances", `/app/reports/balances?date=${balancesDay}`, "balances-total-UZS"],
        [
          "counterparty",
          `/app/reports/counterparty?start=${start}&end=${end}&counterparty=${supplier}`,
          "closing-payable-UZS",
        ],
      ] as const) {
        await open("en", url);
        await page.getByTestId(ready).waitFor();
        await settled(page);
        violations.push(...(await axeViolations(page, name)));
      }
      expect(violations).toEqual([]);
    });

    it("prints the aging as paper: heading, both ways per currency, no navigation, page numbers", async () => {
      await open("ru", `/app/reports/aging?date=${today()}`);
      await page.getByTestId("aging-total-payable-UZS-total").waitFor();
      await settled(page);
      await page.emulateMedia({ media: "print" });
      const pdf = path.join(SHOTS, "aging-ru.pdf");
      await page.pdf({ path: pdf, printBackground: true, preferCSSPageSize: true });
      await page.emulateMedia({ media: "screen" });
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [pdf]).toString())?.[1]);
      expect(pages).toBeGreaterThanOrEqual(1);
      const words = plain(execFileSync("pdftotext", ["-layout", pdf, "-"]).toString());
      const app = APP.ru;
      expect(words).toContain(ORGANIZATION);
      expect(words).toContain(app.partyReports.titles.aging);
      expect(words).toContain(app.partyReports.kinds.payable);
      expect(words).toContain("Supplier B");
      expect(words).toMatch(new RegExp(`\\b1 ?/ ?${pages}\\b`));
      expect(words).not.toContain(app.nav.dashboard);
      expect(words).not.toContain(appRu.downloads.xlsx);
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "60",
        "-f",
        "1",
        "-l",
        "1",
        pdf,
        path.join(SHOTS, "aging-print-ru"),
      ]);
    });

    it("downloads the counterparty statement's .xlsx in the app's language", async () => {
      await open("uz", `/app/reports/counterparty?start=${start}&end=${end}&counterparty=${supplier}`);
      await page.getByTestId("closing-payable-UZS").waitFor();
      const [file] = await Promise.all([
        page.waitForEvent("download"),
        page.getByTestId("report-xlsx").click(),
      ]);
      const saved = path.join(SHOTS, `counterparty-uz-${file.suggestedFilename()}`);
      await file.saveAs(saved);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(readFileSync(saved) as unknown as ArrayBuffer);
      const cells: string[] = [];
      for (const sheet of workbook.worksheets)
        sheet.eachRow((row) => {
          for (const value of (row.values as unknown[]).slice(1)) cells.push(String(value ?? ""));
        });
      expect(cells).toContain("Supplier B");
      expect(cells).toContain("Disputed delivery");
      expect(cells).toContain(appUz.partyReports.entryTypes.writeOff);
      expect(pageErrors).toEqual([]);
    });
  },
);
