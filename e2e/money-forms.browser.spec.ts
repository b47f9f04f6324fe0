import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en as serverEn } from "../packages/i18n/src/locales/en";
import { dateMessage, readDate } from "../packages/ui/src/dates";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { ru as uiRu } from "../packages/ui/src/locales/ru";
import { uz as uiUz } from "../packages/ui/src/locales/uz";
import { amountRules, numberMessage, RATE_RULES, readNumber } from "../packages/ui/src/numbers";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";
import { formShot } from "./shots";

// Money typed as people type it, in the accountant app at /app in a real browser against the real
// server: every form reads amounts and rates as the user's language writes them and shows what it
// will post; a rate the books would not expect is questioned on every exchange, and the question is
// about exactly what would be posted; a date that is not one is refused next to the field; a form
// posts once; a picker picks what it shows. In en, ru and uz — one organization per language (each
// language's first exchange of a pair is its own). Screenshots go to .tmp/shots/money-forms/.

const SHOTS = path.join(ROOT, ".tmp/shots/money-forms");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const UI = { en: uiEn, ru: uiRu, uz: uiUz } as const;
type Lang = keyof typeof APP;
const LANGS: Lang[] = ["en", "ru", "uz"];
const PASSWORD = "Accountant-Passw0rd-2026";

/** The "ui" namespace's translation, as the app's i18next does it: `ui:number.x` with {{values}}. */
const uiT =
  (lang: Lang) =>
  (key: string, params: Record<string, string | number> = {}): string => {
    const template = key
      .replace(/^ui:/, "")
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], UI[lang]);
    return String(template).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));
  };
/** What the app says about `typed` in `lang` (the unit-tested reader and its words). */
const refusal = (lang: Lang, typed: string, kind: "amount" | "rate") => {
  const rules = kind === "amount" ? amountRules("UZS", 2) : RATE_RULES;
  const reading = readNumber(typed, lang, rules);
  if (reading.ok) throw new Error(`${typed} is a number in ${lang}`);
  const subject =
    kind === "amount" ? { kind: "amount" as const, currency: "UZS" } : { kind: "rate" as const };
  return numberMessage(reading.problem, typed, lang, uiT(lang), subject);
};
/** Spaces of any kind (Intl's no-break ones) as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const skipReason = browserSkipReason();
if (skipReason) console.warn(`money-forms.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("money typed as people type it, in the accountant app", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  const platformEmail = "owner@hisob.uz";
  /** Each language's organization: its REST cookie, accounts and signed-in page. */
  const firms = {} as Record<
    Lang,
    { cookie: string; kassa: string; bank: string; context: BrowserContext; page: Page; errors: string[] }
  >;

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
  /** Documents of `kind` whose comment is `comment`, read back through the API. */
  const documentsWith = async (lang: Lang, kind: "payments" | "expenses", comment: string) =>
    (
      (await rest(lang, "GET", `/finance/${kind}?limit=100`)) as {
        items: { comment: string; date: string }[];
      }
    ).items.filter((item) => item.comment === comment);
  const balanceOf = async (lang: Lang, id: string) =>
    ((await rest(lang, "GET", `/finance/accounts/${id}`)) as { balance: string }).balance;

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-money-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = platformEmail;
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    const platform = await login(platformEmail);
    for (const lang of LANGS) {
      const email = `accountant-${lang}@firm.uz`;
      const created = await fetch(`${server.base}/tenants`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: platform },
        body: JSON.stringify({
          name: `Firm ${lang}`,
          currencies: ["UZS", "USD", "EUR"],
          admin: { email, firstName: "Dilnoza", lastName: "Karimova", password: PASSWORD, uiLanguage: lang },
        }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      firms[lang] = { cookie: await login(email) } as (typeof firms)[Lang];
      const kassa = (await rest(lang, "POST", "/finance/accounts", { name: "Kassa", currency: "UZS" })) as {
        id: string;
      };
      const bank = (await rest(lang, "POST", "/finance/accounts", { name: "Bank USD", currency: "USD" })) as {
        id: string;
      };
      // No money and no exchanges: it shows only which way a quote starts.
      await rest(lang, "POST", "/finance/accounts", { name: "Bank EUR", currency: "EUR" });
      Object.assign(firms[lang], { kassa: kassa.id, bank: bank.id });
      const today = new Date().toISOString().slice(0, 10);
      await rest(lang, "POST", "/finance/payments", {
        accountId: kassa.id,
        amount: "2000000000",
        date: today,
      });
      await rest(lang, "POST", "/finance/payments", {
        accountId: kassa.id,
        amount: "975000050",
        date: today,
        comment: "Prefill me",
      });
      // "Bookkeeping services" comes first in the picker's unfiltered list.
      for (const name of ["Bookkeeping services", "Office supplies", "Other", "Rent"]) {
        await rest(lang, "POST", "/finance/expense-categories", { name });
      }
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
      Object.assign(firms[lang], { context, page, errors });
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
      // Each test from a freshly loaded app: one that fails leaves no dialog open for the next.
      beforeEach(async () => {
        await page.goto(`${server?.base}/app/`);
        await page.getByRole("heading", { name: app.dashboard.title }).waitFor();
      });
      const shot = (name: string) => formShot(page, path.join(SHOTS, `${name}-${lang}.png`));
      const nav = (label: string) =>
        page.getByRole("navigation").getByRole("link", { name: label, exact: true }).click();
      /** Picks an option of a select by typing into it, waiting for the list to show it. */
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
      const openNew = async (kind: "payments" | "expenses") => {
        await nav(kind === "payments" ? app.nav.payments : app.nav.expenses);
        await page.getByTestId("new-document").click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel(app.documents.amount, { exact: true }).waitFor();
        return dialog;
      };
      const closeDialog = async () => {
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
      };
      /** Quotes "1 <base> =", types the rate and posts; the question the server asks, once shown. */
      const postQuoteExpectingQuestion = async (base: string, typed: string) => {
        await page.getByTestId("quote-base").click();
        await page.locator(".ant-select-dropdown:visible").getByText(`1 ${base} =`, { exact: true }).click();
        const rate = page.getByLabel(app.transfers.marketRate, { exact: true });
        await rate.fill(typed);
        await rate.press("Enter");
        const guard = page.getByTestId("rate-guard");
        await guard.waitFor();
        return { rate, guard };
      };
      /** What the line under a number field says. */
      const preview = (id: string) => page.getByTestId(`${id}-preview`).innerText().then(plain);
      const fieldError = (id: string) => page.getByTestId(`${id}-error`).innerText().then(plain);
      const destination = () =>
        page.getByTestId("exchange-destination").locator(".ant-statistic-content").innerText().then(plain);

      it("an amount is read as the language writes it, shown as it will post, and refused with the reason when ambiguous", async () => {
        const dialog = await openNew("payments");
        await choose(app.documents.account, "Kassa", dialog);
        const amount = dialog.getByLabel(app.documents.amount, { exact: true });
        const accepted: Record<Lang, Array<[string, string]>> = {
          en: [
            ["1,234,567.89", "UZS 1,234,567.89"],
            ["1234567.89", "UZS 1,234,567.89"],
            ["12,650", "UZS 12,650.00"],
            ["UZS 1,234.56", "UZS 1,234.56"],
          ],
          ru: [
            ["1 234 567,89", "1 234 567,89 UZS"],
            ["1234567,89", "1 234 567,89 UZS"],
            ["1,50", "1,50 UZS"],
            ["1 234,56 UZS", "1 234,56 UZS"],
          ],
          uz: [
            ["1 234 567,89", "1 234 567,89 UZS"],
            ["1234567,89", "1 234 567,89 UZS"],
            ["１２ ６５０", "12 650,00 UZS"],
            ["1.234,56", "1 234,56 UZS"],
          ],
        };
        for (const [typed, shown] of accepted[lang]) {
          await amount.fill(typed);
          await expect
            .poll(() => preview("document-amount"))
            .toBe(uiT(lang)("ui:number.postsAs", { value: shown }));
        }
        const refused: Record<Lang, string[]> = {
          en: ["1,50", "1.234,56", "0,000079", "12.650"],
          ru: ["1,234.56", "12.650", "12,650", "1e3"],
          uz: ["0,001", "1,234.56", "12.650", "−5"],
        };
        for (const typed of refused[lang]) {
          await amount.fill(typed);
          await expect.poll(() => preview("document-amount")).toBe(plain(refusal(lang, typed, "amount")));
        }
        if (lang === "uz") {
          // The hint's words match its example: "after the comma" beside "1 234,56".
          expect(await preview("document-amount")).not.toContain("verguldan keyin");
          await amount.fill("0,001");
          expect(await preview("document-amount")).toContain("verguldan keyin");
          expect(await preview("document-amount")).not.toContain("nuqta");
        }
        await amount.fill(lang === "en" ? "1,50" : "12.650");
        await shot("amount-refused");
        // Enter posts nothing: the reason stands next to the field.
        await amount.press("Enter");
        await expect
          .poll(() => fieldError("document-amount"))
          .toBe(plain(refusal(lang, lang === "en" ? "1,50" : "12.650", "amount")));
        expect(await page.getByRole("dialog").count()).toBe(1);
        await amount.fill("99999999999999999999");
        await amount.press("Enter");
        const tooLarge = plain(refusal(lang, "99999999999999999999", "amount"));
        await expect.poll(() => fieldError("document-amount")).toBe(tooLarge);
        expect(tooLarge).not.toContain(ui.number.notPositive);
        await closeDialog();
      });

      it("a quote starts from the stronger currency; a first exchange entered the wrong way round asks to confirm exactly what it would post", async () => {
        await nav(app.nav.transfers);
        await page.getByText(app.transfers.exchange, { exact: true }).click();
        await page.getByText(app.transfers.byQuote, { exact: true }).click();
        const base = () => page.getByTestId("quote-base").innerText();
        await choose(app.transfers.from, "Bank EUR");
        await choose(app.transfers.to, "Bank USD");
        await expect.poll(base).toBe("1 EUR =");
        await choose(app.transfers.from, "Kassa");
        await expect.poll(base).toBe("1 USD =");
        // 1 UZS = 12,650 USD on the pair's first exchange: the usual rate read the wrong way round.
        await page.getByLabel(app.transfers.amount, { exact: true }).fill(lang === "en" ? "1,000" : "1 000");
        const { rate, guard } = await postQuoteExpectingQuestion("UZS", "12650");
        const warning = plain(await guard.innerText());
        expect(warning).toContain(lang === "en" ? "1 UZS = 12,650 USD" : "1 UZS = 12 650 USD");
        expect(warning).toContain(lang === "en" ? "1,000.00" : "1 000,00");
        expect(warning).toContain(lang === "en" ? "12,650,000.00" : "12 650 000,00");
        await page.getByTestId("confirm-rate").waitFor();
        expect(await page.getByTestId("form-error").count()).toBe(0);
        await shot("exchange-warning-inverted");
        // At 1280×720 the question and its button are in view without scrolling, as the form's Post.
        await page.setViewportSize({ width: 1280, height: 720 });
        try {
          await page.evaluate(() => window.scrollTo(0, 0));
          for (const id of ["confirm-rate", "post-movement"]) {
            const box = await page.getByTestId(id).boundingBox();
            expect(box && box.y + box.height, id).toBeLessThanOrEqual(720);
          }
          await page.screenshot({ path: path.join(SHOTS, `exchange-warning-inverted-720-${lang}.png`) });
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 });
        }
        // Nothing posted; a changed value takes the question (and its button) away at once.
        expect(await balanceOf(lang, firms[lang].bank)).toBe("0");
        await rate.fill("12651");
        await expect.poll(() => guard.count()).toBe(0);
        expect(await page.getByTestId("confirm-rate").count()).toBe(0);
      });

      it("the exchange reads the rate as the language writes it, previews what lands, and questions a first exchange far from the usual rate", async () => {
        await nav(app.nav.transfers);
        await page.getByText(app.transfers.exchange, { exact: true }).click();
        await choose(app.transfers.from, "Kassa");
        await choose(app.transfers.to, "Bank USD");
        await page.getByLabel(app.transfers.amount, { exact: true }).fill("12 650 000");
        await page.getByText(app.transfers.byQuote, { exact: true }).click();
        await expect.poll(() => page.getByTestId("quote-base").innerText()).toContain("1 USD =");
        const rate = page.getByLabel(app.transfers.marketRate, { exact: true });
        // What this language cannot read without guessing: refused, saying how it was read.
        const ambiguous = lang === "en" ? "12,65" : "12.650";
        await rate.fill(ambiguous);
        await expect.poll(() => preview("movement-quote")).toBe(plain(refusal(lang, ambiguous, "rate")));
        expect(await destination()).toBe("—");
        await shot("exchange-rate-refused");
        await rate.press("Enter");
        await expect.poll(() => fieldError("movement-quote")).toBe(plain(refusal(lang, ambiguous, "rate")));
        // "12,650": twelve thousand six hundred fifty in English, 12,65 in Russian and Uzbek.
        await rate.fill("12,650");
        const reads = lang === "en" ? "1 USD = 12,650 UZS" : "1 USD = 12,65 UZS";
        await expect
          .poll(() => preview("movement-quote"))
          .toBe(plain(app.transfers.quoteReads.replace("{{quote}}", reads)));
        const lands = lang === "en" ? "USD 1,000.00" : "1 000 000,00 USD";
        await expect.poll(destination).toBe(lands);
        await shot("exchange-preview");
        await rate.press("Enter");
        if (lang === "en") {
          // The usual order of the rate: posted without a question.
          await expect.poll(() => rate.inputValue(), { timeout: 15_000 }).toBe("");
          expect(await balanceOf(lang, firms[lang].bank)).toBe("100000");
          return;
        }
        // 1 USD = 12,65 UZS on a first exchange: questioned, with exactly what would be posted.
        const guard = page.getByTestId("rate-guard");
        await guard.waitFor();
        const warning = plain(await guard.innerText());
        expect(warning).toContain("1 USD = 12,65 UZS");
        expect(warning).toContain("12 650 000,00");
        expect(warning).toContain("1 000 000,00");
        expect(await balanceOf(lang, firms[lang].bank)).toBe("0");
        await shot("exchange-warning-first");
        // Corrected: the question goes at once, and the corrected rate posts.
        await rate.fill("12 650");
        await expect.poll(() => guard.count()).toBe(0);
        await rate.press("Enter");
        await expect.poll(() => rate.inputValue(), { timeout: 15_000 }).toBe("");
        expect(await balanceOf(lang, firms[lang].bank)).toBe("100000");
      });

      it("a rate warning goes the moment a value changes, and 'post at this rate' posts exactly what it described", async () => {
        // The pair now has a last exchange (1 USD = 12,650 UZS). 1 UZS = 12,650 USD is far from it.
        await nav(app.nav.transfers);
        await page.getByText(app.transfers.exchange, { exact: true }).click();
        await page.getByText(app.transfers.byQuote, { exact: true }).click();
        await choose(app.transfers.from, "Kassa");
        await choose(app.transfers.to, "Bank USD");
        await page
          .getByLabel(app.transfers.amount, { exact: true })
          .fill(lang === "en" ? "1,265,000" : "1 265 000");
        const { rate, guard } = await postQuoteExpectingQuestion("UZS", "12650");
        expect(plain(await guard.innerText())).toContain(
          lang === "en" ? "1 UZS = 12,650 USD" : "1 UZS = 12 650 USD",
        );
        await shot("exchange-warning");
        // 1 USD = 1,265 UZS now: the old warning must not stay (nor its button post the new values unchecked).
        await page.getByTestId("quote-base").click();
        await page.locator(".ant-select-dropdown:visible").getByText("1 USD =", { exact: true }).click();
        await expect.poll(() => guard.count()).toBe(0);
        await rate.fill(lang === "en" ? "1,265" : "1 265");
        expect(await guard.count()).toBe(0);
        await rate.press("Enter");
        await guard.waitFor();
        const warning = plain(await guard.innerText());
        expect(warning).toContain(lang === "en" ? "1 USD = 1,265 UZS" : "1 USD = 1 265 UZS");
        expect(warning).toContain(lang === "en" ? "1,265,000.00" : "1 265 000,00");
        expect(warning).toContain(lang === "en" ? "1,000.00" : "1 000,00");
        await shot("exchange-warning-changed");
        await page.getByTestId("confirm-rate").click();
        await expect.poll(() => rate.inputValue(), { timeout: 15_000 }).toBe("");
        // Exactly the described values: 1,265,000.00 UZS out, 1,000.00 USD in.
        expect(await balanceOf(lang, firms[lang].bank)).toBe("200000");
        const entries = (await rest(
          lang,
          "GET",
          `/finance/accounts/${firms[lang].bank}/transactions?limit=1`,
        )) as {
          items: { amount: string; destinationAmount: string }[];
        };
        expect(entries.items[0]).toMatchObject({ amount: "126500000", destinationAmount: "100000" });
      });

      it("a date that is not one is refused next to the field, with Enter and with Tab; nothing is replaced", async () => {
        const comment = `Dated ${lang}`;
        const dialog = await openNew("payments");
        await choose(app.documents.account, "Kassa", dialog);
        await dialog.getByLabel(app.documents.amount, { exact: true }).fill("1");
        await dialog.getByLabel(app.documents.comment, { exact: true }).fill(comment);
        const date = dialog.getByLabel(app.documents.date, { exact: true });
        const today = new Date().toISOString().slice(0, 10);
        const t = uiT(lang);
        const cases: Array<[string, "Enter" | "Tab"]> =
          lang === "en"
            ? [
                ["02/31/2026", "Enter"],
                ["0000-01-01", "Tab"],
                ["13/01/2026", "Enter"],
                ["31.02.2026", "Tab"],
                ["01/02/26", "Enter"],
                ["01/02/2O26", "Tab"],
                ["01/02/20266", "Enter"],
                ["01/02/0026", "Tab"],
              ]
            : [
                ["31.02.2026", "Enter"],
                ["0000-01-01", "Tab"],
                ["13/01/2026", "Enter"],
                ["02/31/2026", "Tab"],
                ["01.02.26", "Enter"],
                ["01.02.2O26", "Tab"],
                ["01.02.20266", "Enter"],
                ["01.02.0026", "Tab"],
              ];
        for (const [typed, key] of cases) {
          await date.click();
          await date.fill(typed);
          await date.press(key);
          const reading = readDate(typed, lang);
          if (reading.ok) throw new Error(`${typed} is a date in ${lang}`);
          await expect
            .poll(() => fieldError("document-date"))
            .toBe(plain(dateMessage(reading.problem, typed, lang, t, today)));
          // What was typed stays, and the dialog is still open: nothing was posted.
          expect(await date.inputValue()).toBe(typed);
          expect(await page.getByRole("dialog").count()).toBe(1);
          if (typed === cases[0]?.[0]) await shot("date-refused");
        }
        expect(await documentsWith(lang, "payments", comment)).toHaveLength(0);
        // A real date, typed as the language writes it, posts on that day.
        await date.click();
        await date.fill(lang === "en" ? "02/28/2026" : "28.02.2026");
        await date.press("Enter");
        await page.getByRole("dialog").waitFor({ state: "detached" });
        const posted = await documentsWith(lang, "payments", comment);
        expect(posted.map((doc) => doc.date)).toEqual(["2026-02-28"]);
      });

      it("a double click on Save posts one expense", async () => {
        const comment = `Once ${lang}`;
        const dialog = await openNew("expenses");
        await choose(app.documents.account, "Kassa", dialog);
        await dialog.getByLabel(app.documents.amount, { exact: true }).fill(lang === "en" ? "1.00" : "1,00");
        await dialog.getByLabel(app.documents.comment, { exact: true }).fill(comment);
        await page.getByRole("dialog").getByRole("button", { name: ui.save, exact: true }).dblclick();
        await page.getByRole("dialog").waitFor({ state: "detached" });
        await page.getByRole("cell", { name: comment }).first().waitFor();
        expect(await documentsWith(lang, "expenses", comment)).toHaveLength(1);
      });

      it("a reversal is sent once: a double click on its button, and Enter pressed twice", async () => {
        const reversals: string[] = [];
        const record = (request: { method(): string; url(): string }) => {
          if (request.method() === "POST" && /transfers\.reverse/.test(request.url()))
            reversals.push(request.url());
        };
        page.on("request", record);
        const spare = (await rest(lang, "POST", "/finance/accounts", {
          name: `Spare ${lang}`,
          currency: "UZS",
        })) as {
          id: string;
        };
        const today = new Date().toISOString().slice(0, 10);
        for (const how of ["double click", "Enter twice"]) {
          const transfer = (await rest(lang, "POST", "/finance/transfers", {
            fromAccountId: firms[lang].kassa,
            toAccountId: spare.id,
            amount: "100",
            date: today,
            comment: `Undo by ${how}`,
          })) as { id: string };
          await page.goto(`${server?.base}/app/accounts/${spare.id}`);
          await page.getByTestId(`reverse-${transfer.id}`).click();
          const reason = page.getByRole("dialog").getByLabel(app.transfers.reason, { exact: true });
          await reason.fill(`Posted by mistake (${how})`);
          if (how === "double click") {
            await page.locator("#confirm-reverse").dblclick();
          } else {
            await reason.press("Enter");
            await page.keyboard.press("Enter");
          }
          await page.getByRole("dialog").waitFor({ state: "detached" });
          await page.getByTestId(`reversed-${transfer.id}`).waitFor();
          expect(await page.getByTestId("reverse-error").count()).toBe(0);
        }
        page.off("request", record);
        expect(reversals).toHaveLength(2);
        // Both transfers and their reversals: the spare account is back where it started.
        expect(await balanceOf(lang, spare.id)).toBe("0");
      });

      it("Enter in the category picker chooses what the filtered list shows, however fast the typing", async () => {
        const dialog = await openNew("expenses");
        const category = dialog.getByLabel(app.documents.category, { exact: true });
        await category.click();
        // The unfiltered first page is on screen ("Bookkeeping services" first) when typing starts.
        await page.locator(".ant-select-dropdown:visible").getByText("Bookkeeping services").waitFor();
        await page.keyboard.type("Other", { delay: 0 });
        await page.keyboard.press("Enter");
        const field = dialog.locator(".ant-select-content", { has: page.locator("#document-category") });
        await expect.poll(() => field.innerText(), { timeout: 5000 }).toContain("Other");
        expect(await field.innerText()).not.toContain("Bookkeeping services");
        await closeDialog();
      });

      it("the account form names its currencies in the user's language, beside their codes", async () => {
        await nav(app.nav.accounts);
        await page.getByTestId("new-account").click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel(app.accounts.currency, { exact: true }).click();
        const options = page.locator(".ant-select-dropdown:visible .ant-select-item-option");
        await options.first().waitFor();
        const names: Record<Lang, string[]> = {
          en: ["UZS — Uzbekistani Som", "USD — US Dollar"],
          ru: ["UZS — Узбекский сум", "USD — Доллар США"],
          uz: ["UZS — Oʻzbekiston soʻmi", "USD — AQSH dollari"],
        };
        // The list may still be filling (or showing the language before) when its first option shows.
        await expect.poll(() => options.allInnerTexts()).toEqual(expect.arrayContaining(names[lang]));
        // The list open: what the picture is of.
        await page.screenshot({ path: path.join(SHOTS, `account-currencies-${lang}.png`) });
        // Esc closes the list first, then the dialog.
        await page.keyboard.press("Escape");
        await page.locator(".ant-select-dropdown:visible").waitFor({ state: "hidden" });
        await closeDialog();
      });

      it("an account's opening balance is typed through the same input, refused when negative without overdraft, and shown back in the language's format", async () => {
        await nav(app.nav.accounts);
        await page.getByTestId("new-account").click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel(app.accounts.name, { exact: true }).fill(`Safe ${lang}`);
        await choose(app.accounts.currency, "UZS", dialog);
        const opening = dialog.getByLabel(app.accounts.opening, { exact: true });
        await opening.fill("−5");
        await expect.poll(() => preview("account-opening")).toBe(ui.number.negative);
        await opening.fill(lang === "en" ? "1,500,000.50" : "1 500 000,50");
        const shown = lang === "en" ? "UZS 1,500,000.50" : "1 500 000,50 UZS";
        await expect
          .poll(() => preview("account-opening"))
          .toBe(uiT(lang)("ui:number.postsAs", { value: shown }));
        const date = dialog.getByLabel(app.accounts.openingDate, { exact: true });
        await date.click();
        await date.fill(lang === "en" ? "01/01/2026" : "01.01.2026");
        await date.press("Tab");
        await expect.poll(() => page.locator(".ant-picker-dropdown:visible").count()).toBe(0);
        await shot("account-opening");
        await date.press("Enter");
        await dialog.waitFor({ state: "detached" });
        await expect
          .poll(() => page.getByTestId(`account-balance-Safe ${lang}`).innerText().then(plain))
          .toBe(shown);
        await page.getByRole("button", { name: `${ui.edit} Safe ${lang}` }).click();
        const again = page.getByRole("dialog").getByLabel(app.accounts.opening, { exact: true });
        await expect
          .poll(() => again.inputValue().then(plain))
          .toBe(lang === "en" ? "1,500,000.50" : "1 500 000,50");
        expect(
          await page.getByRole("dialog").getByLabel(app.accounts.openingDate, { exact: true }).inputValue(),
        ).toBe(lang === "en" ? "01/01/2026" : "01.01.2026");
        await closeDialog();
      });

      it("messages say what is wrong in the user's words; inputs stop at the server's limits; an edit starts from the language's format", async () => {
        const dialog = await openNew("expenses");
        await choose(app.documents.account, "Kassa", dialog);
        await dialog.getByLabel(app.documents.amount, { exact: true }).fill("1");
        const comment = dialog.getByLabel(app.documents.comment, { exact: true });
        expect(await comment.getAttribute("maxlength")).toBe("1000");
        await comment.fill("x".repeat(1001));
        expect((await comment.inputValue()).length).toBe(1000);
        // Past the limit anyway (a paste the browser let through): our own words, in the language.
        await comment.evaluate((input: HTMLInputElement) => {
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
          setter?.call(input, "y".repeat(1001));
          input.dispatchEvent(new Event("input", { bubbles: true }));
        });
        await comment.press("Enter");
        const tooLong = await fieldError("document-comment");
        expect(tooLong).not.toMatch(/Too big|expected string|string будет|<=/);
        expect(tooLong).toContain("1000");
        await shot("comment-too-long");
        await closeDialog();
        await nav(app.nav.accounts);
        await page.getByTestId("new-account").click();
        expect(
          await page
            .getByRole("dialog")
            .getByLabel(app.accounts.name, { exact: true })
            .getAttribute("maxlength"),
        ).toBe("100");
        await closeDialog();
        // The edit dialog starts from the amount as the language writes it.
        await nav(app.nav.payments);
        await page
          .getByRole("row", { name: /Prefill me/ })
          .getByRole("button", { name: ui.edit })
          .click();
        const amount = page.getByRole("dialog").getByLabel(app.documents.amount, { exact: true });
        await expect
          .poll(() => amount.inputValue().then(plain))
          .toBe(lang === "en" ? "9,750,000.50" : "9 750 000,50");
        await shot("payment-edit");
        await closeDialog();
        expect(firms[lang].errors).toEqual([]);
      });
    });
  }
});
