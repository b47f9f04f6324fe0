import type { Locale } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, TODAY, unique } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * What a person reads: amounts in messages in major units and the language's money format, and
 * validation details in the caller's language. The signed-in user's profile language decides.
 */

let t: TestApp;
let tenant: { id: string };
const users = {} as Record<Locale, SeededUser>;
const call = caller(() => t);

/** NBSP-tolerant: Intl separates thousands with no-break spaces in ru and uz. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  for (const locale of ["en", "ru", "uz"] as const) {
    users[locale] = await t.createUser(tenant.id, "admin");
    await t.db.withTenant(tenant.id, (tx) =>
      tx.user.update({ where: { id: users[locale].id }, data: { uiLanguage: locale } }),
    );
  }
  const res = await call(users.en, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
  expect(res.statusCode, res.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

const createAccount = async (currency: string, funds: string) => {
  const res = await call(users.en, "POST", "/finance/accounts", { name: unique("Cash"), currency });
  expect(res.statusCode, res.body).toBe(201);
  const account = res.json() as { id: string; name: string };
  const paid = await call(users.en, "POST", "/finance/payments", {
    accountId: account.id,
    amount: funds,
    date: TODAY,
  });
  expect(paid.statusCode, paid.body).toBe(201);
  return account;
};

describe("amounts in messages", () => {
  it("over-settling a debt names what is outstanding in major units, in en, ru and uz", async () => {
    const counterparty = (await call(users.en, "POST", "/finance/counterparties", { name: "Debtor" })).json();
    const account = await createAccount("UZS", "1");
    const debt = (
      await call(users.en, "POST", "/finance/debts", {
        kind: "receivable",
        counterpartyId: counterparty.id,
        amount: "2000000000",
        currency: "UZS",
      })
    ).json() as { id: string };
    const expected: Record<Locale, string> = {
      en: "The amount is more than what is outstanding on the debt (UZS 20,000,000.00).",
      ru: "Сумма больше остатка долга (20 000 000,00 UZS).",
      uz: "Summa qarzning qoldigʻidan (20 000 000,00 UZS) koʻp.",
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const error = expectError(
        await call(users[locale], "POST", `/finance/debts/${debt.id}/settle`, {
          amount: "2000000001",
          accountId: account.id,
          date: TODAY,
        }),
        422,
        "BUSINESS_RULE",
        "finance.debt_over_settlement",
      );
      expect(plain(error.message)).toBe(expected[locale]);
    }
  });

  it("an expense beyond the balance names what is available, in en, ru and uz", async () => {
    const account = await createAccount("USD", "500000");
    const expected: Record<Locale, string> = {
      en: `Insufficient balance on account "${account.name}": USD 5,000.00 available.`,
      ru: `Недостаточно средств на счёте «${account.name}»: доступно 5 000,00 USD.`,
      uz: `«${account.name}» hisobida mablagʻ yetarli emas: 5 000,00 USD mavjud.`,
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const error = expectError(
        await call(users[locale], "POST", "/finance/expenses", {
          accountId: account.id,
          amount: "500001",
          date: TODAY,
        }),
        422,
        "BUSINESS_RULE",
        "finance.insufficient_balance",
      );
      expect(plain(error.message)).toBe(expected[locale]);
    }
  });
});

type Issue = { path: string; message: string };

describe("validation details in the caller's language", () => {
  const body = { accountId: "not-a-uuid", amount: "-5", date: "2026-13-01" };
  const expected: Record<Locale, Issue[]> = {
    en: [
      { path: "accountId", message: "must be a UUID" },
      { path: "amount", message: "must be positive" },
      { path: "date", message: "must be a date (YYYY-MM-DD)" },
    ],
    ru: [
      { path: "accountId", message: "должно быть UUID" },
      { path: "amount", message: "должно быть положительным" },
      { path: "date", message: "должно быть датой (ГГГГ-ММ-ДД)" },
    ],
    uz: [
      { path: "accountId", message: "UUID boʻlishi kerak" },
      { path: "amount", message: "musbat boʻlishi kerak" },
      { path: "date", message: "sana (YYYY-MM-DD) boʻlishi kerak" },
    ],
  };
  const sorted = (issues: Issue[]) => [...issues].sort((a, b) => a.path.localeCompare(b.path));

  it("REST: issues[].message in en (unchanged), ru and uz", async () => {
    for (const locale of ["en", "ru", "uz"] as const) {
      const res = await call(users[locale], "POST", "/finance/payments", body);
      const error = expectError(res, 400, "VALIDATION_ERROR");
      expect(sorted(error.issues as Issue[])).toEqual(expected[locale]);
    }
  });

  it("tRPC: data.issues[].message in en (unchanged), ru and uz", async () => {
    for (const locale of ["en", "ru", "uz"] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/trpc/payments.create",
        headers: { ...users[locale].headers, "content-type": "application/json" },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(400);
      const data = res.json().error.data as { appCode: string; issues: Issue[] };
      expect(data.appCode).toBe("VALIDATION_ERROR");
      expect(sorted(data.issues)).toEqual(expected[locale]);
    }
  });

  it("GraphQL: extensions.issues[].message in the caller's language", async () => {
    for (const locale of ["en", "ru", "uz"] as const) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/graphql",
        headers: { ...users[locale].headers, "content-type": "application/json" },
        payload: {
          query: "mutation($input: DocumentInput!) { createPayment(input: $input) { id } }",
          variables: { input: body },
        },
      });
      const [error] = res.json().errors as Array<{ extensions: { code: string; issues?: Issue[] } }>;
      expect(error?.extensions.code, res.body).toBe("VALIDATION_ERROR");
      expect(sorted(error?.extensions.issues ?? [])).toEqual(expected[locale]);
    }
  });
});
