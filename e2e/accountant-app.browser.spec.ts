import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en } from "../packages/i18n/src/locales/en";
import { ru } from "../packages/i18n/src/locales/ru";
import { uz } from "../packages/i18n/src/locales/uz";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { ru as uiRu } from "../packages/ui/src/locales/ru";
import { uz as uiUz } from "../packages/ui/src/locales/uz";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";

// The accountant app at /app in a real browser (Debian's Chromium) against the real server started
// the README's way on a fresh embedded database: sign in through the login page and the OIDC flow,
// post a day's work, see balances move, a refused posting in the user's language, three languages,
// sign out (the tokens stop working). Screenshots of every screen in en, ru, uz go to .tmp/screenshots/.

const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const SERVER = { en, ru, uz } as const;
const UI = { en: uiEn, ru: uiRu, uz: uiUz } as const;
type Lang = keyof typeof APP;
const LANG_NAMES: Record<Lang, string> = { en: "English", ru: "Русский", uz: "Oʻzbekcha" };

/** Text that looks like an i18n key left untranslated ("dashboard.title", "ui:save"). */
const RAW_KEY =
  /\b(?:ui:[a-zA-Z]+|(?:nav|dashboard|accounts|documents|transfers|types|form|signIn|picker|downloads)\.[a-zA-Z_]+)\b/;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`accountant-app.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the accountant app at /app, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const email = "accountant@firm.uz";
  const password = "Accountant-Passw0rd-2026";
  let lastBearer = "";

  const consoleErrors: string[] = [];
  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-app-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = email;
    env.ADMIN_PASSWORD = password;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    // Seed in code, not through the UI: the organization works in so'm and dollars.
    const login = await fetch(`${server.base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const currencies = await fetch(`${server.base}/tenant/currencies`, {
      method: "PUT",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ codes: ["UZS", "USD"] }),
    });
    expect(currencies.status).toBe(200);
    // More counterparties than a picker's first page: finding "Client 23" needs the server's search.
    const post = async (route: string, body: unknown) => {
      const response = await fetch(`${server?.base}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
    };
    for (let i = 1; i <= 25; i += 1) {
      const n = String(i).padStart(2, "0");
      await post("/finance/counterparties", { name: `Client ${n}`, tin: `3000000${n}` });
    }
    await post("/finance/payment-categories", { name: "Sales" });
    await post("/finance/expense-categories", { name: "Rent" });
    await post("/finance/expense-categories", { name: "Salaries" });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: "en-US",
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    page.on("request", (request) => {
      const authorization = request.headers().authorization;
      if (authorization?.startsWith("Bearer ")) lastBearer = authorization.slice(7);
    });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    const result = await server?.stop();
    if (result && result.code !== 0) console.error(result.stderr);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const shot = (name: string) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `app-${name}.png`), fullPage: true });
  const nav = async (label: string) => {
    await page.getByRole("navigation").getByRole("link", { name: label, exact: true }).click();
  };
  /** Picks an option of an Ant Design select by typing into it (as a keyboard user does). */
  const choose = async (label: string, text: string, scope: Pick<Page, "getByLabel"> = page) => {
    const input = scope.getByLabel(label, { exact: true });
    await input.click();
    await input.fill(text);
    await page.locator(".ant-select-item-option-active:visible").first().waitFor();
    await input.press("Enter");
    await page
      .locator(".ant-select-dropdown:visible")
      .waitFor({ state: "hidden", timeout: 3000 })
      .catch(() => undefined);
  };
  /** Picks a record in a server-searched picker: types, waits for the server's answer, Enter. */
  const pick = async (label: string, text: string, scope: Pick<Page, "getByLabel"> = page) => {
    const input = scope.getByLabel(label, { exact: true });
    await input.click();
    await input.fill(text);
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option-active")
      .filter({ hasText: text })
      .waitFor();
    await input.press("Enter");
    await page
      .locator(".ant-select-dropdown:visible")
      .waitFor({ state: "hidden", timeout: 3000 })
      .catch(() => undefined);
  };
  /** Clicks a download button; returns the file's name and first bytes. */
  const download = async (testId: string) => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
    const saved = path.join(SCREENSHOTS, `download-${file.suggestedFilename()}`);
    await file.saveAs(saved);
    return { name: file.suggestedFilename(), bytes: readFileSync(saved) };
  };
  const noRawKeys = async () => {
    const text = await page.locator("body").innerText();
    expect(text).not.toMatch(RAW_KEY);
    expect(text).not.toMatch(/\bNaN\b|\bundefined\b|\[object Object\]/);
  };

  it("opens /, signs in on the real login page through OIDC and lands on the dashboard", async () => {
    if (!server) throw new Error("no server");
    await page.goto(`${server.base}/`);
    await page.waitForURL(/\/login\?/);
    await page.getByLabel(en.login.email, { exact: true }).fill(email);
    await page.getByLabel(en.login.password, { exact: true }).fill(password);
    await page.getByLabel(en.login.password, { exact: true }).press("Enter");
    // An organization with no accounts opens on the first-run setup; left for later, the dashboard.
    await page.getByRole("heading", { name: appEn.setup.title }).waitFor();
    await page.getByTestId("setup-later").click();
    await page.getByRole("heading", { name: appEn.dashboard.title }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/?$/);
    // The callback's code is never left in the address or history.
    expect(page.url()).not.toContain("code=");
    await page.getByText(appEn.dashboard.noAccounts).waitFor();
    await expect.poll(() => page.getByTestId("organization").innerText()).not.toBe("");
    await shot("dashboard-empty-en");
  });

  it("creates accounts with the keyboard (Enter posts)", async () => {
    await nav(appEn.nav.accounts);
    await page.getByRole("heading", { name: appEn.accounts.title }).waitFor();
    for (const [name, currency] of [
      ["Cash", "UZS"],
      ["Bank", "UZS"],
      ["Dollars", "USD"],
    ] as const) {
      await page.getByTestId("new-account").click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel(appEn.accounts.name).fill(name);
      await choose(appEn.accounts.currency, currency, dialog);
      await dialog.getByLabel(appEn.accounts.name).press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("link", { name, exact: true }).waitFor();
    }
    await shot("accounts-en");
  });

  const postDocument = async (
    kind: "payments" | "expenses",
    account: string,
    amount: string,
    comment: string,
    links: { category?: string; counterparty?: string } = {},
  ) => {
    await nav(kind === "payments" ? appEn.nav.payments : appEn.nav.expenses);
    await page.getByTestId("new-document").click();
    const dialog = page.getByRole("dialog");
    await choose(appEn.documents.account, account, dialog);
    await dialog.getByLabel(appEn.documents.amount).fill(amount);
    if (links.category) await pick(appEn.documents.category, links.category, dialog);
    if (links.counterparty) await pick(appEn.documents.counterparty, links.counterparty, dialog);
    await dialog.getByLabel(appEn.documents.comment).fill(comment);
    await dialog.getByLabel(appEn.documents.comment).press("Enter");
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("cell", { name: comment }).waitFor();
  };

  it("posts a payment and an expense; balances change", async () => {
    // As English writes it (a decimal comma is refused in English: docs/decisions/0015-typed-numbers.md).
    await postDocument("payments", "Cash", "1,500,000.50", "Client paid invoice 7", {
      category: "Sales",
      counterparty: "Client 23",
    });
    await shot("payments-en");
    // Editing shows the picked records by name (fetched by id: "Client 23" is not on the first page).
    await page
      .getByRole("row", { name: /Client paid invoice 7/ })
      .getByRole("button", { name: "Edit" })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Client 23", { exact: true }).waitFor();
    await dialog.getByText("Sales", { exact: true }).waitFor();
    await shot("payment-edit-en");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // The list filters by counterparty through the same picker.
    await pick(appEn.documents.counterparty, "Client 23");
    await page.getByRole("cell", { name: "Client paid invoice 7" }).waitFor();
    // The .xlsx of the list comes from the server's download route, with the same filters.
    const file = await download("download-documents");
    expect(file.name).toMatch(/\.xlsx$/);
    expect(file.bytes.subarray(0, 2).toString()).toBe("PK");
    await postDocument("expenses", "Cash", "200000", "Office rent", { category: "Rent" });
    await shot("expenses-en");
    await nav(appEn.nav.accounts);
    await expect
      .poll(() => page.getByTestId("account-balance-Cash").innerText())
      .toMatch(/UZS\s*1,300,000\.50/);
  });

  it("posts a transfer and an exchange at the market rate; the guard stops an implausible one until confirmed; a reversal undoes it", async () => {
    await nav(appEn.nav.transfers);
    await choose(appEn.transfers.from, "Cash");
    await choose(appEn.transfers.to, "Bank");
    await page.getByLabel(appEn.transfers.amount, { exact: true }).fill("300000");
    await page.getByLabel(appEn.transfers.amount, { exact: true }).press("Enter");
    // Posted: the form is emptied for the next entry.
    await expect
      .poll(() => page.getByLabel(appEn.transfers.amount, { exact: true }).inputValue(), { timeout: 15_000 })
      .toBe("");

    await page.getByText(appEn.transfers.exchange, { exact: true }).click();
    await choose(appEn.transfers.from, "Bank");
    await choose(appEn.transfers.to, "Dollars");
    await page.getByLabel(appEn.transfers.amount, { exact: true }).fill("127000");
    // As the bank quotes it: 1 USD = 12,700 UZS, so 127,000 UZS is exactly USD 10.00.
    await page.getByText(appEn.transfers.byQuote, { exact: true }).click();
    await expect
      .poll(() => page.getByTestId("quote-base").innerText(), { timeout: 15_000 })
      .toContain("1 USD =");
    await page.getByLabel(appEn.transfers.marketRate, { exact: true }).fill("12700");
    await expect
      .poll(() => page.getByTestId("exchange-destination").innerText(), { timeout: 15_000 })
      .toContain("10.00");
    await expect
      .poll(() => page.getByTestId("exchange-rate").innerText(), { timeout: 15_000 })
      .toContain("1 USD = 12,700 UZS");
    await shot("exchange-en");
    await page.getByLabel(appEn.transfers.marketRate, { exact: true }).press("Enter");
    await expect
      .poll(() => page.getByLabel(appEn.transfers.marketRate, { exact: true }).inputValue())
      .toBe("");

    // The amount received, mistyped (USD 100 for 12,700 UZS): 99% off the last rate, so the guard asks.
    await page.getByText(appEn.transfers.byReceived, { exact: true }).click();
    await choose(appEn.transfers.from, "Bank");
    await choose(appEn.transfers.to, "Dollars");
    await page.getByLabel(appEn.transfers.amount, { exact: true }).fill("12700");
    await page.getByLabel(appEn.transfers.amountReceived, { exact: true }).fill("100");
    // The rate the typed amounts mean stands next to the amount received, before posting.
    await expect
      .poll(() => page.getByTestId("received-rate-hint").innerText(), { timeout: 15_000 })
      .toBe("Rate: 1 USD = 127 UZS");
    await shot("exchange-received-en");
    await page.getByLabel(appEn.transfers.amountReceived, { exact: true }).press("Enter");
    const guard = page.getByTestId("rate-guard");
    await guard.waitFor();
    const warning = await guard.innerText();
    expect(warning).toContain("1 USD = 127 UZS");
    expect(warning).toContain("1 UZS = 127 USD");
    expect(warning).toContain("1 USD = 12,700 UZS");
    await shot("exchange-guard-en");
    await page.getByTestId("confirm-rate").click();
    await expect
      .poll(() => page.getByLabel(appEn.transfers.amountReceived, { exact: true }).inputValue())
      .toBe("");

    // Reverse it from the dollar account: the exact opposite is posted, both entries stay.
    await nav(appEn.nav.accounts);
    await page.getByRole("link", { name: "Dollars", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("account-balance").innerText(), { timeout: 15_000 })
      .toMatch(/110\.00/);
    const rows = page.getByTestId("statement-scroller").locator("tr[aria-rowindex]");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await rows.first().getByRole("button", { name: appEn.transfers.reverse }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(appEn.transfers.reason, { exact: true }).fill("Typed the wrong amount");
    await shot("reverse-en");
    await dialog.getByLabel(appEn.transfers.reason, { exact: true }).press("Enter");
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => page.getByTestId("account-balance").innerText(), { timeout: 15_000 })
      .toMatch(/10\.00/);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    // Both stay in the books, marked; neither offers another reversal (the server would refuse it:
    // finance.already_reversed, tested over REST and tRPC).
    const reversed = rows.filter({ has: page.getByText(appEn.transfers.reversedTag, { exact: true }) });
    const reversal = rows.filter({ has: page.getByText(appEn.transfers.reversalTag, { exact: true }) });
    await expect.poll(() => reversed.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => reversal.count()).toBe(1);
    expect(await reversed.getByRole("button", { name: appEn.transfers.reverse }).count()).toBe(0);
    expect(await reversal.getByRole("button", { name: appEn.transfers.reverse }).count()).toBe(0);
    // Why: on the reversal and on the entry it undid.
    await expect
      .poll(() => rows.filter({ hasText: "Reason: Typed the wrong amount" }).count(), { timeout: 15_000 })
      .toBe(2);
    await shot("account-reversed-en");

    // A correction of the oldest exchange (the one posted at the market rate): its date, comment and
    // counterparty, with the keyboard; the statement shows it at once.
    await rows.last().getByRole("button", { name: "Edit", exact: true }).click();
    const edit = page.getByRole("dialog");
    await edit.getByLabel(appEn.documents.comment, { exact: true }).fill("Bought dollars for the trip");
    await pick(appEn.documents.counterparty, "Client 07", edit);
    await shot("movement-edit-en");
    await edit.getByLabel(appEn.documents.comment, { exact: true }).press("Enter");
    await edit.waitFor({ state: "detached" });
    await expect
      .poll(() => rows.filter({ hasText: "Bought dollars for the trip" }).count(), { timeout: 15_000 })
      .toBe(1);
    // Opened again, it shows what was saved (the counterparty resolved to its name).
    await rows
      .filter({ hasText: "Bought dollars for the trip" })
      .getByRole("button", { name: "Edit" })
      .click();
    await expect.poll(() => page.getByRole("dialog").innerText(), { timeout: 15_000 }).toContain("Client 07");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await nav(appEn.nav.dashboard);
    await expect
      .poll(() => page.getByTestId("balance-Cash").innerText(), { timeout: 15_000 })
      .toMatch(/1,000,000\.50/);
    await expect
      .poll(() => page.getByTestId("balance-Bank").innerText(), { timeout: 15_000 })
      .toMatch(/173,000\.00/);
    await expect
      .poll(() => page.getByTestId("balance-Dollars").innerText(), { timeout: 15_000 })
      .toMatch(/10\.00/);
    // Totals per currency, never summed across currencies.
    const totals = await page.getByTestId("totals").innerText();
    expect(totals).toMatch(/1,173,000\.50/);
    expect(totals).toMatch(/10\.00/);
    await page
      .getByTestId("this-month")
      .getByText(/1,500,000\.50/)
      .waitFor();
    // The 12-month chart opens on the currency with months of income or expenses (UZS, not the
    // dollars that only received an exchange), so this month's postings are in it.
    await expect
      .poll(() => page.getByTestId("twelve-months").locator(".ant-segmented-item-selected").innerText())
      .toBe("UZS");
    await page.getByTestId("twelve-months").locator(".recharts-bar-rectangle path").first().waitFor();
    await shot("dashboard-en");
    const report = await download("download-income");
    expect(report.name).toMatch(/\.xlsx$/);
    expect(report.bytes.subarray(0, 2).toString()).toBe("PK");
  });

  /** An expense larger than the balance: refused by the server, in `lang`, with the form kept. */
  const refusedExpense = async (lang: Lang) => {
    const app = APP[lang];
    await nav(app.nav.expenses);
    await page.getByTestId("new-document").click();
    const dialog = page.getByRole("dialog");
    await choose(app.documents.account, "Dollars", dialog);
    // The date reads in the app's language, not the browser's (en-US): dd.mm.yyyy in ru and uz.
    const today = new Date().toISOString().slice(0, 10).split("-");
    const [year, month, day] = today;
    const shown = lang === "en" ? `${month}/${day}/${year}` : `${day}.${month}.${year}`;
    expect(await dialog.getByLabel(app.documents.date).inputValue()).toBe(shown);
    await dialog.getByLabel(app.documents.amount).fill("50");
    await dialog.getByLabel(app.documents.comment).fill("Too much");
    await dialog.getByLabel(app.documents.amount).press("Enter");
    // The server's own message in the user's language, naming the account (its template's text around
    // {{account}} and {{available}} must all be there).
    const template = SERVER[lang].errors.finance.insufficient_balance;
    const expected =
      lang === "en" ? ['Insufficient balance on account "Dollars"'] : template.split(/\{\{\w+\}\}/);
    await expect.poll(() => dialog.getByTestId("form-error").innerText()).toContain("Dollars");
    const error = await dialog.getByTestId("form-error").innerText();
    for (const part of expected) expect(error).toContain(part.trim());
    // Nothing typed is lost.
    expect(await dialog.getByLabel(app.documents.amount).inputValue()).toBe("50");
    expect(await dialog.getByLabel(app.documents.comment).inputValue()).toBe("Too much");
    // Focus stays where Enter was pressed, in the dialog: the keyboard goes on from there.
    const amount = dialog.getByLabel(app.documents.amount);
    expect(await amount.evaluate((el) => el === document.activeElement)).toBe(true);
    await shot(`expense-refused-${lang}`);
    // Esc right after picking from a list: the list is still closing (its animation slowed down here,
    // as a busy machine slows it). Ant Design gives Esc to the topmost popup, that closing list, and
    // the dialog stayed open; the form's own Esc closes it all the same.
    const animations = await page.context().newCDPSession(page);
    await animations.send("Animation.enable");
    await animations.send("Animation.setPlaybackRate", { playbackRate: 0.01 });
    try {
      const account = dialog.getByLabel(app.documents.account, { exact: true });
      await account.click();
      await account.fill("Dollars");
      await page.locator(".ant-select-item-option-active:visible").first().waitFor();
      await account.press("Enter");
      await page.locator(".ant-select-dropdown.ant-slide-up-leave-active").waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached", timeout: 5000 });
    } finally {
      await animations.send("Animation.setPlaybackRate", { playbackRate: 1 });
      await animations.detach();
    }
  };

  it("a refused posting shows the server's message in English and keeps the form", async () => {
    await refusedExpense("en");
  });

  it("an account's transactions show the running balance", async () => {
    await nav(appEn.nav.accounts);
    await page.getByRole("link", { name: "Cash", exact: true }).click();
    await page.getByTestId("account-balance").waitFor();
    const rows = page.getByTestId("statement-scroller").locator("tr[aria-rowindex]");
    await expect.poll(() => rows.count()).toBe(3);
    // Newest first: the transfer out leaves 1,000,000.50.
    expect(await rows.first().innerText()).toMatch(/1,000,000\.50/);
    await shot("account-en");
    const statement = await download("download-statement");
    expect(statement.name).toMatch(/\.xlsx$/);
    expect(statement.bytes.subarray(0, 2).toString()).toBe("PK");
    // The print view: the period's entries between opening and closing, laid out for paper.
    await page.getByTestId("open-print-view").click();
    await expect.poll(() => page.getByTestId("print-closing").innerText()).toMatch(/1,000,000\.50/);
    expect(await page.getByTestId("print-table").locator("tbody tr").count()).toBe(5);
    await shot("statement-print-en");
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("navigation").isVisible()).toBe(false);
    expect(await page.getByTestId("print-statement").isVisible()).toBe(false);
    await shot("statement-paper-en");
    await page.emulateMedia({ media: "screen" });
  });

  it("dates are typed in the app's language: dd.mm.yyyy in Russian in an en-US browser", async () => {
    await choose("Language", LANG_NAMES.ru);
    await page.getByRole("heading", { name: appRu.accounts.statement, exact: false }).waitFor();
    const from = page.getByLabel(appRu.documents.from, { exact: true });
    expect(await from.inputValue()).toMatch(/^01\.\d{2}\.\d{4}$/);
    await from.click();
    await from.fill("01.01.2020");
    await from.press("Enter");
    await page.waitForURL(/start=2020-01-01/);
    await expect.poll(() => from.inputValue()).toBe("01.01.2020");
    await page.getByTestId("print-closing").waitFor();
    await shot("statement-print-ru");
    await choose("Язык", LANG_NAMES.en);
    await page.getByRole("heading", { name: appEn.accounts.statement, exact: false }).waitFor();
  });

  for (const lang of ["ru", "uz"] as const) {
    it(`switches to ${lang}: every screen translated, the server's refusal in ${lang}`, async () => {
      const app = APP[lang];
      // The app is in the language the previous test left: English before ru, Russian before uz.
      const previous = lang === "ru" ? "en" : "ru";
      await nav(APP[previous].nav.dashboard);
      await choose(previous === "en" ? "Language" : "Язык", LANG_NAMES[lang]);
      await page.getByRole("heading", { name: app.dashboard.title }).waitFor();
      await noRawKeys();
      await shot(`dashboard-${lang}`);
      for (const [key, heading] of [
        ["accounts", app.accounts.title],
        ["payments", app.documents.payments],
        ["expenses", app.documents.expenses],
        ["transfers", app.transfers.title],
      ] as const) {
        await nav(app.nav[key]);
        await page.getByRole("heading", { name: heading }).waitFor();
        await page
          .locator(".ant-skeleton:visible")
          .first()
          .waitFor({ state: "hidden", timeout: 5000 })
          .catch(() => undefined);
        await noRawKeys();
        await shot(`${key}-${lang}`);
      }
      // The exchange form's guard, in the user's language, with both readings of the rate.
      await nav(app.nav.transfers);
      await page.getByText(app.transfers.exchange, { exact: true }).click();
      await choose(app.transfers.from, "Bank");
      await choose(app.transfers.to, "Dollars");
      await page.getByLabel(app.transfers.amount, { exact: true }).fill("12700");
      await page.getByLabel(app.transfers.amountReceived, { exact: true }).fill("100");
      await page.getByLabel(app.transfers.amountReceived, { exact: true }).press("Enter");
      await page.getByTestId("rate-guard").waitFor();
      const guard = (await page.getByTestId("rate-guard").innerText()).replace(/[\u00a0\u202f]/g, " ");
      expect(guard).toContain(app.transfers.checkRate);
      expect(guard).toContain("1 USD = 127 UZS");
      expect(guard).toContain("1 USD = 12 700 UZS");
      // Money in the warning reads as everywhere else in the app: with the currency's code.
      expect(guard).toContain("100,00 USD");
      expect(guard).not.toMatch(/US\$|\$|soʻm|so‘m/);
      expect(await page.getByTestId("received-rate-hint").innerText()).toContain("1 USD = 127 UZS");
      await noRawKeys();
      await shot(`exchange-guard-${lang}`);
      await page.getByText(app.transfers.byQuote, { exact: true }).click();
      await page.getByLabel(app.transfers.marketRate, { exact: true }).fill("12650");
      await expect.poll(() => page.getByTestId("exchange-destination").innerText()).toMatch(/1,00/);
      await shot(`exchange-quote-${lang}`);
      await nav(app.nav.accounts);
      await page.getByRole("link", { name: "Dollars", exact: true }).click();
      await page.getByTestId("account-balance").waitFor();
      await noRawKeys();
      await shot(`account-${lang}`);
      await page
        .getByTestId("statement-scroller")
        .getByRole("button", { name: app.transfers.reverse })
        .first()
        .click();
      await page
        .getByRole("dialog")
        .getByLabel(app.transfers.reason, { exact: true })
        .fill(lang === "ru" ? "Ошибка" : "Xato");
      await noRawKeys();
      await shot(`reverse-${lang}`);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await page
        .getByTestId("statement-scroller")
        .getByRole("button", { name: UI[lang].edit, exact: true })
        .first()
        .click();
      await page.getByRole("dialog").getByLabel(app.documents.comment, { exact: true }).waitFor();
      // Past the dialog's opening animation, so the screenshot shows it.
      await expect
        .poll(() => page.locator(".ant-modal").evaluate((el) => getComputedStyle(el).opacity))
        .toBe("1");
      await noRawKeys();
      await shot(`movement-edit-${lang}`);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await refusedExpense(lang);
    });
  }

  it("signs out: the tokens are revoked (401) and the browser is at the login page", async () => {
    if (!server) throw new Error("no server");
    const token = lastBearer;
    expect(token).not.toBe("");
    const before = await fetch(`${server.base}/trpc/session.me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(before.status).toBe(200);
    await page.getByRole("button", { name: /Foydalanuvchi menyusi|User menu|Меню пользователя/ }).click();
    await page.getByRole("menuitem", { name: "Chiqish" }).click();
    await page.waitForURL(/\/login/);
    await shot("signed-out");
    const after = await fetch(`${server.base}/trpc/session.me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(401);
    // The provider's session ended too: opening the app asks for the password again.
    await page.goto(`${server.base}/app/`);
    await page.waitForURL(/\/login/);
  });
});
