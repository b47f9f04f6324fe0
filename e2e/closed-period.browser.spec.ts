import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { en as serverEn } from "../packages/i18n/src/locales/en";
import { ru as serverRu } from "../packages/i18n/src/locales/ru";
import { uz as serverUz } from "../packages/i18n/src/locales/uz";
import { formatDate } from "../packages/ui/src/dates";
import { en as uiEn } from "../packages/ui/src/locales/en";
import { ru as uiRu } from "../packages/ui/src/locales/ru";
import { uz as uiUz } from "../packages/ui/src/locales/uz";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { firmSession } from "./firm-session";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";
import { formShot } from "./shots";

// The closed period in the accountant app (docs/decisions/0094-closed-periods.md), in a real browser
// against the real server: the organization's admin finds it under the user menu, closes the books
// through a day after a confirmation, and a payment dated in the closed period is refused with the
// server's words next to the form's date field — nothing posted. A user without `periods:update:all`
// sees the date and no way to move it. In en, ru and uz; screenshots in .tmp/screenshots.

const SHOTS = path.join(ROOT, ".tmp/screenshots");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
const SERVER = { en: serverEn, ru: serverRu, uz: serverUz } as const;
const UI = { en: uiEn, ru: uiRu, uz: uiUz } as const;
type Lang = keyof typeof APP;
const LANGS: Lang[] = ["en", "ru", "uz"];
const PASSWORD = "Accountant-Passw0rd-2026";
const LOCK = "2026-10-31";
const typed = (lang: Lang, iso: string) => {
  const [year, month, day] = iso.split("-");
  return lang === "en" ? `${month}/${day}/${year}` : `${day}.${month}.${year}`;
};
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

const skipReason = browserSkipReason();
if (skipReason) console.warn(`closed-period.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the closed period in the accountant app", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  const firms = {} as Record<Lang, { cookie: string; context: BrowserContext; page: Page; errors: string[] }>;

  const { login, rest, signIn } = firmSession({
    base: () => server?.base ?? "",
    browser: () => browser as Browser,
    password: PASSWORD,
  });

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-closed-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = "owner@hisob.uz";
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env, { startTimeoutMs: 240_000 });
    browser = await launching;
    const platform = await login("owner@hisob.uz");
    for (const lang of LANGS) {
      const email = `closer-${lang}@firm.uz`;
      await rest(platform, "POST", "/tenants", {
        name: `Firm ${lang}`,
        currencies: ["UZS"],
        admin: { email, firstName: "Dilnoza", lastName: "Karimova", password: PASSWORD, uiLanguage: lang },
      });
      const cookie = await login(email);
      const kassa = await rest(cookie, "POST", "/finance/accounts", { name: "Kassa", currency: "UZS" });
      await rest(cookie, "POST", "/finance/payments", {
        accountId: kassa.id,
        amount: "100000",
        date: "2026-10-01",
      });
      const session = await signIn(email);
      await session.page.getByRole("heading", { name: APP[lang].dashboard.title }).waitFor();
      firms[lang] = { cookie, ...session };
    }
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    const result = await server?.stop();
    if (result && result.code !== 0) console.error(result.stderr);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const shot = (page: Page, name: string) => formShot(page, path.join(SHOTS, `closed-period-${name}.png`));

  for (const lang of LANGS) {
    it(`${lang}: closes the books after a confirmation; a payment dated in the closed period is refused at its date`, async () => {
      const { page, cookie, errors } = firms[lang];
      const app = APP[lang];
      await page.goto(`${server?.base}/app/`);
      await page.getByRole("heading", { name: app.dashboard.title }).waitFor();
      // Under the user menu, beside the connected apps.
      await page.getByRole("button", { name: UI[lang].userMenu }).click();
      await page.getByRole("menuitem", { name: app.closedPeriod.title }).click();
      await page.getByRole("heading", { name: app.closedPeriod.title }).waitFor();
      await expect.poll(() => page.getByTestId("closed-through").innerText()).toBe(app.closedPeriod.none);
      const day = page.getByLabel(app.closedPeriod.newDay, { exact: true });
      await day.click();
      await day.fill(typed(lang, LOCK));
      await day.press("Enter");
      await page.getByTestId("closed-period-close").click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(app.closedPeriod.confirmTitle).waitFor();
      await shot(page, `confirm-${lang}`);
      // Nothing moves before the confirmation.
      expect((await rest(cookie, "GET", "/finance/closed-period")).lockDate).toBeNull();
      await page.locator("#closed-period-confirm").click();
      await dialog.waitFor({ state: "hidden" });
      await expect
        .poll(() => page.getByTestId("closed-through").innerText().then(plain))
        .toBe(plain(formatDate(LOCK, lang)));
      expect(await rest(cookie, "GET", "/finance/closed-period")).toEqual({ lockDate: LOCK, canMove: true });
      await shot(page, `closed-${lang}`);

      // A payment dated in the closed period: the server's refusal next to the date field.
      await page.getByRole("navigation").getByRole("link", { name: app.nav.payments, exact: true }).click();
      await page.getByTestId("new-document").click();
      const form = page.getByRole("dialog");
      const account = form.getByLabel(app.documents.account, { exact: true });
      await account.click();
      await account.fill("Kassa");
      await page
        .locator(".ant-select-item-option-active:visible")
        .filter({ hasText: "Kassa" })
        .first()
        .waitFor();
      await account.press("Enter");
      await form.getByLabel(app.documents.amount, { exact: true }).fill("5");
      await form.getByLabel(app.documents.comment, { exact: true }).fill(`Late ${lang}`);
      const date = form.getByLabel(app.documents.date, { exact: true });
      await date.click();
      await date.fill(typed(lang, "2026-10-15"));
      await date.press("Tab");
      await form.getByRole("button", { name: UI[lang].save, exact: true }).click();
      // The server writes the lock date as the app does (the refusal carries it as data).
      const expected = plain(
        SERVER[lang].issues.period_closed.replace("{{lockDate}}", formatDate(LOCK, lang)),
      );
      await expect.poll(() => page.getByTestId("document-date-error").innerText().then(plain)).toBe(expected);
      await shot(page, `payment-refused-${lang}`);
      const payments = (await rest(cookie, "GET", "/finance/payments?limit=100")) as unknown as {
        items: { comment: string }[];
      };
      expect(payments.items.filter((item) => item.comment === `Late ${lang}`)).toHaveLength(0);
      // The same payment on a day after the lock posts.
      await date.click();
      await date.fill(typed(lang, "2026-11-02"));
      await date.press("Enter");
      await form.waitFor({ state: "detached" });
      expect(errors).toEqual([]);
    });
  }

  it("a user without periods:update:all sees the date and no way to move it", async () => {
    const { cookie } = firms.en;
    const role = await rest(cookie, "POST", "/roles", {
      name: "Clerk",
      permissions: ["payments:create:all", "payments:read:all", "accounts:read:all"],
    });
    await rest(cookie, "POST", "/users", {
      email: "clerk@firm.uz",
      firstName: "Aziz",
      lastName: "Clerk",
      password: PASSWORD,
      roleIds: [role.id],
    });
    const clerk = await signIn("clerk@firm.uz");
    await clerk.page.getByRole("heading", { name: appEn.dashboard.title }).waitFor();
    await clerk.page.goto(`${server?.base}/app/closed-period`);
    await clerk.page.getByRole("heading", { name: appEn.closedPeriod.title }).waitFor();
    await expect
      .poll(() => clerk.page.getByTestId("closed-through").innerText().then(plain))
      .toBe(plain(formatDate(LOCK, "en")));
    await clerk.page.getByText(appEn.closedPeriod.noPermission).waitFor();
    expect(await clerk.page.getByTestId("closed-period-close").count()).toBe(0);
    await shot(clerk.page, "no-permission-en");
    await clerk.context.close();
  });
});
