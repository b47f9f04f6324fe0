import type { Outbox } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import type { DispatchedEvent, TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caller,
  expectError,
  expectFieldError,
  HOSTILE_TEXT,
  MISSING_ID,
  TODAY,
  unique,
} from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Debts over REST on whichever database the run uses: creation, settlement (partial, full, over,
 * wrong currency, closed), write-off, reversal, edits, deletion, lists, permissions, other tenants.
 */

let t: TestApp;
let tenantA: { id: string };
let tenantB: { id: string };
let adminA: SeededUser;
let adminB: SeededUser;
let counterparty: { id: string };
const call = caller(() => t);

type Settlement = {
  id: string;
  amount: string;
  date: string;
  accountId: string;
  paymentId: string | null;
  expenseId: string | null;
  transactionId: string;
  comment: string;
};
type Debt = {
  id: string;
  kind: "receivable" | "payable";
  counterpartyId: string;
  currency: string;
  amount: string;
  outstanding: string;
  settled: string;
  dueDate: string | null;
  description: string;
  status: string;
  writeOff: { amount: string; at: string; by: string; reason: string } | null;
  settlements: Settlement[];
};

const createAccount = async (who: SeededUser, currency = "UZS", funds = "0") => {
  const res = await call(who, "POST", "/finance/accounts", { name: unique("Account"), currency });
  expect(res.statusCode, res.body).toBe(201);
  const account = res.json() as { id: string };
  if (funds !== "0") {
    const paid = await call(who, "POST", "/finance/payments", {
      accountId: account.id,
      amount: funds,
      date: TODAY,
    });
    expect(paid.statusCode, paid.body).toBe(201);
  }
  return account;
};
const balanceOf = async (who: SeededUser, id: string): Promise<string> =>
  (await call(who, "GET", `/finance/accounts/${id}`)).json().balance;

const createDebt = async (
  body: Record<string, unknown> = {},
  who = adminA,
  cp = counterparty,
): Promise<Debt> => {
  const res = await call(who, "POST", "/finance/debts", {
    kind: "receivable",
    counterpartyId: cp.id,
    amount: "1000",
    currency: "UZS",
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const settle = (debtId: string, body: Record<string, unknown>, who = adminA) =>
  call(who, "POST", `/finance/debts/${debtId}/settle`, { date: TODAY, ...body });
const getDebt = async (id: string, who = adminA): Promise<Debt> =>
  (await call(who, "GET", `/finance/debts/${id}`)).json();

/** Every row a settlement could write: proves a refused request wrote nothing. */
const counts = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    debts: await tx.debt.count(),
    settlements: await tx.debtSettlement.count(),
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
    const res = await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
    expect(res.statusCode, res.body).toBe(200);
  }
  counterparty = (await call(adminA, "POST", "/finance/counterparties", { name: "Debtor" })).json();
});

afterAll(async () => {
  await t?.close();
});

describe("creating and reading debts", () => {
  it("a new debt is pending with everything outstanding and no settlements", async () => {
    const debt = await createDebt({ dueDate: "2026-12-31", description: "Invoice 42" });
    expect(debt).toMatchObject({
      kind: "receivable",
      counterpartyId: counterparty.id,
      currency: "UZS",
      amount: "1000",
      outstanding: "1000",
      settled: "0",
      dueDate: "2026-12-31",
      description: "Invoice 42",
      status: "pending",
      writeOff: null,
      settlements: [],
    });
    expect(await getDebt(debt.id)).toEqual(debt);
    const payable = await createDebt({ kind: "payable", currency: "USD" });
    expect(payable).toMatchObject({ kind: "payable", currency: "USD", dueDate: null });
  });

  it("refuses a currency the organization does not use, and an unknown counterparty", async () => {
    const before = await counts(tenantA.id);
    expectFieldError(
      await call(adminA, "POST", "/finance/debts", {
        kind: "payable",
        counterpartyId: counterparty.id,
        amount: "1",
        currency: "EUR",
      }),
      "currency",
      "finance.currency_not_selected",
    );
    const foreign = (await call(adminB, "POST", "/finance/counterparties", { name: "B's" })).json();
    for (const counterpartyId of [MISSING_ID, foreign.id]) {
      expectFieldError(
        await call(adminA, "POST", "/finance/debts", {
          kind: "payable",
          counterpartyId,
          amount: "1",
          currency: "UZS",
        }),
        "counterpartyId",
        "finance.unknown_counterparty",
      );
    }
    expect(await counts(tenantA.id)).toEqual(before);
  });
});

describe("currencies", () => {
  it("a currency stays selected while a debt uses it", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
    const cp = (await call(admin, "POST", "/finance/counterparties", { name: "Owes dollars" })).json();
    const debt = await createDebt({ currency: "USD" }, admin, cp);
    expectError(
      await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] }),
      409,
      "CONFLICT",
      "currency.in_use",
    );
    expect((await call(admin, "DELETE", `/finance/debts/${debt.id}`)).statusCode).toBe(204);
    expect((await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS"] })).statusCode).toBe(200);
  });
});

describe("settling a receivable", () => {
  it("partial, then full: each posts a payment into the account in the same transaction", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt();
    let res = await settle(debt.id, { amount: "300", accountId: account.id, comment: "First part" });
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json();
    expect(first.debt).toMatchObject({ status: "partial", outstanding: "700", settled: "300" });
    expect(first.settlement).toMatchObject({
      amount: "300",
      date: TODAY,
      accountId: account.id,
      expenseId: null,
      comment: "First part",
    });
    expect(await balanceOf(adminA, account.id)).toBe("300");
    const payment = (await call(adminA, "GET", `/finance/payments/${first.settlement.paymentId}`)).json();
    expect(payment).toMatchObject({
      accountId: account.id,
      amount: "300",
      counterpartyId: counterparty.id,
      transactionId: first.settlement.transactionId,
      comment: "First part",
    });

    res = await settle(debt.id, { amount: "700", accountId: account.id, date: "2026-11-23" });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().debt).toMatchObject({ status: "settled", outstanding: "0", settled: "1000" });
    expect(await balanceOf(adminA, account.id)).toBe("1000");
    const detail = await getDebt(debt.id);
    expect(detail.settlements.map((s) => [s.amount, s.date])).toEqual([
      ["300", TODAY],
      ["700", "2026-11-23"],
    ]);
    const entries = (await call(adminA, "GET", `/finance/accounts/${account.id}/transactions`)).json();
    expect(
      entries.items.map((entry: { type: string; amount: string }) => [entry.type, entry.amount]),
    ).toEqual([
      ["income", "700"],
      ["income", "300"],
    ]);

    // A settled debt is closed: nothing more, and nothing written by trying.
    const before = await counts(tenantA.id);
    expectError(
      await settle(debt.id, { amount: "1", accountId: account.id }),
      422,
      "BUSINESS_RULE",
      "finance.debt_already_settled",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, account.id)).toBe("1000");
  });

  it("over-settling is refused and writes nothing", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "500" });
    expect((await settle(debt.id, { amount: "200", accountId: account.id })).statusCode).toBe(201);
    const before = await counts(tenantA.id);
    for (const amount of ["301", "500", "9223372036854775807"]) {
      const error = expectError(
        await settle(debt.id, { amount, accountId: account.id }),
        422,
        "BUSINESS_RULE",
        "finance.debt_over_settlement",
      );
      expect(error.message).toContain("outstanding");
    }
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await getDebt(debt.id)).toMatchObject({ outstanding: "300", status: "partial" });
    expect(await balanceOf(adminA, account.id)).toBe("200");
  });

  it("the account must be of this organization and in the debt's currency", async () => {
    const usd = await createAccount(adminA, "USD");
    const foreign = await createAccount(adminB);
    const debt = await createDebt();
    const before = await counts(tenantA.id);
    expectFieldError(
      await settle(debt.id, { amount: "1", accountId: usd.id }),
      "accountId",
      "finance.debt_currency_mismatch",
    );
    for (const accountId of [MISSING_ID, foreign.id]) {
      expectFieldError(
        await settle(debt.id, { amount: "1", accountId }),
        "accountId",
        "finance.unknown_account",
      );
    }
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminB, foreign.id)).toBe("0");
    expect(await getDebt(debt.id)).toMatchObject({ status: "pending", outstanding: "1000" });
  });

  it("a settlement may carry a payment category; an expense category is refused", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt();
    const paymentCategory = (
      await call(adminA, "POST", "/finance/payment-categories", { name: unique("Sales") })
    ).json();
    const expenseCategory = (
      await call(adminA, "POST", "/finance/expense-categories", { name: unique("Rent") })
    ).json();
    const before = await counts(tenantA.id);
    expectFieldError(
      await settle(debt.id, { amount: "5", accountId: account.id, categoryId: expenseCategory.id }),
      "categoryId",
      "finance.unknown_category",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    const res = await settle(debt.id, { amount: "5", accountId: account.id, categoryId: paymentCategory.id });
    expect(res.statusCode, res.body).toBe(201);
    const payment = (
      await call(adminA, "GET", `/finance/payments/${res.json().settlement.paymentId}`)
    ).json();
    expect(payment.categoryId).toBe(paymentCategory.id);
  });
});

describe("settling a payable", () => {
  it("posts an expense out of the account; refused (and nothing written) beyond the balance", async () => {
    const account = await createAccount(adminA, "USD", "1000");
    const debt = await createDebt({ kind: "payable", currency: "USD", amount: "1500" });
    const res = await settle(debt.id, { amount: "400", accountId: account.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().settlement).toMatchObject({ paymentId: null, amount: "400" });
    const expense = (
      await call(adminA, "GET", `/finance/expenses/${res.json().settlement.expenseId}`)
    ).json();
    expect(expense).toMatchObject({ amount: "400", counterpartyId: counterparty.id, currency: "USD" });
    expect(await balanceOf(adminA, account.id)).toBe("600");

    const before = await counts(tenantA.id);
    expectError(
      await settle(debt.id, { amount: "601", accountId: account.id }),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await getDebt(debt.id)).toMatchObject({ outstanding: "1100", status: "partial" });
    expect(await balanceOf(adminA, account.id)).toBe("600");
  });
});

describe("writing off", () => {
  it("records who, when, why and how much; the debt is then closed", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt();
    await settle(debt.id, { amount: "250", accountId: account.id });
    const clerk = await t.createUser(tenantA.id, ["debts:update:all", "debts:read:all"]);
    const res = await call(clerk, "POST", `/finance/debts/${debt.id}/write-off`, {
      reason: "  The customer went bankrupt  ",
    });
    expect(res.statusCode, res.body).toBe(200);
    const written = res.json() as Debt;
    expect(written).toMatchObject({
      status: "written_off",
      outstanding: "0",
      settled: "250",
      writeOff: { amount: "750", by: clerk.id, reason: "The customer went bankrupt" },
    });
    expect(Date.parse(written.writeOff?.at ?? "")).not.toBeNaN();
    expect(written.settlements).toHaveLength(1);

    const before = await counts(tenantA.id);
    expectError(
      await settle(debt.id, { amount: "1", accountId: account.id }),
      422,
      "BUSINESS_RULE",
      "finance.debt_written_off",
    );
    expectError(
      await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, { reason: "Again" }),
      422,
      "BUSINESS_RULE",
      "finance.debt_written_off",
    );
    expect(await counts(tenantA.id)).toEqual(before);
  });

  it("a settled debt cannot be written off; a reason is required", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "10" });
    for (const body of [
      {},
      { reason: "" },
      { reason: "   " },
      { reason: "x".repeat(1001) },
      { reason: 5 },
      { reason: "a\u0000b" },
      { reason: "\ud800" },
    ]) {
      expectFieldError(await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, body), "reason");
    }
    // Who wrote it off is the caller, never the body.
    expectFieldError(
      await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, { reason: "ok", by: MISSING_ID }),
      "by",
    );
    expect((await getDebt(debt.id)).status).toBe("pending");
    await settle(debt.id, { amount: "10", accountId: account.id });
    expectError(
      await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, { reason: "Too late" }),
      422,
      "BUSINESS_RULE",
      "finance.debt_already_settled",
    );
  });
});

describe("reversing a settlement", () => {
  it("deletes its payment, moves the money back and makes the amount outstanding again", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "100" });
    const first = (await settle(debt.id, { amount: "60", accountId: account.id })).json().settlement;
    const second = (await settle(debt.id, { amount: "40", accountId: account.id })).json().settlement;
    expect((await getDebt(debt.id)).status).toBe("settled");

    let res = await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/${second.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "partial", outstanding: "40", settled: "60" });
    expect(res.json().settlements.map((s: Settlement) => s.id)).toEqual([first.id]);
    expect(await balanceOf(adminA, account.id)).toBe("60");
    expectError(await call(adminA, "GET", `/finance/payments/${second.paymentId}`), 404, "NOT_FOUND");

    res = await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/${first.id}`);
    expect(res.json()).toMatchObject({
      status: "pending",
      outstanding: "100",
      settled: "0",
      settlements: [],
    });
    expect(await balanceOf(adminA, account.id)).toBe("0");
    expectError(
      await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/${first.id}`),
      404,
      "NOT_FOUND",
      "finance.debt_settlement_not_found",
    );
    const reconcile = (await call(adminA, "GET", "/finance/reconcile")).json();
    expect(reconcile.ok).toBe(true);
  });

  it("is refused when the money was already spent, or the debt written off", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "100" });
    const settlement = (await settle(debt.id, { amount: "50", accountId: account.id })).json().settlement;
    const spent = await call(adminA, "POST", "/finance/expenses", {
      accountId: account.id,
      amount: "30",
      date: TODAY,
    });
    expect(spent.statusCode).toBe(201);
    const before = await counts(tenantA.id);
    expectError(
      await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/${settlement.id}`),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await getDebt(debt.id)).toMatchObject({ outstanding: "50", status: "partial" });
    await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, { reason: "Gone" });
    expectError(
      await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/${settlement.id}`),
      422,
      "BUSINESS_RULE",
      "finance.debt_written_off",
    );
  });

  it("a settlement's payment or expense cannot be deleted or re-priced on its own", async () => {
    const account = await createAccount(adminA, "UZS", "1000");
    for (const kind of ["receivable", "payable"] as const) {
      const debt = await createDebt({ kind, amount: "100" });
      const settlement = (await settle(debt.id, { amount: "10", accountId: account.id })).json().settlement;
      const path =
        kind === "receivable"
          ? `/finance/payments/${settlement.paymentId}`
          : `/finance/expenses/${settlement.expenseId}`;
      const other = await createAccount(adminA);
      const before = await counts(tenantA.id);
      for (const [method, body] of [
        ["DELETE", undefined],
        ["PUT", { amount: "11" }],
        ["PUT", { accountId: other.id }],
        ["PUT", { counterpartyId: null }],
      ] as const) {
        expectError(await call(adminA, method, path, body), 409, "CONFLICT", "finance.document_settles_debt");
      }
      expect(await counts(tenantA.id)).toEqual(before);
      // Its comment, date and category are its own.
      const res = await call(adminA, "PUT", path, {
        comment: "Bank ref 123",
        date: "2026-11-20",
        amount: "10",
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ comment: "Bank ref 123", date: "2026-11-20", amount: "10" });
    }
  });
});

describe("changing and deleting debts", () => {
  it("a pending debt may change anything", async () => {
    const debt = await createDebt();
    const other = (await call(adminA, "POST", "/finance/counterparties", { name: unique("Other") })).json();
    const res = await call(adminA, "PUT", `/finance/debts/${debt.id}`, {
      kind: "payable",
      counterpartyId: other.id,
      amount: "2000",
      currency: "USD",
      dueDate: "2027-01-15",
      description: "Corrected",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      kind: "payable",
      counterpartyId: other.id,
      amount: "2000",
      outstanding: "2000",
      currency: "USD",
      dueDate: "2027-01-15",
      description: "Corrected",
      status: "pending",
    });
    expect(
      (await call(adminA, "PUT", `/finance/debts/${debt.id}`, { dueDate: null })).json().dueDate,
    ).toBeNull();
    expectFieldError(
      await call(adminA, "PUT", `/finance/debts/${debt.id}`, { currency: "EUR" }),
      "currency",
      "finance.currency_not_selected",
    );
    expectFieldError(
      await call(adminA, "PUT", `/finance/debts/${debt.id}`, { counterpartyId: MISSING_ID }),
      "counterpartyId",
      "finance.unknown_counterparty",
    );
    expectError(
      await call(adminA, "PUT", `/finance/debts/${MISSING_ID}`, { description: "x" }),
      404,
      "NOT_FOUND",
    );
  });

  it("once partly settled: kind, counterparty and currency are fixed; the amount stays above what is settled", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "1000" });
    await settle(debt.id, { amount: "400", accountId: account.id });
    for (const body of [{ kind: "payable" }, { currency: "USD" }, { counterpartyId: MISSING_ID }]) {
      expectError(
        await call(adminA, "PUT", `/finance/debts/${debt.id}`, body),
        422,
        "BUSINESS_RULE",
        "finance.debt_has_settlements",
      );
    }
    for (const amount of ["400", "399"]) {
      expectError(
        await call(adminA, "PUT", `/finance/debts/${debt.id}`, { amount }),
        422,
        "BUSINESS_RULE",
        "finance.debt_amount_below_settled",
      );
    }
    // Sending the current values is not a change.
    let res = await call(adminA, "PUT", `/finance/debts/${debt.id}`, {
      kind: "receivable",
      currency: "UZS",
      counterpartyId: counterparty.id,
      amount: "1200",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      amount: "1200",
      outstanding: "800",
      settled: "400",
      status: "partial",
    });
    res = await call(adminA, "PUT", `/finance/debts/${debt.id}`, { amount: "401" });
    expect(res.json()).toMatchObject({ outstanding: "1", status: "partial" });
  });

  it("a closed debt keeps its money fields; its due date and description may change", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "10" });
    await settle(debt.id, { amount: "10", accountId: account.id });
    expectError(
      await call(adminA, "PUT", `/finance/debts/${debt.id}`, { amount: "20" }),
      422,
      "BUSINESS_RULE",
      "finance.debt_already_settled",
    );
    const res = await call(adminA, "PUT", `/finance/debts/${debt.id}`, {
      description: "Paid in cash",
      dueDate: TODAY,
    });
    expect(res.json()).toMatchObject({ status: "settled", description: "Paid in cash", dueDate: TODAY });
  });

  it("only a pending debt can be deleted", async () => {
    const account = await createAccount(adminA);
    const pending = await createDebt();
    expect((await call(adminA, "DELETE", `/finance/debts/${pending.id}`)).statusCode).toBe(204);
    expectError(
      await call(adminA, "GET", `/finance/debts/${pending.id}`),
      404,
      "NOT_FOUND",
      "finance.debt_not_found",
    );
    const partial = await createDebt();
    await settle(partial.id, { amount: "1", accountId: account.id });
    const writtenOff = await createDebt();
    await call(adminA, "POST", `/finance/debts/${writtenOff.id}/write-off`, { reason: "No" });
    for (const debt of [partial, writtenOff]) {
      expectError(
        await call(adminA, "DELETE", `/finance/debts/${debt.id}`),
        409,
        "CONFLICT",
        "finance.debt_not_deletable",
      );
    }
    expectError(await call(adminA, "DELETE", `/finance/debts/${MISSING_ID}`), 404, "NOT_FOUND");
  });
});

describe("listing debts", () => {
  it("filters by status, kind, counterparty, currency and due dates (strict), sorts and pages", async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser(tenant.id, "admin");
    await call(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
    const cp1 = (await call(admin, "POST", "/finance/counterparties", { name: "One" })).json();
    const cp2 = (await call(admin, "POST", "/finance/counterparties", { name: "Two" })).json();
    const account = await createAccount(admin, "UZS", "1000");
    const make = (body: Record<string, unknown>) => createDebt(body, admin, cp1);
    const a = await make({ amount: "100", dueDate: "2026-01-10" });
    const b = await make({ amount: "300", dueDate: "2026-02-10", kind: "payable" });
    const c = await make({ amount: "200", dueDate: null, counterpartyId: cp2.id });
    const d = await make({ amount: "50", dueDate: "2026-03-10", currency: "USD" });
    await settle(a.id, { amount: "40", accountId: account.id }, admin);
    await settle(b.id, { amount: "300", accountId: account.id }, admin);
    const ids = async (query: string) => {
      const res = await call(admin, "GET", `/finance/debts?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items.map((debt: Debt) => debt.id);
    };
    expect(await ids("status=partial")).toEqual([a.id]);
    expect(await ids("status=settled")).toEqual([b.id]);
    expect(await ids("status=pending&sortBy=amount&order=asc")).toEqual([d.id, c.id]);
    expect(await ids("kind=payable")).toEqual([b.id]);
    expect(await ids(`counterpartyId=${cp2.id}`)).toEqual([c.id]);
    expect(await ids("currency=USD")).toEqual([d.id]);
    expect(await ids("dueBefore=2026-02-10&sortBy=dueDate&order=asc")).toEqual([a.id]);
    expect(await ids("dueAfter=2026-01-10&sortBy=dueDate&order=asc")).toEqual([b.id, d.id]);
    expect(await ids("dueAfter=2026-01-09&dueBefore=2026-02-11&sortBy=dueDate&order=desc")).toEqual([
      b.id,
      a.id,
    ]);
    // Not yet due at the end of Feb 10: due that day or later, or never (the aging's first bucket).
    expect(await ids("notDueOn=2026-02-10&sortBy=dueDate&order=asc")).toEqual([b.id, d.id, c.id]);
    expect(await ids("notDueOn=2026-02-11&open=true&sortBy=dueDate&order=asc")).toEqual([d.id, c.id]);
    expect(await ids("notDueOn=2026-02-10&dueBefore=2026-03-01&sortBy=dueDate&order=asc")).toEqual([b.id]);
    // Undated debts come last in either direction.
    expect(await ids("sortBy=dueDate&order=asc")).toEqual([a.id, b.id, d.id, c.id]);
    expect(await ids("sortBy=dueDate&order=desc")).toEqual([d.id, b.id, a.id, c.id]);
    expect(await ids("sortBy=outstanding&order=desc&limit=2&offset=1")).toEqual([a.id, d.id]);
    const page = (await call(admin, "GET", "/finance/debts?limit=1")).json();
    expect(page).toMatchObject({ total: 4, limit: 1, offset: 0 });
    expect(page.items[0]).not.toHaveProperty("settlements");
  });

  it.each([
    ["status=open", "status"],
    ["kind=loan", "kind"],
    ["counterpartyId=x", "counterpartyId"],
    ["currency=usd", "currency"],
    ["dueBefore=2026-02-30", "dueBefore"],
    ["dueAfter=tomorrow", "dueAfter"],
    ["notDueOn=2026-13-01", "notDueOn"],
    ["dueAfter=2026-02-01&dueBefore=2026-02-01", "dueBefore"],
    ["sortBy=status", "sortBy"],
    ["limit=101", "limit"],
    ["offset=x", "offset"],
  ])("refuses the query %s", async (query, field) => {
    expectFieldError(await call(adminA, "GET", `/finance/debts?${query}`), field);
  });
});

describe("bad input is refused, names the field and writes nothing", () => {
  let account: { id: string };
  let debt: Debt;
  beforeAll(async () => {
    account = await createAccount(adminA);
    debt = await createDebt();
  });

  const amountCases: Array<[string, unknown]> = [
    ["zero", "0"],
    ["negative", "-5"],
    ["fractional", "1.5"],
    ["a JSON number", 100],
    ["beyond int64", "9223372036854775808"],
    ["leading zeros", "007"],
    ["exponent form", "1e3"],
    ["huge", "9".repeat(10_000)],
    ["null", null],
  ];

  const createCases: Array<[string, Record<string, unknown>, string]> = [
    ...amountCases.map(([what, amount]): [string, Record<string, unknown>, string] => [
      `amount ${what}`,
      { amount },
      "amount",
    ]),
    ["missing amount", { amount: undefined }, "amount"],
    ["missing kind", { kind: undefined }, "kind"],
    ["unknown kind", { kind: "loan" }, "kind"],
    ["missing counterparty", { counterpartyId: undefined }, "counterpartyId"],
    ["counterparty id as SQL", { counterpartyId: "' OR 1=1 --" }, "counterpartyId"],
    ["missing currency", { currency: undefined }, "currency"],
    ["currency in lower case", { currency: "uzs" }, "currency"],
    ["due date not a date", { dueDate: "2026-02-29" }, "dueDate"],
    ["due date a date-time", { dueDate: "2026-11-22T00:00:00Z" }, "dueDate"],
    ["description too long", { description: "x".repeat(1001) }, "description"],
    ...HOSTILE_TEXT.filter(([what]) => what !== "null").map(
      ([what, value]): [string, Record<string, unknown>, string] => [
        `description with ${what}`,
        { description: value },
        "description",
      ],
    ),
    ["outstanding given", { outstanding: "5" }, "outstanding"],
    ["status given", { status: "settled" }, "status"],
  ];

  it.each(createCases)("create: %s", async (_name, change, field) => {
    const before = await counts(tenantA.id);
    const body = {
      kind: "receivable",
      counterpartyId: counterparty.id,
      amount: "10",
      currency: "UZS",
      ...change,
    };
    expectFieldError(await call(adminA, "POST", "/finance/debts", JSON.parse(JSON.stringify(body))), field);
    expect(await counts(tenantA.id)).toEqual(before);
  });

  it.each(
    createCases.filter(([name]) => !name.startsWith("missing")),
  )("update: %s", async (_name, change, field) => {
    const before = await getDebt(debt.id);
    expectFieldError(await call(adminA, "PUT", `/finance/debts/${debt.id}`, change), field);
    expect(await getDebt(debt.id)).toEqual(before);
  });

  const settleCases: Array<[string, Record<string, unknown>, string]> = [
    ...amountCases.map(([what, amount]): [string, Record<string, unknown>, string] => [
      `amount ${what}`,
      { amount },
      "amount",
    ]),
    ["missing amount", { amount: undefined }, "amount"],
    ["missing account", { accountId: undefined }, "accountId"],
    ["account id not a UUID", { accountId: "cash" }, "accountId"],
    ["missing date", { date: undefined }, "date"],
    ["date not a date", { date: "2026-13-01" }, "date"],
    ["comment too long", { comment: "x".repeat(1001) }, "comment"],
    ["comment with a NUL", { comment: "\u0000" }, "comment"],
    ["category id not a UUID", { categoryId: "sales" }, "categoryId"],
    ["unknown category", { categoryId: MISSING_ID }, "categoryId"],
    ["a currency (it is the debt's)", { currency: "UZS" }, "currency"],
    ["an unknown field", { paymentId: MISSING_ID }, "paymentId"],
  ];

  it.each(settleCases)("settle: %s", async (_name, change, field) => {
    const before = await counts(tenantA.id);
    const body = { amount: "10", accountId: account.id, date: TODAY, ...change };
    expectFieldError(
      await call(adminA, "POST", `/finance/debts/${debt.id}/settle`, JSON.parse(JSON.stringify(body))),
      field,
    );
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await balanceOf(adminA, account.id)).toBe("0");
  });

  it("path ids that are not UUIDs", async () => {
    expectFieldError(await call(adminA, "GET", "/finance/debts/42"), "id");
    expectFieldError(await call(adminA, "POST", "/finance/debts/42/settle", { amount: "1" }), "id");
    expectFieldError(await call(adminA, "DELETE", `/finance/debts/${debt.id}/settlements/x`), "settlementId");
  });

  it("bodies that are not objects", async () => {
    for (const url of [
      "/finance/debts",
      `/finance/debts/${debt.id}/settle`,
      `/finance/debts/${debt.id}/write-off`,
    ]) {
      for (const payload of ["[]", "null", '"x"', "{"]) {
        const res = await t.app.inject({
          method: "POST",
          url,
          headers: { ...adminA.headers, "content-type": "application/json" },
          payload,
        });
        expectError(res, 400, "VALIDATION_ERROR");
      }
    }
  });
});

describe("permissions and tenancy", () => {
  it("each route needs its permission; settling also needs the right to post the money", async () => {
    const account = await createAccount(adminA);
    const receivable = await createDebt();
    const payable = await createDebt({ kind: "payable" });
    const reader = await t.createUser(tenantA.id, ["debts:read:all"]);
    const forbidden: Array<["GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      [
        "POST",
        "/finance/debts",
        { kind: "receivable", counterpartyId: counterparty.id, amount: "1", currency: "UZS" },
      ],
      ["PUT", `/finance/debts/${receivable.id}`, { description: "x" }],
      ["DELETE", `/finance/debts/${receivable.id}`],
      ["POST", `/finance/debts/${receivable.id}/settle`, { amount: "1", accountId: account.id, date: TODAY }],
      ["POST", `/finance/debts/${receivable.id}/write-off`, { reason: "x" }],
      ["DELETE", `/finance/debts/${receivable.id}/settlements/${MISSING_ID}`],
    ];
    for (const [method, url, body] of forbidden)
      expectError(await call(reader, method, url, body), 403, "FORBIDDEN");
    expect((await call(reader, "GET", `/finance/debts/${receivable.id}`)).statusCode).toBe(200);
    expect((await call(reader, "GET", "/finance/debts")).statusCode).toBe(200);
    const nobody = await t.createUser(tenantA.id, ["payments:read:all"]);
    expectError(await call(nobody, "GET", "/finance/debts"), 403, "FORBIDDEN");
    expectError(await call(nobody, "GET", `/finance/debts/${receivable.id}`), 403, "FORBIDDEN");
    expectError(await call(null, "GET", "/finance/debts"), 401, "UNAUTHENTICATED");
    expectError(
      await call(null, "POST", `/finance/debts/${receivable.id}/settle`, {}),
      401,
      "UNAUTHENTICATED",
    );

    // debts:update:all alone cannot post money: a receivable needs payments:create:all, a payable expenses:create:all.
    const collector = await t.createUser(tenantA.id, ["debts:update:all", "payments:create:all"]);
    const settleBody = { amount: "1", accountId: account.id, date: TODAY };
    expectError(
      await call(collector, "POST", `/finance/debts/${payable.id}/settle`, settleBody),
      403,
      "FORBIDDEN",
    );
    const ok = await call(collector, "POST", `/finance/debts/${receivable.id}/settle`, settleBody);
    expect(ok.statusCode, ok.body).toBe(201);
    expectError(
      await call(
        collector,
        "DELETE",
        `/finance/debts/${receivable.id}/settlements/${ok.json().settlement.id}`,
      ),
      403,
      "FORBIDDEN",
    );
    const payer = await t.createUser(tenantA.id, ["debts:update:all", "expenses:create:all"]);
    expectError(
      await call(payer, "POST", `/finance/debts/${receivable.id}/settle`, settleBody),
      403,
      "FORBIDDEN",
    );
    expect((await call(payer, "POST", `/finance/debts/${payable.id}/settle`, settleBody)).statusCode).toBe(
      201,
    );
    expect(await getDebt(receivable.id)).toMatchObject({ outstanding: "999" });
    expect(await getDebt(payable.id)).toMatchObject({ outstanding: "999" });
  });

  it("another tenant's debts are not found on any route and never listed", async () => {
    const cpB = (await call(adminB, "POST", "/finance/counterparties", { name: "B's debtor" })).json();
    const accountB = await createAccount(adminB);
    const debtB = await createDebt({}, adminB, cpB);
    const settlementB = (await settle(debtB.id, { amount: "100", accountId: accountB.id }, adminB)).json()
      .settlement;
    const accountA = await createAccount(adminA);
    const before = await counts(tenantB.id);
    const attempts: Array<["GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["GET", `/finance/debts/${debtB.id}`],
      ["PUT", `/finance/debts/${debtB.id}`, { description: "Mine" }],
      ["DELETE", `/finance/debts/${debtB.id}`],
      ["POST", `/finance/debts/${debtB.id}/settle`, { amount: "1", accountId: accountA.id, date: TODAY }],
      ["POST", `/finance/debts/${debtB.id}/write-off`, { reason: "Mine" }],
      ["DELETE", `/finance/debts/${debtB.id}/settlements/${settlementB.id}`],
    ];
    for (const [method, url, body] of attempts)
      expectError(await call(adminA, method, url, body), 404, "NOT_FOUND");
    // A's debt cannot be settled into B's account, nor reverse B's settlement through A's debt.
    const debtA = await createDebt();
    expectFieldError(
      await settle(debtA.id, { amount: "1", accountId: accountB.id }),
      "accountId",
      "finance.unknown_account",
    );
    expectError(
      await call(adminA, "DELETE", `/finance/debts/${debtA.id}/settlements/${settlementB.id}`),
      404,
      "NOT_FOUND",
      "finance.debt_settlement_not_found",
    );
    expect(await counts(tenantB.id)).toEqual(before);
    expect(await getDebt(debtB.id, adminB)).toMatchObject({ outstanding: "900", status: "partial" });
    const listed = (await call(adminA, "GET", "/finance/debts?limit=100")).body;
    expect(listed).not.toContain(debtB.id);
    expect((await call(adminA, "GET", `/finance/debts?counterpartyId=${cpB.id}`)).json().total).toBe(0);
  });
});

describe("atomicity and events", () => {
  it("a settlement that fails at the end leaves no payment, no entry, no balance and no debt change", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "100" });
    const failingOutbox: Outbox = {
      ...t.outbox,
      raise: async (tx, event) => {
        const id = await t.outbox.raise(tx, event);
        if (event.type === "DebtSettled") throw new Error("disk full after the settlement");
        return id;
      },
    };
    const finance = createFinanceServices({ db: t.db, outbox: failingOutbox });
    const ctx: TenantContext = {
      tenantId: tenantA.id,
      actor: { userId: adminA.id, permissions: new Set(["debts:update:all", "payments:create:all"]) },
      locale: "en",
      requestId: "test",
    };
    const before = await counts(tenantA.id);
    await expect(
      finance.debts.settle(ctx, debt.id, { amount: "60", accountId: account.id, date: TODAY }),
    ).rejects.toThrow("disk full");
    expect(await counts(tenantA.id)).toEqual(before);
    expect(await getDebt(debt.id)).toMatchObject({ outstanding: "100", status: "pending", settlements: [] });
    expect(await balanceOf(adminA, account.id)).toBe("0");
  });

  it("DebtSettled and DebtWrittenOff are dispatched after the commit", async () => {
    const account = await createAccount(adminA);
    const debt = await createDebt({ amount: "100" });
    const seen: DispatchedEvent[] = [];
    const stops = ["DebtSettled", "DebtWrittenOff", "PaymentCreated"].map((type) =>
      t.outbox.subscribe(type, (event) => {
        seen.push(event);
      }),
    );
    const settlement = (await settle(debt.id, { amount: "30", accountId: account.id })).json().settlement;
    await call(adminA, "POST", `/finance/debts/${debt.id}/write-off`, { reason: "Rest forgiven" });
    await t.outbox.drain();
    for (const stop of stops) stop();
    expect(
      seen.find((event) => event.type === "DebtSettled" && event.payload.debtId === debt.id),
    ).toMatchObject({
      tenantId: tenantA.id,
      payload: {
        settlementId: settlement.id,
        amount: "30",
        paymentId: settlement.paymentId,
        status: "partial",
      },
    });
    expect(
      seen.find(
        (event) => event.type === "PaymentCreated" && event.payload.paymentId === settlement.paymentId,
      ),
    ).toBeTruthy();
    expect(
      seen.find((event) => event.type === "DebtWrittenOff" && event.payload.debtId === debt.id),
    ).toMatchObject({
      payload: { amount: "70", reason: "Rest forgiven", by: adminA.id },
    });
  });

  it("the ledger still reconciles after every settlement, reversal and refusal above", async () => {
    const report = (await call(adminA, "GET", "/finance/reconcile")).json();
    expect(report).toMatchObject({ ok: true, drift: [], mismatchedDocuments: [] });
  });
});
