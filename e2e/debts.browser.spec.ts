import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en as serverEn } from "../packages/i18n/src/locales/en";
import { ru as serverRu } from "../packages/i18n/src/locales/ru";
import { uz as serverUz } from "../packages/i18n/src/locales/uz";
import { dateText, formatDate } from "../packages/ui/src/dates";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { ru as uiRu } from "../packages/ui/src/locales/ru";
import { uz as uiUz } from "../packages/ui/src/locales/uz";
import { formatMoney } from "../packages/ui/src/money";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";
import { formShot } from "./shots";

// Debts and counterparties in the accountant app at /app, in a real browser against the real server,
// in en, ru and uz (one organization per language): a debt created with its amount typed as the
// language writes it, settled in part, the settlement reversed, the rest written off, its history
// read, and the dashboard's "next debts due" following along; a counterparty's page with its debts
// and documents; a refused settlement keeps the form. Screenshots go to .tmp/shots/debts/.

const SHOTS = path.join(ROOT, ".tmp/shots/debts");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const UI = { en: uiEn, ru: uiRu, uz: uiUz } as const;
const SERVER = { en: serverEn, ru: serverRu, uz: serverUz } as const;
type Lang = keyof typeof APP;
const LANGS: Lang[] = ["en", "ru", "uz"];
const PASSWORD = "Accountant-Passw0rd-2026";
/** 1 234 567,89 as each language writes it (ru and uz alike). */
const TYPED = { en: "1,234,567.89", ru: "1 234 567,89", uz: "1 234 567,89" } as const;
const PART = { en: "234,567.89", ru: "234 567,89", uz: "234 567,89" } as const;
const OVER = { en: "2,000,000", ru: "2 000 000", uz: "2 000 000" } as const;
/** Spaces of any kind (Intl's no-break ones) as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
const money = (minor: string, lang: Lang) => plain(formatMoney(minor, "UZS", 2, lang));
const iso = (date: Date) => date.toISOString().slice(0, 10);
const YESTERDAY = iso(new Date(Date.now() - 86_400_000));
const TODAY = iso(new Date());

const skipReason = browserSkipReason();
if (skipReason) console.warn(`debts.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("debts and counterparties in the accountant app", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  const platformEmail = "owner@hisob.uz";
  const firms = {} as Record<Lang, { cookie: string; page: Page; errors: string[]; supplier: string }>;

  const rest = async (lang: Lang, method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server?.base}${route}`, {
      method,
      headers: { "content-type": "application/json", cookie: firms[lang].cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = response.status === 204 ? null : await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login = async (email: string) => {
    const response = await fetch(`${server?.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  };

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-debts-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = platformEmail;
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    const platform = await login(platformEmail);
    for (const lang of LANGS) {
      const email = `debts-${lang}@firm.uz`;
      const created = await fetch(`${server.base}/tenants`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: platform },
        body: JSON.stringify({
          name: `Firm ${lang}`,
          currencies: ["UZS", "USD"],
          admin: { email, firstName: "Dilnoza", lastName: "Karimova", password: PASSWORD, uiLanguage: lang },
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      firms[lang] = { cookie: await login(email) } as (typeof firms)[Lang];
      const kassa = (await rest(lang, "POST", "/finance/accounts", { name: "Kassa", currency: "UZS" })) as {
        id: string;
      };
      await rest(lang, "POST", "/finance/payments", {
        accountId: kassa.id,
        amount: "500000000",
        date: TODAY,
      });
      await rest(lang, "POST", "/finance/counterparties", { name: "Artel Savdo", tin: "301234567" });
      // A supplier with a debt we owe and a payment and an expense naming it: its page shows them.
      const supplier = (await rest(lang, "POST", "/finance/counterparties", {
        name: "Bunyod Qurilish",
        type: "supplier",
        tin: "207654321",
      })) as { id: string };
      await rest(lang, "POST", "/finance/debts", {
        kind: "payable",
        counterpartyId: supplier.id,
        amount: "75000000",
        currency: "UZS",
        description: "Cement, invoice 9",
      });
      await rest(lang, "POST", "/finance/payments", {
        accountId: kassa.id,
        amount: "12000000",
        date: TODAY,
        counterpartyId: supplier.id,
        comment: "Refund for bricks",
      });
      await rest(lang, "POST", "/finance/expenses", {
        accountId: kassa.id,
        amount: "30000000",
        date: TODAY,
        counterpartyId: supplier.id,
        comment: "Sand delivery",
      });
      firms[lang].supplier = supplier.id;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`${server.base}/`);
      await page.waitForURL(/\/login\?/);
      await page.getByLabel(serverEn.login.email, { exact: true }).fill(email);
      await page.getByLabel(serverEn.login.password, { exact: true }).fill(PASSWORD);
      await page.getByLabel(serverEn.login.password, { exact: true }).press("Enter");
      await page.getByRole("heading", { name: APP[lang].dashboard.title }).waitFor();
      Object.assign(firms[lang], { page, errors });
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    const result = await server?.stop();
    if (result && result.code !== 0) console.error(result.stderr);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const lang of LANGS) {
    describe(`in ${lang}`, () => {
      const app = APP[lang];
      const ui = UI[lang];
      let page: Page;
      beforeAll(() => {
        page = firms[lang].page;
      });
      beforeEach(async () => {
        await page.goto(`${server?.base}/app/`);
        await page.getByRole("heading", { name: app.dashboard.title }).waitFor();
      });
      const shot = (name: string) => formShot(page, path.join(SHOTS, `${name}-${lang}.png`));
      const nav = (label: string) =>
        page.getByRole("navigation").getByRole("link", { name: label, exact: true }).click();
      const choose = async (label: string, text: string, scope: Pick<Page, "getByLabel"> = page) => {
        const input = scope.getByLabel(label, { exact: true });
        await input.click();
        await input.fill(text);
        await page
          .locator(".ant-select-item-option-active:visible")
          .filter({ hasText: text })
          .first()
          .waitFor();
        await input.press("Enter");
        await page
          .locator(".ant-select-dropdown:visible")
          .waitFor({ state: "hidden", timeout: 3000 })
          .catch(() => undefined);
      };
      const text = async (locator: Locator) => plain((await locator.innerText()).trim());
      /** The dashboard's "next debts due", polled: a cached card is shown first, then refetched. */
      const nextDebtsShow = async (check: (card: string) => boolean) => {
        await nav(app.nav.dashboard);
        const card = page.getByTestId("next-debts");
        await card.getByText("Bunyod Qurilish").first().waitFor();
        await expect.poll(async () => check(plain(await card.innerText()))).toBe(true);
      };

      it("creates a debt, settles part of it, reverses that, writes it off, and reads its history", async () => {
        await nav(app.nav.debts);
        await page.getByRole("heading", { name: app.debts.title }).waitFor();
        await page.getByTestId("new-debt").click();
        const dialog = page.getByRole("dialog");
        await choose(app.debts.counterparty, "Artel", dialog);
        await choose(app.debts.currency, "UZS", dialog);
        await dialog.getByLabel(app.debts.amount, { exact: true }).fill(TYPED[lang]);
        // The form says how it read the amount before anything is posted.
        await expect
          .poll(async () => plain(await dialog.getByTestId("debt-amount-preview").innerText()))
          .toBe(ui.number.postsAs.replace("{{value}}", money("123456789", lang)));
        const due = dialog.getByLabel(app.debts.dueDate, { exact: true });
        await due.fill(dateText(YESTERDAY, lang));
        // Leaves the field by the keyboard: its calendar closes without a click landing on a day.
        await due.press("Tab");
        await dialog.getByLabel(app.debts.description, { exact: true }).fill("Invoice 17");
        await shot("debt-new");
        await dialog.getByRole("button", { name: ui.save }).click();
        await page.waitForURL(/\/app\/debts\/[0-9a-f-]{36}$/);
        await expect.poll(() => text(page.getByTestId("debt-outstanding"))).toBe(money("123456789", lang));
        await expect.poll(() => page.getByTestId("debt-status").innerText()).toContain(app.debts.overdue);
        expect(await page.getByTestId("debt-facts").innerText()).toContain(formatDate(YESTERDAY, lang));
        const debtUrl = page.url();

        // The dashboard's next debts: ours first (overdue), with all of it outstanding.
        await nextDebtsShow(
          (card) => card.includes("Artel Savdo") && card.includes(money("123456789", lang)),
        );

        await page.goto(debtUrl);
        await page.getByTestId("settle-debt").click();
        const settle = page.getByRole("dialog");
        const amount = settle.getByLabel(app.debts.amount, { exact: true });
        // It starts as everything outstanding, written as the language writes it.
        expect(plain(await amount.inputValue())).toBe(TYPED[lang]);
        await amount.fill(PART[lang]);
        await choose(app.debts.account, "Kassa", settle);
        await shot("debt-settle");
        await settle.getByRole("button", { name: app.debts.settle }).click();
        await settle.waitFor({ state: "detached" });
        await expect.poll(() => text(page.getByTestId("debt-outstanding"))).toBe(money("100000000", lang));
        await expect
          .poll(() => page.getByTestId("debt-status").innerText())
          .toContain(app.debts.statuses.partial);
        const settlements = page.getByTestId("settlements");
        expect(plain(await settlements.innerText())).toContain(money("23456789", lang));
        await nextDebtsShow((card) => card.includes(money("100000000", lang)));

        await page.goto(debtUrl);
        await page.getByTestId("settlements").getByRole("button", { name: app.debts.reverse }).click();
        await page.locator(".ant-popconfirm").getByRole("button", { name: app.debts.reverse }).click();
        await expect.poll(() => text(page.getByTestId("debt-outstanding"))).toBe(money("123456789", lang));
        await expect
          .poll(() => page.getByTestId("settlements").innerText())
          .toContain(app.debts.noSettlements);

        await page.getByTestId("write-off-debt").click();
        const writeOff = page.getByRole("dialog");
        await writeOff.getByLabel(app.debts.reason, { exact: true }).fill("The company was liquidated");
        await shot("debt-write-off");
        await writeOff.getByRole("button", { name: app.debts.writeOff }).click();
        await writeOff.waitFor({ state: "detached" });
        await expect
          .poll(() => page.getByTestId("debt-status").innerText())
          .toContain(app.debts.statuses.written_off);
        await page
          .getByTestId("write-off-note")
          .getByText("The company was liquidated", { exact: false })
          .waitFor();

        // The history: each step, in order, with who did it.
        const history = page.getByTestId("debt-history");
        await history.getByTestId("history-written_off").waitFor();
        const steps = await history
          .locator("[data-testid^=history-]")
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-testid")));
        expect(steps).toEqual([
          "history-created",
          "history-settled",
          "history-settlement_reversed",
          "history-written_off",
        ]);
        const historyText = plain(await history.innerText());
        expect(historyText).toContain("Dilnoza Karimova");
        expect(historyText).toContain(money("23456789", lang));
        expect(historyText).toContain(app.debts.actions.settlement_reversed);
        await shot("debt-detail");

        // Written off: no longer among the next debts due.
        await nextDebtsShow((card) => !card.includes("Artel Savdo"));

        // The list: filtered to what is overdue, then to written-off ones.
        await nav(app.nav.debts);
        await page.getByTestId("debts-table").waitFor();
        await page.getByTestId("filter-overdue").click();
        await expect.poll(() => page.getByTestId("debts-table").innerText()).toContain(app.debts.empty);
        await page.getByTestId("filter-overdue").click();
        await page.getByTestId("debts-table").getByText("Invoice 17").waitFor();
        await shot("debts-list");
        expect(firms[lang].errors).toEqual([]);
      }, 180_000);

      it("a counterparty's page shows its debts, payments and expenses; searching finds it", async () => {
        await nav(app.nav.counterparties);
        await page.getByRole("heading", { name: app.counterparties.title }).waitFor();
        await page.getByTestId("counterparties-table").getByText("Artel Savdo").waitFor();
        await page.getByLabel(app.counterparties.search, { exact: true }).fill("2076543");
        await expect.poll(() => page.getByTestId("counterparties-table").locator("tbody tr").count()).toBe(1);
        await page.getByTestId("counterparties-table").getByText("Bunyod Qurilish").waitFor();
        await shot("counterparties");
        await page.getByTestId("counterparties-table").getByRole("link", { name: "Bunyod Qurilish" }).click();
        await page.getByTestId("counterparty-title").getByText("Bunyod Qurilish").waitFor();
        const debts = page.getByTestId("counterparty-debts");
        await debts.getByText("Cement, invoice 9").waitFor();
        expect(plain(await debts.innerText())).toContain(money("75000000", lang));
        await page.getByTestId("counterparty-payments").getByText("Refund for bricks").waitFor();
        await page.getByTestId("counterparty-expenses").getByText("Sand delivery").waitFor();
        expect(plain(await page.getByTestId("counterparty-expenses").innerText())).toContain(
          money("30000000", lang),
        );
        await shot("counterparty-detail");

        // Edit: the server's TIN rule speaks next to the field, in the user's language; the form keeps it.
        await page.getByTestId("edit-counterparty").click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel(app.counterparties.tin, { exact: true }).fill("20765 4321");
        await dialog.getByRole("button", { name: ui.save }).click();
        await dialog.getByTestId("counterparty-tin-error").waitFor();
        expect(await dialog.getByLabel(app.counterparties.tin, { exact: true }).inputValue()).toBe(
          "20765 4321",
        );
        await shot("counterparty-form");
        await dialog.getByLabel(app.counterparties.tin, { exact: true }).fill("207654322");
        await dialog.getByRole("button", { name: ui.save }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByTestId("counterparty-title").waitFor();
        await expect.poll(() => page.getByText("207654322").count()).toBeGreaterThan(0);
        expect(firms[lang].errors).toEqual([]);
      }, 120_000);

      it("a settlement the server refuses keeps the form, with the server's message by the amount", async () => {
        const debt = (await rest(lang, "POST", "/finance/debts", {
          kind: "receivable",
          counterpartyId: firms[lang].supplier,
          amount: "100000000",
          currency: "UZS",
          description: "Over-settled",
        })) as { id: string };
        await page.goto(`${server?.base}/app/debts/${debt.id}`);
        await page.getByTestId("settle-debt").click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel(app.debts.amount, { exact: true }).fill(OVER[lang]);
        await choose(app.debts.account, "Kassa", dialog);
        await dialog.getByLabel(app.debts.comment, { exact: true }).fill("Too much");
        let posts = 0;
        page.on("request", (request) => {
          if (request.method() === "POST" && request.url().includes("debts.settle")) posts++;
        });
        // Twice at once: one submission.
        await dialog.getByRole("button", { name: app.debts.settle }).dblclick();
        const error = dialog.getByTestId("settle-amount-error");
        await error.waitFor();
        const template = SERVER[lang].errors.finance.debt_over_settlement;
        expect(plain(await error.innerText())).toContain(template.split("{{")[0]?.trim());
        expect(plain(await error.innerText())).toContain(money("100000000", lang));
        // Everything typed is still there.
        expect(plain(await dialog.getByLabel(app.debts.amount, { exact: true }).inputValue())).toBe(
          OVER[lang],
        );
        expect(await dialog.getByLabel(app.debts.comment, { exact: true }).inputValue()).toBe("Too much");
        expect(posts).toBe(1);
        await shot("debt-settle-refused");
        expect(firms[lang].errors).toEqual([]);
      }, 120_000);
    });
  }
});
