import type { Outbox } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import type { DispatchedEvent, TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError, expectFieldError, MISSING_ID, TODAY } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The finance ledger over REST: accounts, payments, expenses, transfers, exchanges, balances and
 * reconcile, on whichever database the run uses (PGlite, or PostgreSQL with DATABASE_URL).
 */

let t: TestApp;
let tenantA: { id: string };
let tenantB: { id: string };
let adminA: SeededUser;
let adminB: SeededUser;

const call = caller(() => t);

type Account = { id: string; name: string; currency: string; balance: string; allowOverdraft: boolean };
type Doc = {
  id: string;
  accountId: string;
  amount: string;
  currency: string;
  date: string;
  transactionId: string;
};
type Entry = {
  id: string;
  type: string;
  amount: string;
  destinationAmount: string | null;
  exchangeRate: string | null;
  change?: string;
  paymentId: string | null;
  expenseId: string | null;
};

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${Math.random().toString(36).slice(2, 7)}`;

const createAccount = async (
  caller: SeededUser,
  currency = "UZS",
  extra: Record<string, unknown> = {},
): Promise<Account> => {
  const res = await call(caller, "POST", "/finance/accounts", {
    name: unique("Account"),
    currency,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const balanceOf = async (caller: SeededUser, id: string): Promise<string> =>
  (await call(caller, "GET", `/finance/accounts/${id}`)).json().balance;
const pay = async (
  caller: SeededUser,
  accountId: string,
  amount: string,
  extra: Record<string, unknown> = {},
) => {
  const res = await call(caller, "POST", "/finance/payments", { accountId, amount, date: TODAY, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Doc;
};
const spend = (caller: SeededUser, accountId: string, amount: string, extra: Record<string, unknown> = {}) =>
  call(caller, "POST", "/finance/expenses", { accountId, amount, date: TODAY, ...extra });
const entriesOf = async (caller: SeededUser, accountId: string, query = ""): Promise<Entry[]> => {
  const res = await call(caller, "GET", `/finance/accounts/${accountId}/transactions?limit=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
};
/** Rows of the tenant's ledger tables, to prove a refused request wrote nothing. */
const ledgerCounts = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    transactions: await tx.financeTransaction.count(),
    payments: await tx.payment.count(),
    expenses: await tx.expense.count(),
    events: await tx.outboxEvent.count({ where: { tenantId } }),
  }));

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant();
  tenantB = await t.createTenant();
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
  for (const admin of [adminA, adminB]) {
    const res = await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD", "EUR"] });
    expect(res.statusCode, res.body).toBe(200);
  }
});

afterAll(async () => {
  await t?.close();
});

describe("money accounts", () => {
  it("creates an account in a selected currency with a zero balance, lists and reads it", async () => {
    const name = unique("Kassa");
    const res = await call(adminA, "POST", "/finance/accounts", {
      name,
      number: "20208000900100001001",
      currency: "UZS",
      description: "Main cash desk",
    });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json();
    expect(account).toMatchObject({ name, currency: "UZS", balance: "0", allowOverdraft: false });
    expect((await call(adminA, "GET", `/finance/accounts/${account.id}`)).json()).toEqual(account);
    const list = await call(adminA, "GET", `/finance/accounts?search=${encodeURIComponent(name)}`);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: account.id }] });
    const byNumber = await call(adminA, "GET", "/finance/accounts?search=0900100001&currency=UZS");
    expect(byNumber.json().items.map((item: Account) => item.id)).toContain(account.id);
  });

  it("refuses a currency the organization does not use, a malformed one, and a duplicate name", async () => {
    expectFieldError(
      await call(adminA, "POST", "/finance/accounts", { name: unique("A"), currency: "RUB" }),
      "currency",
      "finance.currency_not_selected",
    );
    expectFieldError(
      await call(adminA, "POST", "/finance/accounts", { name: unique("A"), currency: "usd" }),
      "currency",
    );
    expectFieldError(await call(adminA, "POST", "/finance/accounts", { name: unique("A") }), "currency");
    expectFieldError(await call(adminA, "POST", "/finance/accounts", { name: "", currency: "UZS" }), "name");
    expectFieldError(
      await call(adminA, "POST", "/finance/accounts", { name: "x".repeat(101), currency: "UZS" }),
      "name",
    );
    expectFieldError(
      await call(adminA, "POST", "/finance/accounts", { name: unique("A"), currency: "UZS", balance: "100" }),
      "balance",
    );
    const account = await createAccount(adminA);
    expectError(
      await call(adminA, "POST", "/finance/accounts", { name: account.name, currency: "USD" }),
      409,
      "CONFLICT",
      "finance.account_name_taken",
    );
  });

  it("updates name and overdraft; overdraft cannot be turned off below zero", async () => {
    const account = await createAccount(adminA, "UZS", { allowOverdraft: true });
    expect((await spend(adminA, account.id, "500")).statusCode).toBe(201);
    expect(await balanceOf(adminA, account.id)).toBe("-500");
    expectError(
      await call(adminA, "PUT", `/finance/accounts/${account.id}`, { allowOverdraft: false }),
      422,
      "BUSINESS_RULE",
      "finance.account_negative",
    );
    await pay(adminA, account.id, "500");
    const res = await call(adminA, "PUT", `/finance/accounts/${account.id}`, {
      allowOverdraft: false,
      name: `${account.name} (closed)`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      allowOverdraft: false,
      name: `${account.name} (closed)`,
      balance: "0",
    });
    expectFieldError(
      await call(adminA, "PUT", `/finance/accounts/${account.id}`, { currency: "USD" }),
      "currency",
    );
  });

  it("deletes only an account nothing was posted to", async () => {
    const empty = await createAccount(adminA);
    expect((await call(adminA, "DELETE", `/finance/accounts/${empty.id}`)).statusCode).toBe(204);
    expectError(await call(adminA, "GET", `/finance/accounts/${empty.id}`), 404, "NOT_FOUND");
    const used = await createAccount(adminA);
    await pay(adminA, used.id, "1");
    expectError(
      await call(adminA, "DELETE", `/finance/accounts/${used.id}`),
      409,
      "CONFLICT",
      "finance.account_in_use",
    );
  });

  it("keeps a currency selected while an account uses it", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
    await createAccount(admin, "USD");
    expectError(
      await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] }),
      409,
      "CONFLICT",
      "currency.in_use",
    );
    expect(
      (await call(admin, "GET", "/tenant/currencies")).json().map((c: { code: string }) => c.code),
    ).toEqual(["USD", "UZS"]);
  });
});

describe("payments and expenses", () => {
  it("a payment inserts itself and its income entry and raises the balance", async () => {
    const account = await createAccount(adminA);
    const payment = await pay(adminA, account.id, "1250000", { comment: "Invoice 17" });
    expect(payment).toMatchObject({ accountId: account.id, amount: "1250000", currency: "UZS", date: TODAY });
    expect(await balanceOf(adminA, account.id)).toBe("1250000");
    const [entry] = await entriesOf(adminA, account.id);
    expect(entry).toMatchObject({
      id: payment.transactionId,
      type: "income",
      amount: "1250000",
      change: "1250000",
      paymentId: payment.id,
      expenseId: null,
    });
    expect((await call(adminA, "GET", `/finance/payments/${payment.id}`)).json()).toEqual(payment);
  });

  it("an expense posts an expense entry out of the account", async () => {
    const account = await createAccount(adminA);
    await pay(adminA, account.id, "1000");
    const res = await spend(adminA, account.id, "400", { comment: "Paper" });
    expect(res.statusCode, res.body).toBe(201);
    expect(await balanceOf(adminA, account.id)).toBe("600");
    const entries = await entriesOf(adminA, account.id, "&type=expense");
    expect(entries).toMatchObject([
      { type: "expense", amount: "400", change: "-400", expenseId: res.json().id },
    ]);
  });

  it("an expense beyond a non-overdraft balance is a business-rule error and writes nothing", async () => {
    const account = await createAccount(adminA);
    await pay(adminA, account.id, "100");
    const before = await ledgerCounts(tenantA.id);
    const error = expectError(
      await spend(adminA, account.id, "101"),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(error.message).toContain("Insufficient balance");
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, account.id)).toBe("100");
    // Exactly the balance is fine; an overdraft account may go below zero.
    expect((await spend(adminA, account.id, "100")).statusCode).toBe(201);
    const overdraft = await createAccount(adminA, "UZS", { allowOverdraft: true });
    expect((await spend(adminA, overdraft.id, "700")).statusCode).toBe(201);
    expect(await balanceOf(adminA, overdraft.id)).toBe("-700");
  });

  it("the insufficient-balance message is in the caller's language", async () => {
    const account = await createAccount(adminA);
    const russian = await t.createUser(tenantA.id, ["expenses:create:all"]);
    await call(russian, "PUT", "/account", { uiLanguage: "ru" });
    const res = await call(russian, "POST", "/finance/expenses", {
      accountId: account.id,
      amount: "1",
      date: TODAY,
    });
    // Names the account and what it holds, in Russian money format.
    expect(res.json().error.message).toBe(
      `Недостаточно средств на счёте «${account.name}»: доступно 0,00\u00a0UZS.`,
    );
  });

  it("updating a payment moves the balance by the difference, or between accounts", async () => {
    const first = await createAccount(adminA);
    const second = await createAccount(adminA);
    const payment = await pay(adminA, first.id, "1000");
    let res = await call(adminA, "PUT", `/finance/payments/${payment.id}`, {
      amount: "1500",
      date: "2026-11-01",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ amount: "1500", date: "2026-11-01" });
    expect(await balanceOf(adminA, first.id)).toBe("1500");
    res = await call(adminA, "PUT", `/finance/payments/${payment.id}`, {
      accountId: second.id,
      amount: "200",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(adminA, first.id)).toBe("0");
    expect(await balanceOf(adminA, second.id)).toBe("200");
    const [entry] = await entriesOf(adminA, second.id);
    expect(entry).toMatchObject({ id: payment.transactionId, amount: "200", change: "200" });
    expect(await entriesOf(adminA, first.id)).toEqual([]);
  });

  it("deleting a payment takes its money back; refused if it was already spent", async () => {
    const account = await createAccount(adminA);
    const spent = await pay(adminA, account.id, "300");
    const kept = await pay(adminA, account.id, "100");
    expect((await spend(adminA, account.id, "250")).statusCode).toBe(201);
    expectError(
      await call(adminA, "DELETE", `/finance/payments/${spent.id}`),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(await balanceOf(adminA, account.id)).toBe("150");
    expect((await call(adminA, "DELETE", `/finance/payments/${kept.id}`)).statusCode).toBe(204);
    expect(await balanceOf(adminA, account.id)).toBe("50");
    expectError(
      await call(adminA, "GET", `/finance/payments/${kept.id}`),
      404,
      "NOT_FOUND",
      "finance.payment_not_found",
    );
    expect((await entriesOf(adminA, account.id)).map((entry) => entry.paymentId)).not.toContain(kept.id);
  });

  it("updating or deleting an expense adjusts the balance the other way", async () => {
    const account = await createAccount(adminA);
    await pay(adminA, account.id, "1000");
    const expense = (await spend(adminA, account.id, "400")).json() as Doc;
    expect((await call(adminA, "PUT", `/finance/expenses/${expense.id}`, { amount: "900" })).statusCode).toBe(
      200,
    );
    expect(await balanceOf(adminA, account.id)).toBe("100");
    expectError(
      await call(adminA, "PUT", `/finance/expenses/${expense.id}`, { amount: "1001" }),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect((await call(adminA, "DELETE", `/finance/expenses/${expense.id}`)).statusCode).toBe(204);
    expect(await balanceOf(adminA, account.id)).toBe("1000");
  });

  it("lists payments with filters, sorted and paginated", async () => {
    const account = await createAccount(adminA);
    await pay(adminA, account.id, "30", { date: "2026-01-03" });
    await pay(adminA, account.id, "10", { date: "2026-01-01" });
    await pay(adminA, account.id, "20", { date: "2026-01-02" });
    const url = `/finance/payments?accountId=${account.id}`;
    const byDate = (await call(adminA, "GET", `${url}&sortBy=date&order=asc`)).json();
    expect(byDate.total).toBe(3);
    expect(byDate.items.map((item: Doc) => item.amount)).toEqual(["10", "20", "30"]);
    const ranged = (await call(adminA, "GET", `${url}&from=2026-01-02&to=2026-01-02`)).json();
    expect(ranged.items.map((item: Doc) => item.amount)).toEqual(["20"]);
    const page = (await call(adminA, "GET", `${url}&sortBy=amount&order=desc&limit=1&offset=1`)).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1, items: [{ amount: "20" }] });
    expectFieldError(await call(adminA, "GET", `${url}&from=2026-02-01&to=2026-01-01`), "to");
    expectFieldError(await call(adminA, "GET", `${url}&sortBy=balance`), "sortBy");
  });

  it("a stated currency must be the account's", async () => {
    const account = await createAccount(adminA, "USD");
    expectFieldError(
      await call(adminA, "POST", "/finance/payments", {
        accountId: account.id,
        amount: "1",
        currency: "UZS",
        date: TODAY,
      }),
      "currency",
      "finance.currency_mismatch",
    );
    const res = await call(adminA, "POST", "/finance/payments", {
      accountId: account.id,
      amount: "1",
      currency: "USD",
      date: TODAY,
    });
    expect(res.json()).toMatchObject({ currency: "USD" });
  });
});

describe("bad input is refused, names the field and writes nothing", () => {
  let account: Account;
  beforeAll(async () => {
    account = await createAccount(adminA);
    await pay(adminA, account.id, "1000");
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["zero amount", { amount: "0" }, "amount"],
    ["negative amount", { amount: "-5" }, "amount"],
    ["fractional amount", { amount: "1.5" }, "amount"],
    ["amount as a JSON number", { amount: 100 }, "amount"],
    ["amount beyond int64", { amount: "9223372036854775808" }, "amount"],
    ["amount with leading zeros", { amount: "007" }, "amount"],
    ["amount with spaces", { amount: " 5" }, "amount"],
    ["amount in exponent form", { amount: "1e3" }, "amount"],
    ["a huge string amount", { amount: "9".repeat(10_000) }, "amount"],
    ["missing amount", { amount: undefined }, "amount"],
    ["date that is not a date", { date: "yesterday" }, "date"],
    ["February 30th", { date: "2026-02-30" }, "date"],
    ["February 29th of a common year", { date: "2025-02-29" }, "date"],
    ["date-time instead of a date", { date: "2026-11-22T10:00:00Z" }, "date"],
    ["missing date", { date: undefined }, "date"],
    ["account id that is not a UUID", { accountId: "' OR 1=1 --" }, "accountId"],
    ["unknown account", { accountId: MISSING_ID }, "accountId"],
    ["unknown counterparty", { counterpartyId: MISSING_ID }, "counterpartyId"],
    ["unknown category", { categoryId: MISSING_ID }, "categoryId"],
    ["currency not in ISO form", { currency: "dollars" }, "currency"],
    ["comment too long", { comment: "x".repeat(1001) }, "comment"],
    ["an unknown field", { balance: "5" }, "balance"],
  ];

  for (const kind of ["payments", "expenses"] as const) {
    it.each(cases)(`${kind}: %s`, async (_name, change, field) => {
      const before = await ledgerCounts(tenantA.id);
      const body = { accountId: account.id, amount: "10", date: TODAY, ...change };
      const res = await call(adminA, "POST", `/finance/${kind}`, JSON.parse(JSON.stringify(body)));
      expectFieldError(res, field);
      expect(await ledgerCounts(tenantA.id)).toEqual(before);
      expect(await balanceOf(adminA, account.id)).toBe("1000");
    });
  }

  it("an account of another tenant is an unknown account, and nothing is written anywhere", async () => {
    const foreign = await createAccount(adminB);
    const beforeA = await ledgerCounts(tenantA.id);
    const beforeB = await ledgerCounts(tenantB.id);
    for (const kind of ["payments", "expenses"]) {
      expectFieldError(
        await call(adminA, "POST", `/finance/${kind}`, { accountId: foreign.id, amount: "10", date: TODAY }),
        "accountId",
        "finance.unknown_account",
      );
    }
    expect(await ledgerCounts(tenantA.id)).toEqual(beforeA);
    expect(await ledgerCounts(tenantB.id)).toEqual(beforeB);
    expect(await balanceOf(adminB, foreign.id)).toBe("0");
  });

  it("text with a NUL or other control character is refused, never a 500", async () => {
    const before = await ledgerCounts(tenantA.id);
    expectFieldError(
      await call(adminA, "POST", "/finance/payments", {
        accountId: account.id,
        amount: "1",
        date: TODAY,
        comment: "a\u0000b",
      }),
      "comment",
    );
    expectFieldError(
      await call(adminA, "POST", "/finance/accounts", { name: "Kassa\u0000", currency: "UZS" }),
      "name",
    );
    expectFieldError(await call(adminA, "GET", "/finance/accounts?search=%00"), "search");
    expectFieldError(
      await call(adminA, "POST", "/finance/transfers", {
        fromAccountId: account.id,
        toAccountId: MISSING_ID,
        amount: "1",
        date: TODAY,
        comment: "\u0007",
      }),
      "comment",
    );
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    // A core route without its own check still answers 400, from the database safety net.
    const res = await call(adminA, "PUT", "/account", { firstName: "Ali\u0000" });
    expect(res.statusCode).toBeLessThan(500);
  });

  it("a body that is not an object, or empty, is refused", async () => {
    for (const payload of ["[]", "null", '"x"', "{"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/finance/payments",
        headers: { ...adminA.headers, "content-type": "application/json" },
        payload,
      });
      expectError(res, 400, "VALIDATION_ERROR");
    }
  });

  it("a balance that would leave int64 is refused, not wrapped", async () => {
    const big = await createAccount(adminA);
    await pay(adminA, big.id, "9223372036854775807");
    const before = await ledgerCounts(tenantA.id);
    expectError(
      await call(adminA, "POST", "/finance/payments", { accountId: big.id, amount: "1", date: TODAY }),
      422,
      "BUSINESS_RULE",
      "finance.balance_out_of_range",
    );
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, big.id)).toBe("9223372036854775807");
  });
});

describe("transfers and exchanges", () => {
  it("a transfer moves money between two accounts of one currency in one entry", async () => {
    const from = await createAccount(adminA);
    const to = await createAccount(adminA);
    await pay(adminA, from.id, "1000");
    const res = await call(adminA, "POST", "/finance/transfers", {
      fromAccountId: from.id,
      toAccountId: to.id,
      amount: "400",
      date: TODAY,
      comment: "To the bank",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: "transfer",
      amount: "400",
      destinationAmount: null,
      exchangeRate: null,
    });
    expect(await balanceOf(adminA, from.id)).toBe("600");
    expect(await balanceOf(adminA, to.id)).toBe("400");
    expect((await entriesOf(adminA, from.id))[0]).toMatchObject({ id: res.json().id, change: "-400" });
    expect((await entriesOf(adminA, to.id))[0]).toMatchObject({ id: res.json().id, change: "400" });
  });

  it("refuses transfers across currencies, to the same account, beyond the balance or to another tenant", async () => {
    const uzs = await createAccount(adminA);
    const usd = await createAccount(adminA, "USD");
    const other = await createAccount(adminA);
    const foreign = await createAccount(adminB);
    await pay(adminA, uzs.id, "100");
    const before = await ledgerCounts(tenantA.id);
    const transfer = (body: Record<string, unknown>) =>
      call(adminA, "POST", "/finance/transfers", {
        fromAccountId: uzs.id,
        amount: "10",
        date: TODAY,
        ...body,
      });
    expectFieldError(
      await transfer({ toAccountId: usd.id }),
      "toAccountId",
      "finance.transfer_currency_mismatch",
    );
    expectFieldError(await transfer({ toAccountId: uzs.id }), "toAccountId");
    expectFieldError(await transfer({ toAccountId: foreign.id }), "toAccountId", "finance.unknown_account");
    expectFieldError(await transfer({ toAccountId: other.id, amount: "0" }), "amount");
    expectFieldError(await transfer({ toAccountId: other.id, date: "2026-13-01" }), "date");
    expectError(
      await transfer({ toAccountId: other.id, amount: "101" }),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, uzs.id)).toBe("100");
  });

  // Hand-computed: destination = trunc(amount × rate), exactly.
  const exchanges: Array<[string, string, string]> = [
    ["12345", "12650.5", "156170422"], // 12345 × 12650 = 156 164 250, + 6 172.5
    ["333", "0.333", "110"], // 110.889
    ["1", "1", "1"],
    ["100000000", "0.000079", "7900"],
    ["7", "0.142857142857", "0"], // 0.999999999999 → refused below
    ["999999", "1.000000000001", "999999"], // 999 999.000000999999
    ["9223372036854775807", "1", "9223372036854775807"],
  ];

  it.each(exchanges)("exchange %s × %s → %s", async (amount, rate, expected) => {
    const usd = await createAccount(adminA, "USD");
    const uzs = await createAccount(adminA, "UZS");
    await pay(adminA, usd.id, amount);
    const res = await call(adminA, "POST", "/finance/exchanges", {
      fromAccountId: usd.id,
      toAccountId: uzs.id,
      amount,
      rate,
      date: TODAY,
      confirmRate: true,
    });
    if (expected === "0") {
      expectFieldError(res, "amount", "finance.exchange_too_small");
      expect(await balanceOf(adminA, usd.id)).toBe(amount);
      return;
    }
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      type: "exchange",
      amount,
      destinationAmount: expected,
      exchangeRate: rate,
    });
    expect(await balanceOf(adminA, usd.id)).toBe("0");
    expect(await balanceOf(adminA, uzs.id)).toBe(expected);
    expect((await entriesOf(adminA, uzs.id))[0]).toMatchObject({ change: expected });
  });

  it("refuses an exchange within one currency, a rate ≤ 0 or malformed, and a result beyond int64", async () => {
    const usd = await createAccount(adminA, "USD");
    const uzs = await createAccount(adminA, "UZS");
    const uzs2 = await createAccount(adminA, "UZS");
    await pay(adminA, usd.id, "1000");
    const before = await ledgerCounts(tenantA.id);
    const exchange = (body: Record<string, unknown>) =>
      call(adminA, "POST", "/finance/exchanges", {
        fromAccountId: usd.id,
        toAccountId: uzs.id,
        amount: "10",
        rate: "12650",
        confirmRate: true,
        date: TODAY,
        ...body,
      });
    expectFieldError(
      await exchange({ fromAccountId: uzs2.id, amount: "1" }),
      "toAccountId",
      "finance.exchange_same_currency",
    );
    for (const rate of ["0", "0.000", "-1", "1e3", "abc", "", " 1", "1,5", "1.", ".5"]) {
      expectFieldError(await exchange({ rate }), "rate");
    }
    expectFieldError(await exchange({ rate: 12650 }), "rate");
    expectFieldError(await exchange({ rate: undefined }), "amountReceived");
    expectFieldError(
      await exchange({ amount: "9223372036854775807", rate: "1.5" }),
      "amount",
      "finance.exchange_out_of_range",
    );
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, usd.id)).toBe("1000");
  });
});

describe("permissions and tenancy", () => {
  let reader: SeededUser;
  let ownReader: SeededUser;
  let clerk: SeededUser;
  let account: Account;
  let adminPayment: Doc;

  beforeAll(async () => {
    reader = await t.createUser(tenantA.id, ["accounts:read:all", "payments:read:all"]);
    ownReader = await t.createUser(tenantA.id, [
      "payments:read:own",
      "payments:create:all",
      "accounts:read:all",
    ]);
    clerk = await t.createUser(tenantA.id, ["payments:create:all"]);
    account = await createAccount(adminA);
    adminPayment = await pay(adminA, account.id, "10");
  });

  it("each route needs its permission", async () => {
    const forbidden: Array<[string, "GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["accounts:create:all", "POST", "/finance/accounts", { name: unique("X"), currency: "UZS" }],
      ["accounts:update:all", "PUT", `/finance/accounts/${account.id}`, { name: unique("X") }],
      ["accounts:delete:all", "DELETE", `/finance/accounts/${account.id}`],
      [
        "payments:create:all",
        "POST",
        "/finance/payments",
        { accountId: account.id, amount: "1", date: TODAY },
      ],
      ["payments:update:all", "PUT", `/finance/payments/${adminPayment.id}`, { amount: "2" }],
      ["payments:delete:all", "DELETE", `/finance/payments/${adminPayment.id}`],
      ["expenses:read:all", "GET", "/finance/expenses"],
      [
        "transfers:create:all",
        "POST",
        "/finance/transfers",
        { fromAccountId: account.id, toAccountId: MISSING_ID, amount: "1", date: TODAY },
      ],
      [
        "exchanges:create:all",
        "POST",
        "/finance/exchanges",
        { fromAccountId: account.id, toAccountId: MISSING_ID, amount: "1", rate: "2", date: TODAY },
      ],
      ["accounts:reconcile:all", "GET", "/finance/reconcile"],
    ];
    for (const [permission, method, url, body] of forbidden) {
      const res = await call(reader, method, url, body);
      expectError(res, 403, "FORBIDDEN");
      expect(res.json().error.message, permission).toBeTruthy();
    }
    expect(await balanceOf(adminA, account.id)).toBe("10");
    expectError(await call(clerk, "GET", "/finance/accounts"), 403, "FORBIDDEN");
    expectError(await call(null, "GET", "/finance/accounts"), 401, "UNAUTHENTICATED");
  });

  it("payments:read:own sees only the payments its holder created", async () => {
    const own = await pay(ownReader, account.id, "5");
    const list = (await call(ownReader, "GET", `/finance/payments?accountId=${account.id}`)).json();
    expect(list.items.map((item: Doc) => item.id)).toEqual([own.id]);
    expect((await call(ownReader, "GET", `/finance/payments/${own.id}`)).statusCode).toBe(200);
    expectError(await call(ownReader, "GET", `/finance/payments/${adminPayment.id}`), 404, "NOT_FOUND");
    const all = (await call(reader, "GET", `/finance/payments?accountId=${account.id}`)).json();
    expect(all.total).toBe(2);
  });

  it("another tenant's ids are not found, on every route", async () => {
    const foreignAccount = await createAccount(adminB);
    const foreignPayment = await pay(adminB, foreignAccount.id, "77");
    const foreignExpense = (await spend(adminB, foreignAccount.id, "7")).json() as Doc;
    const attempts: Array<["GET" | "PUT" | "DELETE", string, unknown?]> = [
      ["GET", `/finance/accounts/${foreignAccount.id}`],
      ["PUT", `/finance/accounts/${foreignAccount.id}`, { name: "mine" }],
      ["DELETE", `/finance/accounts/${foreignAccount.id}`],
      ["GET", `/finance/accounts/${foreignAccount.id}/transactions`],
      ["GET", `/finance/payments/${foreignPayment.id}`],
      ["PUT", `/finance/payments/${foreignPayment.id}`, { amount: "1" }],
      ["DELETE", `/finance/payments/${foreignPayment.id}`],
      ["GET", `/finance/expenses/${foreignExpense.id}`],
      ["PUT", `/finance/expenses/${foreignExpense.id}`, { amount: "1" }],
      ["DELETE", `/finance/expenses/${foreignExpense.id}`],
    ];
    for (const [method, url, body] of attempts) {
      expectError(await call(adminA, method, url, body), 404, "NOT_FOUND");
    }
    expect(await balanceOf(adminB, foreignAccount.id)).toBe("70");
    const listed = (await call(adminA, "GET", "/finance/payments?limit=100")).json();
    expect(listed.items.map((item: Doc) => item.id)).not.toContain(foreignPayment.id);
    expect((await call(adminA, "GET", `/finance/payments?accountId=${foreignAccount.id}`)).json().total).toBe(
      0,
    );
  });

  it("a payment cannot be moved onto another tenant's account", async () => {
    const foreignAccount = await createAccount(adminB);
    expectFieldError(
      await call(adminA, "PUT", `/finance/payments/${adminPayment.id}`, { accountId: foreignAccount.id }),
      "accountId",
      "finance.unknown_account",
    );
    expect(await balanceOf(adminA, account.id)).toBe("15");
    expect(await balanceOf(adminB, foreignAccount.id)).toBe("0");
  });
});

describe("atomicity and events", () => {
  const ctxFor = (user: SeededUser, tenantId: string): TenantContext => ({
    tenantId,
    actor: { userId: user.id, permissions: new Set(["payments:create:all", "expenses:create:all"]) },
    locale: "en",
    requestId: "test",
  });

  it("a failure after the payment insert leaves no payment, no entry, no balance change and no event", async () => {
    const account = await createAccount(adminA);
    await pay(adminA, account.id, "1000");
    const dispatched: DispatchedEvent[] = [];
    const unsubscribe = t.outbox.subscribe("PaymentCreated", (event) => {
      dispatched.push(event);
    });
    await t.outbox.drain();
    dispatched.length = 0;
    // The event is written, then the transaction fails: everything it wrote must go. A posting
    // writes its event as a step of its one statement (outbox.stage, post-document.ts), so the
    // failure is injected there, inside the database, after the event row is inserted: its
    // RETURNING divides by the new row's `attempts` (0). Postings inside a Prisma transaction (a
    // debt settlement) go through the same statement.
    const failingOutbox: Outbox = {
      ...t.outbox,
      raise: async (tx, event) => {
        await t.outbox.raise(tx, event);
        throw new Error("disk full after the payment insert");
      },
      stage: (tx, params, event, source) => {
        const staged = t.outbox.stage(tx, params, event, source);
        return { ...staged, sql: `${staged.sql} RETURNING 1 / attempts` };
      },
    };
    const finance = createFinanceServices({ db: t.db, outbox: failingOutbox });
    const before = await ledgerCounts(tenantA.id);
    await expect(
      finance.payments.create(ctxFor(adminA, tenantA.id), {
        accountId: account.id,
        amount: "500",
        date: TODAY,
      }),
    ).rejects.toThrow("division by zero");
    await expect(
      finance.expenses.create(ctxFor(adminA, tenantA.id), {
        accountId: account.id,
        amount: "500",
        date: TODAY,
      }),
    ).rejects.toThrow("division by zero");
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    // And a failure in the application after the event was staged, before the statement is sent.
    const throwingOutbox: Outbox = {
      ...t.outbox,
      stage: (tx, params, event, source) => {
        t.outbox.stage(tx, params, event, source);
        throw new Error("disk full after staging the event");
      },
    };
    await expect(
      createFinanceServices({ db: t.db, outbox: throwingOutbox }).payments.create(
        ctxFor(adminA, tenantA.id),
        {
          accountId: account.id,
          amount: "500",
          date: TODAY,
        },
      ),
    ).rejects.toThrow("disk full");
    expect(await ledgerCounts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, account.id)).toBe("1000");
    await t.outbox.drain();
    expect(dispatched).toEqual([]);
    unsubscribe();
  });

  it("PaymentCreated and ExpenseRecorded are dispatched after the commit, with the posting's facts", async () => {
    const account = await createAccount(adminA);
    const seen: DispatchedEvent[] = [];
    const stops = ["PaymentCreated", "ExpenseRecorded"].map((type) =>
      t.outbox.subscribe(type, (event) => {
        seen.push(event);
      }),
    );
    const payment = await pay(adminA, account.id, "900");
    const expense = (await spend(adminA, account.id, "100")).json() as Doc;
    await t.outbox.drain();
    for (const stop of stops) stop();
    expect(seen.find((event) => event.payload.paymentId === payment.id)).toMatchObject({
      type: "PaymentCreated",
      tenantId: tenantA.id,
      payload: {
        accountId: account.id,
        amount: "900",
        currency: "UZS",
        transactionId: payment.transactionId,
      },
    });
    expect(seen.find((event) => event.payload.expenseId === expense.id)).toMatchObject({
      type: "ExpenseRecorded",
      payload: { amount: "100" },
    });
  });
});

describe("reconcile", () => {
  it("finds no drift after every kind of posting, edit and deletion", async () => {
    const res = await call(adminA, "GET", "/finance/reconcile");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, drift: [], mismatchedDocuments: [] });
    // The general ledger under all of them: debits equal credits, every money account's ledger
    // balance is its cash balance (docs/decisions/0093-general-ledger.md).
    expect(res.json().ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      // The balance sheet balances (docs/decisions/0101-books-reports.md).
      balanceSheet: { difference: "0" },
    });
    expect(res.json().accountsChecked).toBeGreaterThan(10);
  });

  it("reports an account whose stored balance was changed behind the ledger's back", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    const account = await createAccount(admin);
    await pay(admin, account.id, "100");
    await t.db.withTenant(tenant.id, (tx) =>
      tx.moneyAccount.update({ where: { id: account.id }, data: { balance: 150n } }),
    );
    const report = (await call(admin, "GET", "/finance/reconcile")).json();
    expect(report).toMatchObject({
      ok: false,
      drift: [{ accountId: account.id, stored: "150", computed: "100", currency: "UZS" }],
      ledger: {
        accountDifferences: [{ accountId: account.id, cash: "150", ledger: "100", currency: "UZS" }],
      },
    });
  });

  it("reports a debt whose outstanding amount disagrees with its settlements", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    const account = await createAccount(admin);
    const customer = (await call(admin, "POST", "/finance/counterparties", { name: "Buyer" })).json();
    const debt = (
      await call(admin, "POST", "/finance/debts", {
        kind: "receivable",
        counterpartyId: customer.id,
        amount: "1000",
        currency: "UZS",
      })
    ).json();
    const settle = await call(admin, "POST", `/finance/debts/${debt.id}/settle`, {
      amount: "400",
      accountId: account.id,
      date: TODAY,
    });
    expect(settle.statusCode, settle.body).toBe(201);
    expect((await call(admin, "GET", "/finance/reconcile")).json()).toMatchObject({
      ok: true,
      mismatchedDebts: [],
    });
    await t.db.withTenant(tenant.id, (tx) =>
      tx.debt.update({ where: { id: debt.id }, data: { outstanding: 500n } }),
    );
    expect((await call(admin, "GET", "/finance/reconcile")).json()).toMatchObject({
      ok: false,
      mismatchedDebts: [{ debtId: debt.id, stored: "500", computed: "600" }],
    });
  });
});
