import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectFieldError } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * A rate that values an amount beyond what an amount can hold (docs/decisions/0100-manual-journals-and-revaluation.md)
 * is a 400 field error on that rate, in the caller's language, from the journal's create and update and
 * from the revaluation preview — never a 500. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestApp;
let tenantId: string;
let admin: SeededUser;
const call = caller(() => t);
const chart: Record<string, string> = {};

const ok = async (method: "POST" | "PUT", url: string, body?: unknown) => {
  const res = await call(admin, method, url, body);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json() as Record<string, unknown>;
};

beforeAll(async () => {
  t = await createTestApp();
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  await ok("PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
  await t.db.withTenant(tenantId, (tx) =>
    tx.tenantSetting.upsert({
      where: { tenantId },
      create: { tenantId, baseCurrencyCode: "UZS" },
      update: { baseCurrencyCode: "UZS" },
    }),
  );
  await ok("PUT", "/finance/ledger/chart", { template: "nas21" });
  const accounts = (await call(admin, "GET", "/finance/ledger/accounts")).json() as Array<{
    id: string;
    code: string;
  }>;
  for (const account of accounts) chart[account.code] = account.id;
  chart["9483"] = (
    await ok("POST", "/finance/ledger/accounts", {
      code: "9483",
      nameEn: "Dollar expense",
      nameRu: "Долларовый расход",
      nameUz: "Dollar xarajati",
      type: "expense",
      parentId: chart["9400"],
      currency: "USD",
    })
  ).id as string;
  const usd = (await ok("POST", "/finance/accounts", { name: "USD", currency: "USD" })).id as string;
  // 1,000,000,000.00 USD: at the largest rate its value is beyond int64.
  await ok("PUT", `/finance/accounts/${usd}/opening-balance`, { amount: "100000000000", date: "2026-11-01" });
});
afterAll(async () => t?.close());

const overflowing = {
  date: "2026-11-20",
  lines: [
    { glAccountId: "", debit: "1000000000000", rate: "999999999999" },
    { glAccountId: "", credit: "1" },
  ],
};
const lines = () => [
  { ...overflowing.lines[0], glAccountId: chart["9483"] },
  { ...overflowing.lines[1], glAccountId: chart["9430"] },
];

describe("a rate beyond what an amount can hold", () => {
  it("is a 400 on lines.N.rate from create and update, in en, ru and uz", async () => {
    const created = await call(admin, "POST", "/finance/journal-entries", { ...overflowing, lines: lines() });
    const error = expectFieldError(created, "lines.0.rate", "finance.rate_overflow");
    expect(error.message).toContain("lines.0.rate");
    const draft = await ok("POST", "/finance/journal-entries", {
      date: "2026-11-20",
      lines: [
        { glAccountId: chart["9420"], debit: "100" },
        { glAccountId: chart["9430"], credit: "100" },
      ],
    });
    const updated = await call(admin, "PUT", `/finance/journal-entries/${draft.id as string}`, {
      lines: lines(),
    });
    expectFieldError(updated, "lines.0.rate", "finance.rate_overflow");
    // The signed-in user's profile language decides the message's language.
    const expected = {
      en: "values the amount beyond the largest amount that can be stored",
      ru: "даёт сумму больше наибольшей, которую можно сохранить",
      uz: "saqlash mumkin boʻlgan eng katta summadan ortiq summa beradi",
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const user = await t.createUser(tenantId, "admin");
      await t.db.withTenant(tenantId, (tx) =>
        tx.user.update({ where: { id: user.id }, data: { uiLanguage: locale } }),
      );
      const res = await call(user, "POST", "/finance/journal-entries", { ...overflowing, lines: lines() });
      const localized = expectFieldError(res, "lines.0.rate", "finance.rate_overflow");
      expect(localized.message).toContain(expected[locale]);
    }
  });

  it("is a 400 on the rate from the revaluation preview", async () => {
    const res = await call(
      admin,
      "GET",
      "/finance/revaluation/preview?date=2026-11-20&rates=USD:999999999999",
    );
    expect(res.statusCode, res.body).toBe(400);
    expectFieldError(res, "rates.0.rate", "finance.rate_overflow");
  });
});
