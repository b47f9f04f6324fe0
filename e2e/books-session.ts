import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium, requireChromium } from "./browser";
import { freePort, serverEnv, startServer } from "./server-process";

/*
 * A server started the README's way on a fresh embedded database, a month of books seeded over REST
 * (UZS and USD accounts, an opening balance, payments and expenses with categories, counterparties
 * and a long comment, a transfer reversed with its reason), and a browser signed in through the
 * login page: what the browser suites of the statement, lists and accessibility share.
 */

export const EMAIL = "accountant@firm.uz";
export const PASSWORD = "Accountant-Passw0rd-2026";
export const ORGANIZATION = "Hisob";
export const LONG_COMMENT =
  "Payment for the consulting services of October under contract 17/2026, second instalment, bank reference 4471-0099";
export const REVERSAL_REASON = "Typed the wrong account";

const iso = (date: Date) => date.toISOString().slice(0, 10);
/** Day `day` of the month `back` months before this one (clamped to the month's last day). */
export const dayOf = (back: number, day: number) => {
  const now = new Date();
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, Math.min(day, last))));
};
/** Today, or the seed's day `day` of this month if that is not later than today. */
export const thisMonthDay = (day: number) => {
  const today = iso(new Date());
  const wanted = dayOf(0, day);
  return wanted <= today ? wanted : today;
};

export type Books = {
  base: string;
  cookie: string;
  ids: Record<"kassa" | "bank" | "dollars" | "sales" | "rent" | "client", string>;
  /** Kassa's entries by month: payments this month and last month, an expense, the reversed transfer. */
  payments: { thisMonth: number; lastMonth: number; kassaSum: bigint; salesSum: bigint; salesCount: number };
  call(method: string, route: string, body?: unknown): Promise<Response>;
};

export const startBooks = async (dataPrefix: string) => {
  requireChromium();
  const dataDir = mkdtempSync(path.join(tmpdir(), dataPrefix));
  const env = serverEnv(dataDir, await freePort());
  env.ADMIN_EMAIL = EMAIL;
  env.ADMIN_PASSWORD = PASSWORD;
  const launching = launchChromium();
  launching.catch(() => undefined);
  // On a loaded machine the server's start can take well over the default 90 s, as in the other suites.
  const server = await startServer(env, { startTimeoutMs: 240_000 });
  const browser: Browser = await launching;
  const login = await fetch(`${server.base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${server.base}${route}`, {
      method,
      headers: { "content-type": "application/json", cookie },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const post = async (route: string, body: unknown) => {
    const response = await call("POST", route, body);
    expect(response.status, `${route}: ${await response.clone().text()}`).toBe(201);
    return (await response.json()) as { id: string };
  };
  expect((await call("PUT", "/tenant/currencies", { codes: ["UZS", "USD"] })).status).toBe(200);
  const ids = {
    kassa: (await post("/finance/accounts", { name: "Kassa", currency: "UZS" })).id,
    bank: (await post("/finance/accounts", { name: "Bank", currency: "UZS" })).id,
    dollars: (await post("/finance/accounts", { name: "Dollars", currency: "USD" })).id,
    sales: (await post("/finance/payment-categories", { name: "Sales" })).id,
    rent: (await post("/finance/expense-categories", { name: "Rent" })).id,
    client: (await post("/finance/counterparties", { name: "Client A", tin: "300000001" })).id,
  };
  expect(
    (
      await call("PUT", `/finance/accounts/${ids.kassa}/opening-balance`, {
        amount: "500000000",
        date: dayOf(2, 5),
      })
    ).status,
  ).toBe(200);
  // 25 payments into Kassa (more than a page of 20), 10 of them last month; every other one is a sale,
  // and so is the last (its comment is long), which also has a counterparty.
  const payments = { thisMonth: 0, lastMonth: 0, kassaSum: 0n, salesSum: 0n, salesCount: 0 };
  for (let i = 1; i <= 25; i += 1) {
    const lastMonth = i <= 10;
    const amount = BigInt(i) * 1_000_000n + 50n;
    const isSale = i % 2 === 0 || i === 25;
    await post("/finance/payments", {
      accountId: ids.kassa,
      amount: amount.toString(),
      date: lastMonth ? dayOf(1, 1 + i) : thisMonthDay(1 + ((i - 10) % 3)),
      categoryId: isSale ? ids.sales : null,
      counterpartyId: i % 5 === 0 ? ids.client : null,
      comment: i === 25 ? LONG_COMMENT : `Invoice ${i}`,
    });
    payments[lastMonth ? "lastMonth" : "thisMonth"] += 1;
    payments.kassaSum += amount;
    if (isSale) {
      payments.salesSum += amount;
      payments.salesCount += 1;
    }
  }
  await post("/finance/payments", { accountId: ids.dollars, amount: "150000", date: thisMonthDay(1) });
  await post("/finance/expenses", {
    accountId: ids.kassa,
    amount: "120000000",
    date: thisMonthDay(2),
    categoryId: ids.rent,
    comment: "Office rent",
  });
  const transfer = await post("/finance/transfers", {
    fromAccountId: ids.kassa,
    toAccountId: ids.bank,
    amount: "30000000",
    date: thisMonthDay(3),
    comment: "To the bank",
  });
  await post(`/finance/transfers/${transfer.id}/reversal`, { reason: REVERSAL_REASON });
  await post("/finance/debts", {
    kind: "receivable",
    counterpartyId: ids.client,
    amount: "75000000",
    currency: "UZS",
    dueDate: dayOf(-1, 10),
  });

  const books: Books = { base: server.base, cookie, ids, payments, call };
  const stop = async () => {
    await browser.close();
    const result = await server.stop();
    if (result.code !== 0) console.error(result.stderr);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { books, browser, stop };
};

/** Signs in through the login page at /app; the browser lands on the dashboard. */
export const signIn = async (page: Page, base: string) => {
  await page.goto(`${base}/app/`);
  await page.waitForURL(/\/login\?/);
  await page.fill("#email", EMAIL);
  await page.fill("#password", PASSWORD);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/app\//);
  await page.getByRole("navigation").waitFor();
};

/** Every request of a page that failed (4xx/5xx), e.g. a missing /favicon.ico. */
export const watchFailedRequests = (page: Page) => {
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  return failed;
};

/**
 * What `settled` waits to see gone: spinners, skeletons, motions (rc-motion's appear/enter classes),
 * and boxes still busy (a report's chart before it draws, decision 0108).
 */
const UNSETTLED =
  '.ant-spin-spinning, .ant-skeleton-active, [class*=-appear], [class*=-enter], .ant-zoom-appear, .ant-modal-mask-hidden, [aria-busy="true"]';

/**
 * Waits until no spinner, skeleton or opening animation is left on the page. While it waits it reads
 * what still matches as tag and class, so a failure names the elements (e.g. `div.ant-spin-spinning`).
 */
export const settled = async (page: Page) => {
  await expect
    .poll(
      () =>
        page
          .locator(UNSETTLED)
          .evaluateAll((elements) =>
            elements.map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`),
          ),
      // A report on a loaded machine may spin for a while; this waits on the state, not on time.
      { timeout: 60_000, message: "elements still loading or moving" },
    )
    .toEqual([]);
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".ant-spin-container, .ant-modal")].every(
      (el) => getComputedStyle(el).opacity === "1",
    ),
  );
};

/**
 * What axe-core (WCAG 2.1 A and AA, and the best practices) finds on the page as it is: each
 * violation's rule, impact and the elements it names, ready for an assertion message.
 */
export const axeViolations = async (page: Page, screen: string): Promise<string[]> => {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map(
    (violation) =>
      `${screen}: ${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map(
          (node) =>
            `    ${node.target.join(" ")} ${node.failureSummary?.split("\n").slice(1, 2).join("") ?? ""}`,
        )
        .join("\n")}`,
  );
};
