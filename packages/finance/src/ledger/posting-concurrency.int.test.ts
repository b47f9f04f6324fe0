import { testDatabaseKind } from "@hisob/db/testing";
import { AppError, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * Many callers posting to the same accounts at once. On PostgreSQL the postings really overlap
 * (a pool of 10 connections, 64 callers); on PGlite they queue on its single connection.
 * Whatever the interleaving, the stored balances must equal the sum of the postings that
 * succeeded, a non-overdraft account must never go below zero, and reconcile must find no drift.
 */

const POSTINGS = testDatabaseKind() === "postgres" ? 500 : 150;
const CALLERS = 64;
const TODAY = "2026-11-22";

let t: FinanceTestKit;
let ctx: TenantContext;

/** A small deterministic generator: the same mix of postings on every run. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

beforeAll(async () => {
  t = await createFinanceTestKit({ poolSize: 10 });
  const tenant = await t.createTenant();
  const admin = await t.createUser(tenant.id, "admin");
  const resolved = await t.services.context.resolveContext({
    bearerToken: admin.token,
    requestId: "concurrency",
  });
  if (!resolved) throw new Error("admin context did not resolve");
  ctx = resolved;
});

afterAll(async () => {
  await t?.close();
});

describe(`${POSTINGS} concurrent postings to the same accounts`, () => {
  it("end with exact balances, none below zero where overdraft is off, and zero drift", async () => {
    const { accounts, payments, expenses, transfers, reconcile } = t.services.finance;
    const strictA = await accounts.create(ctx, { name: "Strict A", currency: "UZS" });
    const strictB = await accounts.create(ctx, { name: "Strict B", currency: "UZS" });
    const overdraft = await accounts.create(ctx, {
      name: "Overdraft",
      currency: "UZS",
      allowOverdraft: true,
    });
    const ids = [strictA.id, strictB.id, overdraft.id];
    const expected = new Map(ids.map((id) => [id, 0n]));
    const add = (id: string, delta: bigint) => expected.set(id, (expected.get(id) ?? 0n) + delta);
    for (const id of ids) {
      await payments.create(ctx, { accountId: id, amount: "100000", date: TODAY });
      add(id, 100_000n);
    }

    const next = random(7);
    const pick = () => ids[Math.floor(next() * ids.length)] as string;
    const amount = (max: number) => BigInt(1 + Math.floor(next() * max));
    const postings = Array.from({ length: POSTINGS }, (_, index) => {
      const kind = index % 3;
      const from = pick();
      let to = pick();
      while (to === from) to = pick();
      return { kind, from, to, amount: kind === 0 ? amount(2_000) : amount(6_000) };
    });

    const outcomes = { applied: 0, refused: 0 };
    let cursor = 0;
    const caller = async () => {
      while (cursor < postings.length) {
        const posting = postings[cursor++];
        if (!posting) return;
        const value = posting.amount.toString();
        try {
          if (posting.kind === 0) {
            await payments.create(ctx, { accountId: posting.to, amount: value, date: TODAY });
            add(posting.to, posting.amount);
          } else if (posting.kind === 1) {
            await expenses.create(ctx, { accountId: posting.from, amount: value, date: TODAY });
            add(posting.from, -posting.amount);
          } else {
            await transfers.transfer(ctx, {
              fromAccountId: posting.from,
              toAccountId: posting.to,
              amount: value,
              date: TODAY,
            });
            add(posting.from, -posting.amount);
            add(posting.to, posting.amount);
          }
          outcomes.applied++;
        } catch (error) {
          // The only acceptable refusal: not enough money on a strict account.
          if (!(error instanceof AppError) || error.reason !== "finance.insufficient_balance") throw error;
          outcomes.refused++;
        }
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));

    expect(outcomes.applied + outcomes.refused).toBe(POSTINGS);
    expect(outcomes.applied).toBeGreaterThan(POSTINGS / 2);
    for (const id of ids) {
      const account = await accounts.get(ctx, id);
      expect(account.balance, account.name).toBe(String(expected.get(id)));
      if (!account.allowOverdraft) expect(BigInt(account.balance)).toBeGreaterThanOrEqual(0n);
    }
    const report = await reconcile.reconcile(ctx);
    expect(report).toMatchObject({ ok: true, drift: [], mismatchedDocuments: [] });
    // The general ledger under them (docs/decisions/0093-general-ledger.md): debits equal credits,
    // every money account's ledger balance equals its cash balance.
    expect(report.ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      balanceSheet: { difference: "0" },
    });
  });

  it("concurrent edits and deletions of one payment leave one consistent outcome", async () => {
    const { accounts, payments, reconcile } = t.services.finance;
    const account = await accounts.create(ctx, { name: "Edits", currency: "UZS", allowOverdraft: true });
    const payment = await payments.create(ctx, { accountId: account.id, amount: "1000", date: TODAY });
    const results = await Promise.allSettled([
      ...Array.from({ length: 10 }, (_, index) =>
        payments.update(ctx, payment.id, { amount: String(2_000 + index) }),
      ),
      payments.delete(ctx, payment.id),
    ]);
    const deleted = results.at(-1)?.status === "fulfilled";
    expect(deleted).toBe(true);
    // Updates queued behind the deletion find nothing; the ones before it were reversed by it.
    for (const result of results.slice(0, -1)) {
      if (result.status === "rejected")
        expect((result.reason as AppError).reason).toBe("finance.payment_not_found");
    }
    expect((await accounts.get(ctx, account.id)).balance).toBe("0");
    const report = await reconcile.reconcile(ctx);
    expect(report.ok).toBe(true);
    expect(report.ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      balanceSheet: { difference: "0" },
    });
  });
});
