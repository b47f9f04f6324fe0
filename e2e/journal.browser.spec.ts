import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { ru as appRu } from "../apps/accountant/src/renderer/locales/ru";
import { uz as appUz } from "../apps/accountant/src/renderer/locales/uz";
import { formatMoney } from "../packages/ui/src/money";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { firmSession } from "./firm-session";
import { confirmPopover } from "./popconfirm";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";

// Manual journal entries and revaluation in the accountant app (docs/decisions/0100-manual-journals-and-revaluation.md),
// in a real browser against the real server, in en, ru and uz: a rent accrual typed as the language
// writes amounts, its running difference shown until debits equal credits, saved as a draft, posted
// once, reversed; then the revaluation's preview of a USD account bought at 12,000 and revalued at
// 12,650 (a gain of 650,000.00 UZS), posted. Screenshots in .tmp/screenshots.

const SHOTS = path.join(ROOT, ".tmp/screenshots");
const APP = { en: appEn, ru: appRu, uz: appUz } as const;
type Lang = keyof typeof APP;
const LANGS: Lang[] = ["en", "ru", "uz"];
const PASSWORD = "Accountant-Passw0rd-2026";
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
/** An amount as a person of that language types it. */
const typedAmount = (lang: Lang, whole: string, fraction = "00") =>
  lang === "en"
    ? `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction}`
    : `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, " ")},${fraction}`;
const uzs = (minor: bigint, lang: Lang) => plain(formatMoney(minor, "UZS", 2, lang));

const skipReason = browserSkipReason();
if (skipReason) console.warn(`journal.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("journal entries and revaluation in the accountant app", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  const firms = {} as Record<Lang, { cookie: string; context: BrowserContext; page: Page; errors: string[] }>;

  const { login, rest, signIn } = firmSession({
    base: () => server?.base ?? "",
    browser: () => browser as Browser,
    password: PASSWORD,
    viewport: { width: 1366, height: 900 },
  });

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-journal-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = "owner@hisob.uz";
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env, { startTimeoutMs: 240_000 });
    browser = await launching;
    const platform = await login("owner@hisob.uz");
    for (const lang of LANGS) {
      const email = `books-${lang}@firm.uz`;
      await rest(platform, "POST", "/tenants", {
        name: `Firm ${lang}`,
        currencies: ["UZS", "USD"],
        admin: { email, firstName: "Dilnoza", lastName: "Karimova", password: PASSWORD, uiLanguage: lang },
      });
      const cookie = await login(email);
      await rest(cookie, "PUT", "/finance/ledger/chart", { template: "nas21" });
      const bank = await rest(cookie, "POST", "/finance/accounts", { name: "Bank", currency: "UZS" });
      const usd = await rest(cookie, "POST", "/finance/accounts", { name: "USD account", currency: "USD" });
      await rest(cookie, "PUT", `/finance/accounts/${bank.id}/opening-balance`, {
        amount: "2000000000",
        date: "2026-11-01",
      });
      // 12,000,000.00 UZS for 1,000.00 USD: booked at 12,000 UZS per USD.
      await rest(cookie, "POST", "/finance/exchanges", {
        fromAccountId: bank.id,
        toAccountId: usd.id,
        amount: "1200000000",
        amountReceived: "100000",
        date: "2026-11-02",
        confirmRate: true,
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

  const shot = async (page: Page, name: string) => {
    await expect.poll(() => page.locator(".ant-select-dropdown:visible").count()).toBe(0);
    if (await page.locator(".ant-modal").count())
      await expect
        .poll(() =>
          page
            .locator(".ant-modal")
            .first()
            .evaluate((el) => getComputedStyle(el).opacity),
        )
        .toBe("1");
    await page.screenshot({ path: path.join(SHOTS, `journal-${name}.png`), fullPage: true });
  };

  const pickAccount = async (page: Page, label: string, code: string) => {
    const select = page.getByLabel(label, { exact: true });
    await select.click();
    await select.fill(code);
    await page.locator(".ant-select-item-option-active:visible").filter({ hasText: code }).first().waitFor();
    await select.press("Enter");
  };

  for (const lang of LANGS) {
    it(`${lang}: an accrual shows its difference until it balances, is saved, posted once and reversed`, async () => {
      const { page, cookie, errors } = firms[lang];
      const app = APP[lang];
      const j = app.journal;
      await page.getByRole("navigation").getByRole("link", { name: app.nav.journal, exact: true }).click();
      await page.getByRole("heading", { name: j.title }).waitFor();
      await page.getByTestId("new-journal-entry").click();
      const form = page.getByRole("dialog");
      await form.getByLabel(j.memo, { exact: true }).fill(`Rent for November ${lang}`);
      // The landlord's invoice attached: uploaded as soon as it is chosen (docs/decisions/0111-books-features.md).
      const invoice = `rent-invoice-${lang}.txt`;
      await form.locator("input[type=file]").setInputFiles({
        name: invoice,
        mimeType: "text/plain",
        buffer: Buffer.from(`Rent for November, ${lang}: 5,000,000.00 UZS\n`),
      });
      await form.locator(".ant-upload-list-item-done", { hasText: invoice }).waitFor();
      const line = (n: number, field: string) => `${j.line.replace("{{n}}", String(n))}: ${field}`;
      await pickAccount(page, line(1, j.account), "9420");
      await form.getByLabel(line(1, j.debit), { exact: true }).fill(typedAmount(lang, "5000000"));
      await pickAccount(page, line(2, j.account), "6010");
      await form.getByLabel(line(2, j.credit), { exact: true }).fill(typedAmount(lang, "4999000"));
      // The running difference: 5,000,000.00 − 4,999,000.00 = 1,000.00 UZS.
      await expect
        .poll(() => form.getByTestId("journal-difference").innerText().then(plain))
        .toBe(`${j.difference}: ${uzs(100000n, lang)}`);
      await shot(page, `difference-${lang}`);
      await form.getByRole("button", { name: j.saveDraft, exact: true }).click();
      await expect
        .poll(() => form.getByTestId("form-error").innerText().then(plain))
        .toBe(j.differenceMustBeZero.replace("{{difference}}", uzs(100000n, lang)));
      expect(((await rest(cookie, "GET", "/finance/journal-entries")) as { total: number }).total).toBe(0);
      await form.getByLabel(line(2, j.credit), { exact: true }).fill(typedAmount(lang, "5000000"));
      await expect.poll(() => form.getByTestId("journal-difference").innerText()).toBe(j.balanced);
      await form.getByRole("button", { name: j.saveDraft, exact: true }).click();
      await form.waitFor({ state: "detached" });

      await page.waitForURL(/\/app\/journal\/[0-9a-f-]{36}$/);
      const id = page.url().split("/").pop() ?? "";
      await expect.poll(() => page.getByTestId("journal-state").innerText()).toBe(j.states.draft);
      await expect
        .poll(() => page.getByTestId("journal-total").innerText().then(plain))
        .toBe(uzs(500000000n, lang));
      // The attachment on the entry's view, downloaded by its name.
      const attachment = page.getByTestId("attachment-download");
      await expect.poll(() => attachment.innerText()).toBe(invoice);
      const [download] = await Promise.all([page.waitForEvent("download"), attachment.click()]);
      expect(download.suggestedFilename()).toBe(invoice);
      expect(
        ((await rest(cookie, "GET", `/finance/journal-entries/${id}`)) as { attachments: { name: string }[] })
          .attachments,
      ).toMatchObject([{ name: invoice }]);
      await shot(page, `draft-${lang}`);

      await page.getByTestId("post-journal-entry").click();
      await confirmPopover(page, j.postConfirm);
      await expect.poll(() => page.getByTestId("journal-state").innerText()).toBe(j.states.posted);
      const posted = await rest(cookie, "GET", `/finance/journal-entries/${id}`);
      expect(posted).toMatchObject({ state: "posted", total: "500000000" });
      const trial = (await rest(
        cookie,
        "GET",
        "/finance/ledger/trial-balance?startDate=2026-11-01&endDate=2026-12-31",
      )) as {
        rows: { code: string; debit: string; credit: string }[];
        balanced: boolean;
      };
      expect(trial.rows.find((row) => row.code === "9420")).toMatchObject({ debit: "500000000" });
      expect(trial.balanced).toBe(true);
      await shot(page, `posted-${lang}`);

      await page.getByTestId("reverse-journal-entry").click();
      const reverse = page.getByRole("dialog");
      await reverse.getByText(j.reverseIntro).waitFor();
      await shot(page, `reverse-${lang}`);
      await reverse.getByRole("button", { name: j.reverse, exact: true }).click();
      await reverse.waitFor({ state: "detached" });
      await page.getByTestId("reversal-of").waitFor();
      await expect
        .poll(() => page.getByTestId("reversal-of").innerText())
        .toBe(j.reversalOf.replace("{{number}}", String(posted.number)));
      expect(await rest(cookie, "GET", `/finance/journal-entries/${id}`)).toMatchObject({
        state: "reversed",
      });
      await shot(page, `reversal-${lang}`);
      expect(errors).toEqual([]);
    });

    it(`${lang}: the revaluation previews a gain of 650,000.00 UZS at 12,650 and posts it`, async () => {
      const { page, cookie, errors } = firms[lang];
      const j = APP[lang].journal;
      await page.getByRole("link", { name: j.back }).click();
      await page.getByRole("heading", { name: j.title }).waitFor();
      await page.getByTestId("revalue").click();
      const dialog = page.getByRole("dialog");
      // At the last known rate (the purchase's 12,000) there is nothing to revalue.
      await expect
        .poll(() => dialog.getByTestId("revaluation-difference-USD").innerText().then(plain))
        .toBe(uzs(0n, lang));
      await dialog
        .getByLabel(
          `${j.revaluation.rate}: ${j.rateHint.replace("{{base}}", "UZS").replace("{{currency}}", "USD")}`,
          { exact: true },
        )
        .fill(lang === "en" ? "12,650" : "12 650");
      await expect
        .poll(() => dialog.getByTestId("revaluation-difference-USD").innerText().then(plain))
        .toBe(uzs(65000000n, lang));
      await expect
        .poll(() => dialog.getByTestId("revaluation-totals").innerText().then(plain))
        .toContain(uzs(65000000n, lang));
      await shot(page, `revaluation-preview-${lang}`);
      expect(
        ((await rest(cookie, "GET", "/finance/journal-entries?kind=revaluation")) as { total: number }).total,
      ).toBe(0);
      await dialog.getByRole("button", { name: j.revaluation.post, exact: true }).click();
      await dialog.waitFor({ state: "detached" });
      await page.waitForURL(/\/app\/journal\/[0-9a-f-]{36}$/);
      await expect.poll(() => page.getByTestId("journal-state").innerText()).toBe(j.states.posted);
      await expect
        .poll(() => page.getByTestId("journal-total").innerText().then(plain))
        .toBe(uzs(65000000n, lang));
      const list = (await rest(cookie, "GET", "/finance/journal-entries?kind=revaluation")) as {
        items: { total: string; state: string }[];
      };
      expect(list.items).toEqual([expect.objectContaining({ total: "65000000", state: "posted" })]);
      expect((await rest(cookie, "GET", "/finance/reconcile")).ok).toBe(true);
      await shot(page, `revaluation-posted-${lang}`);

      await page.getByRole("link", { name: j.back }).click();
      await page.getByTestId("journal-table").waitFor();
      await expect.poll(() => page.getByTestId("journal-table").locator("tbody tr").count()).toBe(3);
      await shot(page, `list-${lang}`);
      expect(errors).toEqual([]);
    });
  }
});
