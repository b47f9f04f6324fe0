import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { type Books, signIn, startBooks } from "./books-session";

/*
 * What the browser suites over a seeded month of books share once a page is signed in: a page that
 * collects its errors, screenshots into the suite's folder, a screen opened in a language, the
 * server's JSON for a route and a cell's text as typed; a whole suite's start and stop; a dialog saved,
 * a tree row's level.
 */

export type Lang = "en" | "ru" | "uz";
export const LANGS: readonly Lang[] = ["en", "ru", "uz"];

/** Intl's no-break spaces as plain ones, so texts compare as typed. */
export const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

/** A page of its own context signed in through the login page; `pageErrors` collects its uncaught errors. */
export const signedInPage = async (
  browser: Browser,
  base: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; pageErrors: string[] }> => {
  const context = await browser.newContext({ viewport, locale: "en-US", acceptDownloads: true });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  await signIn(page, base);
  return { page, pageErrors };
};

/**
 * The suite's steps over its current page and books (read when a step runs: both are set in the
 * suite's beforeAll, after this is called).
 */
export const booksPageSteps = (shots: string, current: () => { page: Page; books: Books }) => {
  mkdirSync(shots, { recursive: true });
  return {
    shot: (name: string) =>
      current().page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true }),
    /** The user's language, saved to the profile: the next page load opens in it. */
    open: async (lang: Lang, url: string) => {
      const { page, books } = current();
      expect((await books.call("PUT", "/account", { uiLanguage: lang })).status).toBe(200);
      await page.goto(`${books.base}${url}`);
      // The app boots and reads the profile first: under load (a shared machine) that takes over a second.
      await expect.poll(() => page.locator("html").getAttribute("lang"), { timeout: 15_000 }).toBe(lang);
    },
    json: async <T>(route: string) => {
      const response = await current().books.call("GET", route);
      expect(response.status, route).toBe(200);
      return (await response.json()) as T;
    },
    /** The text of the element with `testId`, once it is there. */
    text: async (testId: string) => {
      const cell = current().page.getByTestId(testId);
      await cell.waitFor({ timeout: 20_000 });
      return plain(await cell.innerText());
    },
  };
};

/**
 * A suite over its own seeded month of books and one signed-in page (1280×800, en-US): started in the
 * suite's beforeAll (`started` hands the suite its books and page), stopped in its afterAll; with the
 * suite's steps (`booksPageSteps`) screenshotting into `shots`.
 */
export const booksSuite = (
  dataPrefix: string,
  shots: string,
  started: (current: { books: Books; page: Page }) => void,
) => {
  let session: Awaited<ReturnType<typeof startBooks>> | undefined;
  let current: { books: Books; page: Page } | undefined;
  beforeAll(async () => {
    session = await startBooks(dataPrefix);
    const { page } = await signedInPage(session.browser, session.books.base, { width: 1280, height: 800 });
    current = { books: session.books, page };
    started(current);
  }, 180_000);
  afterAll(async () => {
    await session?.stop();
  });
  return booksPageSteps(shots, () => {
    if (!current) throw new Error(`${dataPrefix}: the suite's books have not started`);
    return current;
  });
};

/** Saves the open dialog with Enter in its first field and waits for it to close. */
export const saveDialog = async (page: Page) => {
  const dialog = page.getByRole("dialog");
  await dialog.locator("input").first().press("Enter");
  await dialog.waitFor({ state: "detached" });
};

/** A tree table row's depth (0: a root), as antd's row class says it. */
export const treeLevelOf = async (row: Locator) =>
  Number((await row.getAttribute("class"))?.match(/ant-table-row-level-(\d+)/)?.[1]);
