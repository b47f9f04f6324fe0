import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * A debt settlement posts its payment or expense inside the settlement's Prisma transaction through
 * the one posting module (ledger/post-document.ts), as payments.create does on the driver: balance,
 * entry, document, outbox event and audit entry in one statement, the account's currency merged into
 * the event and the entry (docs/decisions/0091-tests-beside-their-features.md).
 */

let t: FinanceTestKit;
let ctx: TenantContext;
let postings: string[] = [];
const TODAY = "2026-11-25";

beforeAll(async () => {
  t = await createFinanceTestKit({
    onQuery: (sql) => {
      if (sql.includes("WITH moved AS")) postings.push(sql);
    },
  });
  const tenant = await t.createTenant();
  ctx = await t.contextOf(await t.createUser(tenant.id, "admin"), "settlement-posting");
});
afterAll(async () => t?.close());

const written = (documentId: string) =>
  t.db.withTenant(ctx.tenantId, async (tx) => ({
    events: await tx.outboxEvent.findMany({
      // DebtSettled names the payment too; the posting writes PaymentCreated, once.
      where: {
        tenantId: ctx.tenantId,
        type: "PaymentCreated",
        payload: { path: ["paymentId"], equals: documentId },
      },
      select: { type: true, payload: true },
    }),
    audits: await tx.auditEntry.findMany({
      where: { entity: "payment", entityId: documentId },
      select: { action: true, userId: true, after: true },
    }),
  }));

describe("a settlement's posting", () => {
  it("is one statement with the document's event and audit entry", async () => {
    const { accounts, counterparties, debts } = t.services.finance;
    const account = await accounts.create(ctx, { name: "Till", currency: "UZS" });
    const customer = await counterparties.create(ctx, { name: "Customer" });
    const debt = await debts.create(ctx, {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "1000",
      currency: "UZS",
    });
    postings = [];
    const { settlement } = await debts.settle(ctx, debt.id, {
      amount: "400",
      accountId: account.id,
      date: TODAY,
    });
    expect(postings).toHaveLength(1);
    expect(postings[0]).toContain("INSERT INTO outbox_events");
    expect(postings[0]).toContain("INSERT INTO audit_log");
    const paymentId = settlement.paymentId ?? "";
    const { events, audits } = await written(paymentId);
    expect(events).toEqual([
      {
        type: "PaymentCreated",
        payload: expect.objectContaining({
          paymentId,
          accountId: account.id,
          amount: "400",
          currency: "UZS",
        }),
      },
    ]);
    expect(audits).toEqual([
      {
        action: "create",
        userId: ctx.actor.userId,
        after: expect.objectContaining({ id: paymentId, amount: "400", currency: "UZS" }),
      },
    ]);
    expect((await accounts.get(ctx, account.id)).balance).toBe("400");
  });

  it("refused for want of money, writes no document, event, audit entry or settlement", async () => {
    const { accounts, counterparties, debts } = t.services.finance;
    const account = await accounts.create(ctx, { name: "Empty", currency: "UZS" });
    const supplier = await counterparties.create(ctx, { name: "Supplier" });
    const debt = await debts.create(ctx, {
      kind: "payable",
      counterpartyId: supplier.id,
      amount: "1000",
      currency: "UZS",
    });
    const counts = () =>
      t.db.withTenant(ctx.tenantId, async (tx) => ({
        expenses: await tx.expense.count(),
        events: await tx.outboxEvent.count({ where: { tenantId: ctx.tenantId } }),
        audits: await tx.auditEntry.count({ where: { entity: "expense" } }),
        settlements: await tx.debtSettlement.count(),
      }));
    const before = await counts();
    const error = await debts.settle(ctx, debt.id, { amount: "10", accountId: account.id, date: TODAY }).then(
      () => null,
      (reason: unknown) => reason as { reason?: string },
    );
    expect(error?.reason).toBe("finance.insufficient_balance");
    expect(await counts()).toEqual(before);
    expect(await debts.get(ctx, debt.id)).toMatchObject({ outstanding: "1000", status: "pending" });
  });
});
