import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * A payment or expense is posted by one statement (packages/finance/src/ledger/post-document.ts):
 * the balance UPDATE with its overdraft condition, the ledger entry and the document as CTEs. When
 * that statement fails at any step, nothing of the posting stays: no entry, no document, no event,
 * the balance as it was. A transfer likewise (packages/finance/src/transfers/post-transfer.ts), with
 * both accounts: a refusal leaves the destination as it was too, though its UPDATE may have run.
 */

let t: FinanceTestKit;
let tenantId: string;
let ctx: TenantContext;
let posting: string[] = [];
const TODAY = "2026-11-25";
const OTHER_TENANT_ID = "0190f5c2-0000-7000-8000-0000000000ff";

beforeAll(async () => {
  t = await createFinanceTestKit({
    onQuery: (sql) => {
      if (sql.includes("WITH moved AS") || sql.includes("WITH locked AS")) posting.push(sql);
    },
  });
  tenantId = (await t.createTenant()).id;
  const admin = await t.createUser(tenantId, "admin");
  ctx = (await t.services.context.resolveContext({
    bearerToken: admin.token,
    requestId: "posting",
  })) as TenantContext;
});
afterAll(async () => t?.close());

const state = async (accountId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    transactions: await tx.financeTransaction.count(),
    payments: await tx.payment.count(),
    expenses: await tx.expense.count(),
    events: await tx.outboxEvent.count({ where: { tenantId } }),
    balance: (await tx.moneyAccount.findFirst({ where: { id: accountId }, select: { balance: true } }))
      ?.balance,
  }));

const newAccount = async (name: string, allowOverdraft = false) =>
  (await t.services.finance.accounts.create(ctx, { name, currency: "UZS", allowOverdraft })).id;

const refusal = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => null,
    (reason: unknown) => reason,
  )) as { reason?: string } | null;
  expect(error, "the posting must fail").not.toBeNull();
  return error?.reason;
};

describe("a posting is one statement, all or nothing", () => {
  it("posts balance, entry and document in one statement", async () => {
    const account = await newAccount("One statement");
    posting = [];
    await t.services.finance.payments.create(ctx, { accountId: account, amount: "700", date: TODAY });
    expect(posting).toHaveLength(1);
    expect((await state(account)).balance).toBe(700n);
  });

  it("overdraft: an expense beyond a strict account's balance leaves nothing", async () => {
    const account = await newAccount("Strict");
    await t.services.finance.payments.create(ctx, { accountId: account, amount: "100", date: TODAY });
    await t.outbox.drain();
    const before = await state(account);
    expect(
      await refusal(
        t.services.finance.expenses.create(ctx, { accountId: account, amount: "101", date: TODAY }),
      ),
    ).toBe("finance.insufficient_balance");
    expect(await state(account)).toEqual(before);
  });

  it("foreign key: an unknown counterparty or category fails the statement after the balance moved in it", async () => {
    const account = await newAccount("Foreign keys", true);
    const before = await state(account);
    expect(
      await refusal(
        t.services.finance.payments.create(ctx, {
          accountId: account,
          amount: "50",
          date: TODAY,
          counterpartyId: OTHER_TENANT_ID,
        }),
      ),
    ).toBe("finance.unknown_counterparty");
    expect(
      await refusal(
        t.services.finance.expenses.create(ctx, {
          accountId: account,
          amount: "50",
          date: TODAY,
          categoryId: OTHER_TENANT_ID,
        }),
      ),
    ).toBe("finance.unknown_category");
    expect(await state(account)).toEqual(before);
  });

  it("unknown account: nothing is written", async () => {
    const account = await newAccount("Witness");
    const before = await state(account);
    expect(
      await refusal(
        t.services.finance.payments.create(ctx, { accountId: OTHER_TENANT_ID, amount: "5", date: TODAY }),
      ),
    ).toBe("finance.unknown_account");
    expect(await state(account)).toEqual(before);
  });

  it("balance out of range: the statement fails in its UPDATE and nothing is written", async () => {
    const account = await newAccount("Nearly full");
    await t.db.withTenant(tenantId, (tx) =>
      tx.moneyAccount.update({ where: { id: account }, data: { balance: 9_223_372_036_854_775_000n } }),
    );
    await t.outbox.drain();
    const before = await state(account);
    expect(
      await refusal(
        t.services.finance.payments.create(ctx, { accountId: account, amount: "1000", date: TODAY }),
      ),
    ).toBe("finance.balance_out_of_range");
    expect(await state(account)).toEqual(before);
  });
});

describe("a transfer is one statement, all or nothing", () => {
  const both = async (from: string, to: string) => {
    const [origin, destination] = [await state(from), await state(to)];
    const audits = await t.db.withTenant(tenantId, (tx) =>
      tx.auditEntry.count({ where: { entity: "transfer" } }),
    );
    return { ...origin, destinationBalance: destination.balance, audits };
  };
  const transfer = (from: string, to: string, amount: string, extra: Record<string, unknown> = {}) =>
    t.services.finance.transfers.transfer(ctx, {
      fromAccountId: from,
      toAccountId: to,
      amount,
      date: TODAY,
      ...extra,
    });

  it("moves both balances, writes the entry, its event and its audit entry in one statement", async () => {
    const from = await newAccount("Transfer from");
    const to = await newAccount("Transfer to");
    await t.services.finance.payments.create(ctx, { accountId: from, amount: "900", date: TODAY });
    await t.outbox.drain();
    const before = await both(from, to);
    posting = [];
    const dto = await transfer(from, to, "400", { comment: "To the till" });
    expect(posting).toHaveLength(1);
    expect(await both(from, to)).toEqual({
      ...before,
      transactions: before.transactions + 1,
      events: before.events + 1,
      audits: before.audits + 1,
      balance: 500n,
      destinationBalance: 400n,
    });
    // The answer is the entry as it reads back.
    const [entry] = (await t.services.finance.accounts.transactions(ctx, to, {})).items;
    const { change: _change, ...stored } = entry ?? { change: "" };
    expect(dto).toEqual(stored);
  });

  it("overdraft: beyond the origin's balance leaves both accounts as they were", async () => {
    const from = await newAccount("Short origin");
    const to = await newAccount("Untouched destination");
    await t.services.finance.payments.create(ctx, { accountId: from, amount: "100", date: TODAY });
    await t.outbox.drain();
    const before = await both(from, to);
    expect(await refusal(transfer(from, to, "101"))).toBe("finance.insufficient_balance");
    expect(await both(from, to)).toEqual(before);
  });

  it("foreign key: an unknown counterparty fails the statement after both balances moved in it", async () => {
    const from = await newAccount("FK origin", true);
    const to = await newAccount("FK destination");
    const before = await both(from, to);
    expect(await refusal(transfer(from, to, "50", { counterpartyId: OTHER_TENANT_ID }))).toBe(
      "finance.unknown_counterparty",
    );
    expect(await both(from, to)).toEqual(before);
  });

  it("an unknown account or another currency: nothing is written", async () => {
    const from = await newAccount("Known origin", true);
    const to = await newAccount("Known destination");
    await t.db.withTenant(tenantId, (tx) =>
      tx.tenantCurrency.create({ data: { tenantId, currencyCode: "USD" } }),
    );
    const dollars = (await t.services.finance.accounts.create(ctx, { name: "Dollars", currency: "USD" })).id;
    const before = await both(from, to);
    expect(await refusal(transfer(from, OTHER_TENANT_ID, "5"))).toBe("finance.unknown_account");
    expect(await refusal(transfer(OTHER_TENANT_ID, to, "5"))).toBe("finance.unknown_account");
    expect(await refusal(transfer(from, dollars, "5"))).toBe("finance.transfer_currency_mismatch");
    expect(await both(from, to)).toEqual(before);
    expect((await state(dollars)).balance).toBe(0n);
  });

  it("balance out of range: the destination's UPDATE fails and nothing is written", async () => {
    const from = await newAccount("Rich origin", true);
    const to = await newAccount("Full destination");
    await t.db.withTenant(tenantId, (tx) =>
      tx.moneyAccount.update({ where: { id: to }, data: { balance: 9_223_372_036_854_775_000n } }),
    );
    await t.outbox.drain();
    const before = await both(from, to);
    expect(await refusal(transfer(from, to, "1000"))).toBe("finance.balance_out_of_range");
    expect(await both(from, to)).toEqual(before);
  });
});
