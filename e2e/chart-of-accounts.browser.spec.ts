import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en as serverEn } from "../packages/i18n/src/locales/en";
import { ru as serverRu } from "../packages/i18n/src/locales/ru";
import { uz as serverUz } from "../packages/i18n/src/locales/uz";
import { booksSuite, saveDialog, treeLevelOf } from "./books-page";
import { type Books, thisMonthDay } from "./books-session";
import { browserSkipReason } from "./browser";
import { confirmPopover } from "./popconfirm";
import { ROOT } from "./server-process";

// The chart of accounts in the app (docs/decisions/0102-chart-of-accounts-screen.md), in a real browser
// against the real server with a month of books posted to NAS 21 (installed by the first posting):
// the tree browsed, searched by code and by name, collapsed and expanded; a sub-account made, renamed,
// deactivated and activated again; a used account's deletion refused with the server's words in en, ru
// and uz; the expense category "Rent" mapped to the new account, and a new expense seen on it in the
// trial balance. The setup's chart step is in setup.browser.spec.ts.

const SHOTS = path.join(ROOT, ".tmp/screenshots/chart-of-accounts");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const SERVER = { en: serverEn, ru: serverRu, uz: serverUz } as const;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`chart-of-accounts.browser.spec.ts skipped: ${skipReason}`);

/** A message template as a pattern: its {{count}} any number. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\{\\{count\\}\\}", "\\d+")}$`);

describe.skipIf(skipReason !== undefined)("the chart of accounts in the app", () => {
  let books: Books;
  let page: Page;
  const { shot } = booksSuite("hisob-e2e-chart-", SHOTS, (started) => {
    ({ books, page } = started);
  });

  const row = (code: string) => page.getByTestId(`gl-${code}`);
  const rows = () => page.locator(".ant-table-row:visible");
  const levelOf = (code: string) => treeLevelOf(row(code));
  const json = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await books.call(method, route, body);
    expect(response.status, `${route}: ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as T;
  };
  const speak = async (lang: keyof typeof APP) => {
    expect((await books.call("PUT", "/account", { uiLanguage: lang })).status).toBeLessThan(300);
    await page.goto(`${books.base}/app/chart-of-accounts`);
    await page.getByRole("heading", { name: APP[lang].chart.title }).waitFor();
  };

  it("browses the tree: codes, names, types, search by code and by name, collapse and expand", async () => {
    await page.getByRole("navigation").getByRole("link", { name: appEn.chart.nav, exact: true }).click();
    await page.getByRole("heading", { name: appEn.chart.title }).waitFor();
    await row("5110").waitFor();
    expect(await row("5110").innerText()).toContain(appEn.chart.types.asset);
    expect(await levelOf("5110")).toBe(1);
    // Documents are posted: no template is offered any more.
    expect(await page.getByTestId("template-choice").count()).toBe(0);
    await shot("tree-en");

    const search = page.getByTestId("chart-search").locator("input");
    await search.fill("9420");
    await expect.poll(() => rows().count()).toBe(2);
    await row("9400").waitFor();
    await row("9420").waitFor();
    // By a name in another language than the screen's: the Russian name of 9420.
    await search.fill("Административные");
    await expect.poll(() => rows().count()).toBe(2);
    await row("9420").waitFor();
    await search.fill("");
    await row("5110").waitFor();

    await page.getByTestId("chart-collapse").click();
    await row("5110").waitFor({ state: "hidden" });
    await row("5100").waitFor();
    await page.getByTestId("chart-expand").click();
    await row("5110").waitFor();
  });

  it("makes a sub-account, renames it, deactivates and activates it again", async () => {
    await row("9400").getByTestId("gl-add-child").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(appEn.chart.code, { exact: true }).fill("9425");
    await dialog.getByLabel(appEn.chart.nameEn, { exact: true }).fill("Office rent");
    await dialog.getByLabel(appEn.chart.nameRu, { exact: true }).fill("Аренда офиса");
    await dialog.getByLabel(appEn.chart.nameUz, { exact: true }).fill("Ofis ijarasi");
    await shot("new-sub-account-en");
    await saveDialog(page);
    await row("9425").waitFor();
    expect(await levelOf("9425")).toBe(1);
    expect(await row("9425").innerText()).toContain(appEn.chart.types.expense);

    await row("9425").getByTestId("gl-edit").click();
    await page
      .getByRole("dialog")
      .getByLabel(appEn.chart.nameEn, { exact: true })
      .fill("Office rent and upkeep");
    await saveDialog(page);
    await expect.poll(() => row("9425").getByTestId("gl-name").innerText()).toBe("Office rent and upkeep");

    await row("9425").getByTestId("gl-toggle").click();
    await row("9425").getByTestId("gl-inactive").waitFor();
    await row("9425").getByTestId("gl-toggle").click();
    await row("9425").getByTestId("gl-inactive").waitFor({ state: "detached" });
  });

  it("moves a sub-account to the top of the chart and back under its group with the tree select", async () => {
    await row("9425").getByTestId("gl-move").click();
    let dialog = page.getByRole("dialog", { name: /9425/ });
    await dialog.getByText(appEn.chart.moveHint).waitFor();
    await shot("move-en");
    // Cleared: the top of the chart.
    await dialog.locator(".ant-select-clear").click({ force: true });
    await dialog.getByRole("button", { name: appEn.chart.moveSubmit, exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => levelOf("9425")).toBe(0);
    const top = await json<{ code: string; parentId: string | null }[]>("GET", "/finance/ledger/accounts");
    expect(top.find((account) => account.code === "9425")?.parentId).toBeNull();

    await row("9425").getByTestId("gl-move").click();
    dialog = page.getByRole("dialog", { name: /9425/ });
    const parent = dialog.getByLabel(appEn.chart.moveParent, { exact: true });
    await parent.click();
    await parent.fill("9400");
    await page.locator(".ant-select-tree-node-content-wrapper:visible", { hasText: "9400" }).first().click();
    await dialog.getByRole("button", { name: appEn.chart.moveSubmit, exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => levelOf("9425")).toBe(1);
  });

  it("refuses to delete an account with journal lines, with the server's message, in en, ru and uz", async () => {
    for (const lang of ["en", "ru", "uz"] as const) {
      await speak(lang);
      await row("9420").waitFor();
      await row("9420").getByTestId("gl-delete").click();
      await confirmPopover(page);
      const error = page.getByTestId("chart-error");
      await error.waitFor();
      expect((await error.innerText()).trim()).toMatch(
        templatePattern(SERVER[lang].errors.finance.gl_account_has_entries),
      );
      await row("9420").waitFor();
      // The row's actions are icon buttons named by their tooltips: one line in every language.
      const actions = row("9420").getByRole("button");
      expect(await actions.count()).toBe(5);
      const tops = new Set(
        await Promise.all(
          (await actions.all()).map(async (button) => Math.round((await button.boundingBox())?.y ?? -1)),
        ),
      );
      expect(tops.size).toBe(1);
      expect((await row("9420").boundingBox())?.height ?? 99).toBeLessThan(48);
      await row("9420").getByRole("button", { name: APP[lang].chart.move, exact: true }).waitFor();
      await shot(`tree-${lang}`);
      await page.getByRole("tab", { name: APP[lang].chart.tabMappings }).click();
      await page.getByTestId("mapping-Rent").waitFor();
      await shot(`mappings-${lang}`);
    }
    await speak("en");
  });

  it("maps the Rent category to the new account; a new expense posts there (trial balance)", async () => {
    await page.getByRole("tab", { name: appEn.chart.tabMappings }).click();
    const rent = page.getByTestId("mapping-Rent");
    await rent.waitFor();
    expect(await rent.innerText()).toContain("9420");
    await rent.locator(".ant-select").click();
    await rent.locator("input").fill("9425");
    await page.locator(".ant-select-item-option:visible", { hasText: "9425" }).first().click();
    await page.locator(".ant-message-notice", { hasText: appEn.chart.mappingSaved }).waitFor();
    await expect.poll(() => rent.innerText()).toContain("9425 Office rent and upkeep");
    await shot("mapped-en");

    const chart = await json<{ id: string; code: string }[]>("GET", "/finance/ledger/accounts");
    const officeRent = chart.find((account) => account.code === "9425")?.id;
    const mappings = await json<{ name: string; glAccountId: string | null }[]>(
      "GET",
      "/finance/ledger/mappings",
    );
    expect(mappings.find((mapping) => mapping.name === "Rent")?.glAccountId).toBe(officeRent);

    const day = thisMonthDay(4);
    await json("POST", "/finance/expenses", {
      accountId: books.ids.kassa,
      amount: "5000000",
      date: day,
      categoryId: books.ids.rent,
      comment: "Rent after the mapping",
    });
    const trial = await json<{ rows: { code: string; debit: string; credit: string }[]; balanced: boolean }>(
      "GET",
      `/finance/ledger/trial-balance?startDate=${day}&endDate=${day}`,
    );
    expect(trial.balanced).toBe(true);
    expect(trial.rows.find((each) => each.code === "9425")).toMatchObject({ debit: "5000000", credit: "0" });
    // Nothing more on the default expense account that day (its row, if any, carries only what was before).
    expect(trial.rows.find((each) => each.code === "9420")?.debit ?? "0").toBe("0");
  });
});
