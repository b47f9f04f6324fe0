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
import type { Books } from "./books-session";
import { browserSkipReason } from "./browser";
import { confirmPopover } from "./popconfirm";
import { ROOT } from "./server-process";

// Categories as trees in the app, in a real browser against the real server with a month of books
// (the payment category "Sales" is used by payments): subcategories made, one moved under another
// parent, a move that would make a cycle refused with the server's words, a used category's deletion
// refused naming what uses it, a rename; the screen and the refusal in en, ru and uz.

const SHOTS = path.join(ROOT, ".tmp/screenshots/app-categories");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const SERVER = { en: serverEn, ru: serverRu, uz: serverUz } as const;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`app-categories.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("categories in the app", () => {
  let books: Books;
  let page: Page;
  const { shot } = booksSuite("hisob-e2e-categories-", SHOTS, (started) => {
    ({ books, page } = started);
  });

  // By the name cell's text: a parent's cell also holds its expand button, which its accessible name includes.
  const row = (name: string) =>
    page.locator(".ant-table-row").filter({ has: page.locator("td").getByText(name, { exact: true }) });
  const levelOf = (name: string) => treeLevelOf(row(name));
  const addCategory = async (name: string, under?: string) => {
    if (under) await row(under).getByRole("button", { name: appEn.categories.addChild }).click();
    else await page.getByTestId("new-category").click();
    await page.getByRole("dialog").getByLabel(appEn.categories.name, { exact: true }).fill(name);
    await saveDialog(page);
    await row(name).waitFor();
  };
  /** Opens "Move" for `name` and picks `parent` in the tree picker. */
  const moveUnder = async (name: string, parent: string, lang: keyof typeof APP = "en") => {
    await row(name).getByRole("button", { name: APP[lang].categories.move }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(APP[lang].categories.parent).click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-tree-title", { hasText: parent })
      .first()
      .click();
    await dialog.locator(".ant-modal-footer button.ant-btn-primary").click();
  };

  it("builds a tree and moves a category under another parent", async () => {
    await page.getByRole("navigation").getByRole("link", { name: appEn.nav.categories, exact: true }).click();
    await page.getByRole("heading", { name: appEn.categories.title }).waitFor();
    await row("Sales").waitFor();
    await addCategory("Income");
    await addCategory("Services", "Income");
    await addCategory("Consulting", "Services");
    expect(await levelOf("Consulting")).toBe(2);
    expect(await levelOf("Sales")).toBe(0);
    await moveUnder("Sales", "Consulting");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await expect.poll(() => levelOf("Sales")).toBe(3);
    await shot("tree-en");
  });

  it("refuses a move that would make a cycle, with the server's message, in each language", async () => {
    for (const lang of ["en", "ru", "uz"] as const) {
      expect((await books.call("PUT", "/account", { uiLanguage: lang })).status).toBeLessThan(300);
      await page.goto(`${books.base}/app/categories`);
      await page.getByRole("heading", { name: APP[lang].categories.title }).waitFor();
      await row("Income").waitFor();
      await moveUnder("Income", "Consulting", lang);
      const error = page.getByTestId("category-parent-error");
      await error.waitFor();
      expect(await error.innerText()).toBe(SERVER[lang].issues.category_cycle);
      await shot(`cycle-${lang}`);
      // Escape closes the parent picker first if it is still open (as in any dialog), then the dialog.
      const dialog = page.getByRole("dialog");
      await expect
        .poll(
          async () => {
            if ((await dialog.count()) > 0) await dialog.press("Escape").catch(() => undefined);
            return dialog.count();
          },
          { timeout: 20_000 },
        )
        .toBe(0);
      // Nothing moved.
      expect(await levelOf("Income")).toBe(0);
    }
    expect((await books.call("PUT", "/account", { uiLanguage: "en" })).status).toBeLessThan(300);
  });

  it("refuses to delete a category that payments use, naming them and how many; renames and deletes an unused one", async () => {
    await page.goto(`${books.base}/app/categories`);
    await row("Sales").waitFor();
    await row("Sales").getByRole("button", { name: appEn.categories.delete }).click();
    await confirmPopover(page);
    const refusal = page.locator(".ant-message-notice", { hasText: "Payments using the category" });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain(
      serverEn.errors.finance.category_used_by_payments.replace(
        "{{count}}",
        String(books.payments.salesCount),
      ),
    );
    await shot("in-use-en");
    await row("Consulting").getByRole("button", { name: appEn.categories.rename }).click();
    await page.getByRole("dialog").getByLabel(appEn.categories.name, { exact: true }).fill("Advisory");
    await saveDialog(page);
    await row("Advisory").waitFor();
    await addCategory("Spare", "Income");
    await row("Spare").getByRole("button", { name: appEn.categories.delete }).click();
    await confirmPopover(page);
    await row("Spare").waitFor({ state: "detached" });
  });
});
