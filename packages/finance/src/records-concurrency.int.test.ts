import { testDatabaseKind } from "@hisob/db/testing";
import { AppError, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "./finance-test-kit";

/*
 * Many callers changing one debt, one item or one category tree at once. On PostgreSQL the calls
 * really overlap (a pool of 10 connections, 64 callers); on PGlite they queue on its single
 * connection. Whatever the interleaving: a debt is never settled beyond its amount, a quantity
 * never goes below zero, and a category tree never gets a cycle.
 */

const CALLERS = 64;
const postgres = testDatabaseKind() === "postgres";
const TODAY = "2026-11-22";

let t: FinanceTestKit;
let ctx: TenantContext;

/** A small deterministic generator: the same mix on every run. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/** Runs `tasks` with CALLERS workers pulling from one queue; returns each outcome in task order. */
const race = async <T>(tasks: Array<() => Promise<T>>): Promise<PromiseSettledResult<T>[]> => {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let cursor = 0;
  const worker = async () => {
    while (cursor < tasks.length) {
      const index = cursor++;
      const task = tasks[index];
      if (!task) return;
      try {
        results[index] = { status: "fulfilled", value: await task() };
      } catch (reason) {
        results[index] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, worker));
  return results;
};

/** "ok", an AppError's reason, or the whole text of anything else (so a failure shows what it was). */
const reasonOf = (result: PromiseSettledResult<unknown>) =>
  result.status === "rejected"
    ? result.reason instanceof AppError
      ? result.reason.reason
      : result.reason instanceof Error
        ? `${result.reason.name}: ${result.reason.message}`
        : String(result.reason)
    : "ok";

beforeAll(async () => {
  t = await createFinanceTestKit({ poolSize: 10 });
  const tenant = await t.createTenant();
  const admin = await t.createUser(tenant.id, "admin");
  const resolved = await t.services.context.resolveContext({
    bearerToken: admin.token,
    requestId: "records-concurrency",
  });
  if (!resolved) throw new Error("admin context did not resolve");
  ctx = resolved;
});

afterAll(async () => {
  await t?.close();
});

describe("concurrent settlements of one debt", () => {
  it(`${CALLERS} callers race for the last amount: exactly one wins`, async () => {
    const { accounts, counterparties, debts, reconcile } = t.services.finance;
    const account = await accounts.create(ctx, { name: "Race", currency: "UZS" });
    const counterparty = await counterparties.create(ctx, { name: "Racer" });
    const debt = await debts.create(ctx, {
      kind: "receivable",
      counterpartyId: counterparty.id,
      amount: "1000",
      currency: "UZS",
    });
    await debts.settle(ctx, debt.id, { amount: "990", accountId: account.id, date: TODAY });

    const results = await race(
      Array.from(
        { length: CALLERS },
        () => () => debts.settle(ctx, debt.id, { amount: "10", accountId: account.id, date: TODAY }),
      ),
    );
    const winners = results.filter((result) => result.status === "fulfilled");
    expect(winners).toHaveLength(1);
    expect(new Set(results.filter((r) => r.status === "rejected").map(reasonOf))).toEqual(
      new Set(["finance.debt_already_settled"]),
    );
    const settled = await debts.get(ctx, debt.id);
    expect(settled).toMatchObject({ status: "settled", outstanding: "0", settled: "1000" });
    expect(settled.settlements).toHaveLength(2);
    expect((await accounts.get(ctx, account.id)).balance).toBe("1000");
    const report = await reconcile.reconcile(ctx);
    expect(report.ok).toBe(true);
    // The general ledger too (docs/decisions/0093-general-ledger.md).
    expect(report.ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      balanceSheet: { difference: "0" },
    });
  });

  it("random partial settlements never add up to more than the debt", async () => {
    const { accounts, counterparties, debts, reconcile } = t.services.finance;
    // Payables: each settlement also draws on a strict account (its debt's own), so two row locks
    // are in play, the debt's and then the account's.
    const counterparty = await counterparties.create(ctx, { name: "Supplier" });
    const debts_ = await Promise.all(
      [5_000, 7_000, 3_000].map(async (amount, index) => {
        const account = await accounts.create(ctx, { name: `Payables ${index}`, currency: "UZS" });
        await t.services.finance.payments.create(ctx, {
          accountId: account.id,
          amount: "100000",
          date: TODAY,
        });
        const debt = await debts.create(ctx, {
          kind: "payable",
          counterpartyId: counterparty.id,
          amount: String(amount),
          currency: "UZS",
        });
        return { ...debt, accountId: account.id };
      }),
    );
    const next = random(11);
    const attempts = Array.from({ length: postgres ? 300 : 150 }, () => ({
      debt: debts_[Math.floor(next() * debts_.length)] as (typeof debts_)[number],
      amount: 1 + Math.floor(next() * 400),
    }));
    const results = await race(
      attempts.map(
        (attempt) => () =>
          debts.settle(ctx, attempt.debt.id, {
            amount: String(attempt.amount),
            accountId: attempt.debt.accountId,
            date: TODAY,
          }),
      ),
    );
    for (const result of results) {
      expect(["ok", "finance.debt_over_settlement", "finance.debt_already_settled"]).toContain(
        reasonOf(result),
      );
    }
    for (const debt of debts_) {
      const accepted = attempts
        .filter((attempt, index) => attempt.debt.id === debt.id && results[index]?.status === "fulfilled")
        .reduce((sum, attempt) => sum + BigInt(attempt.amount), 0n);
      const after = await debts.get(ctx, debt.id);
      expect(BigInt(after.settled)).toBe(accepted);
      expect(BigInt(after.outstanding)).toBe(BigInt(debt.amount) - accepted);
      expect(BigInt(after.outstanding)).toBeGreaterThanOrEqual(0n);
      expect(after.settlements.reduce((sum, s) => sum + BigInt(s.amount), 0n)).toBe(accepted);
      expect(after.status).toBe(
        accepted === 0n ? "pending" : after.outstanding === "0" ? "settled" : "partial",
      );
      expect((await accounts.get(ctx, debt.accountId)).balance).toBe(String(100_000n - accepted));
    }
    const report = await reconcile.reconcile(ctx);
    expect(report.ok).toBe(true);
    // The general ledger too (docs/decisions/0093-general-ledger.md).
    expect(report.ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      balanceSheet: { difference: "0" },
    });
  }, 90_000); // hundreds of racing settlements on the embedded database: ~25 s on a busy 2-core machine

  it("settling, writing off and reversing one debt at once leave one consistent story", async () => {
    const { accounts, counterparties, debts, reconcile } = t.services.finance;
    const account = await accounts.create(ctx, { name: "Mixed", currency: "UZS", allowOverdraft: true });
    const counterparty = await counterparties.create(ctx, { name: "Mixed" });
    // Large enough that the settlements below can never close it: the write-off always applies.
    const debt = await debts.create(ctx, {
      kind: "receivable",
      counterpartyId: counterparty.id,
      amount: "5000",
      currency: "UZS",
    });
    const first = await debts.settle(ctx, debt.id, { amount: "100", accountId: account.id, date: TODAY });
    const results = await race<unknown>([
      ...Array.from(
        { length: 20 },
        () => () => debts.settle(ctx, debt.id, { amount: "50", accountId: account.id, date: TODAY }),
      ),
      () => debts.reverseSettlement(ctx, debt.id, first.settlement.id),
      () => debts.writeOff(ctx, debt.id, { reason: "Stop" }),
    ]);
    expect(results.at(-1)?.status).toBe("fulfilled");
    const after = await debts.get(ctx, debt.id);
    expect(after.status).toBe("written_off");
    const settled = after.settlements.reduce((sum, s) => sum + BigInt(s.amount), 0n);
    expect(BigInt(after.settled)).toBe(settled);
    expect(BigInt(after.writeOff?.amount ?? "0") + settled).toBe(5000n);
    for (const result of results) {
      expect(["ok", "finance.debt_written_off"]).toContain(reasonOf(result));
    }
    expect((await accounts.get(ctx, account.id)).balance).toBe(String(settled));
    const report = await reconcile.reconcile(ctx);
    expect(report.ok).toBe(true);
    // The general ledger too (docs/decisions/0093-general-ledger.md).
    expect(report.ledger).toMatchObject({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
      balanceSheet: { difference: "0" },
    });
  });
});

describe("concurrent inventory movements", () => {
  it("issues racing for the stock never drive it below zero, and the history adds up", async () => {
    const { inventory } = t.services.finance;
    const item = await inventory.create(ctx, {
      name: "Bolts",
      sku: "BOLT-M8",
      unit: "kg",
      quantity: "100",
      currency: "UZS",
    });
    const next = random(5);
    const movements = Array.from({ length: postgres ? 400 : 150 }, (_, index) => {
      const quantity = (1 + Math.floor(next() * 2_999_999) / 1_000_000).toFixed(6); // 1.000000 … 3.999999
      if (index % 10 === 0) return { type: "receipt" as const, quantity, sign: 1 };
      if (index % 10 === 1) return { type: "adjustment" as const, quantity: `-${quantity}`, sign: 1 };
      return { type: "issue" as const, quantity, sign: -1 };
    });
    const results = await race(
      movements.map(
        (movement) => () =>
          inventory.recordMovement(ctx, item.id, {
            type: movement.type,
            quantity: movement.quantity,
            date: TODAY,
          }),
      ),
    );
    const refusals = new Set(results.filter((r) => r.status === "rejected").map(reasonOf));
    expect([...refusals].every((reason) => reason === "finance.insufficient_stock")).toBe(true);
    expect(results.filter((r) => r.status === "fulfilled").length).toBeGreaterThan(20);
    expect(refusals.size).toBe(1); // the stock did run out

    // Exact decimal sums, in micro-units.
    const micro = (text: string) => {
      const negative = text.startsWith("-");
      const [whole = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
      const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
      return negative ? -value : value;
    };
    const expected = movements.reduce((sum, movement, index) => {
      if (results[index]?.status !== "fulfilled") return sum;
      const change = micro(movement.quantity);
      return sum + (movement.sign < 0 ? -change : change);
    }, micro("100"));
    const after = await inventory.get(ctx, item.id);
    expect(micro(after.quantity)).toBe(expected);
    expect(micro(after.quantity)).toBeGreaterThanOrEqual(0n);
    const rows = await t.db.withTenant(
      ctx.tenantId,
      (tx) =>
        tx.$queryRaw<{ total: string; lowest: string; count: bigint }[]>`
        SELECT sum(quantity_change)::text AS total, min(quantity_after)::text AS lowest, count(*) AS count
          FROM inventory_movements WHERE tenant_id = ${ctx.tenantId}::uuid AND item_id = ${item.id}::uuid`,
    );
    expect(micro(rows[0]?.total ?? "")).toBe(expected);
    expect(micro(rows[0]?.lowest ?? "-1")).toBeGreaterThanOrEqual(0n);
    // Applied in id order, each movement's quantityAfter is the previous one's plus its change.
    let running = 0n;
    let seen = 0;
    for (let offset = 0; ; offset += 100) {
      const page = await inventory.movements(ctx, item.id, { order: "asc", limit: 100, offset });
      for (const movement of page.items) {
        running += micro(movement.quantity);
        expect(micro(movement.quantityAfter)).toBe(running);
      }
      seen += page.items.length;
      if (page.items.length < 100) break;
    }
    expect(seen).toBe(Number(rows[0]?.count));
    expect(running).toBe(expected);
  });
});

describe("concurrent category moves", () => {
  it.each([
    ["payment", "paymentCategories"],
    ["expense", "expenseCategories"],
  ] as const)("%s categories: crossing moves never make a cycle", async (_kind, key) => {
    const categories = t.services.finance[key];
    const nodes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => categories.create(ctx, { name: `Node ${index}` })),
    );
    // Pairs that swap parents at once: A under B and B under A, exactly one of each pair may win.
    const pairs = Array.from({ length: 6 }, (_, index) => [nodes[2 * index], nodes[2 * index + 1]]);
    const results = await race(
      pairs.flatMap(([a, b]) => {
        if (!a || !b) throw new Error("pairs");
        return [
          () => categories.update(ctx, a.id, { parentId: b.id }),
          () => categories.update(ctx, b.id, { parentId: a.id }),
        ];
      }),
    );
    for (let index = 0; index < results.length; index += 2) {
      const outcomes = [results[index], results[index + 1]].map((result) =>
        result ? reasonOf(result) : "?",
      );
      expect(outcomes.sort()).toEqual(["finance.category_cycle", "ok"]);
    }
    // Then a storm of random moves across the whole forest.
    const next = random(3);
    const moves = Array.from({ length: 200 }, () => {
      const child = nodes[Math.floor(next() * nodes.length)];
      const parent = nodes[Math.floor(next() * nodes.length)];
      if (!child || !parent) throw new Error("nodes");
      return () => categories.update(ctx, child.id, { parentId: next() < 0.1 ? null : parent.id });
    });
    const storm = await race(moves);
    for (const result of storm) expect(["ok", "finance.category_cycle"]).toContain(reasonOf(result));
    expect(storm.filter((result) => result.status === "fulfilled").length).toBeGreaterThan(0);

    // No node is its own ancestor: walking up from each one ends at a root within 12 steps.
    const table = key === "paymentCategories" ? "payment_categories" : "expense_categories";
    const cyclic = await t.db.withTenant(ctx.tenantId, (tx) =>
      tx.$queryRawUnsafe<{ id: string }[]>(
        `WITH RECURSIVE walk(start, id, depth) AS (
           SELECT id, parent_id, 1 FROM ${table} WHERE tenant_id = $1::uuid AND parent_id IS NOT NULL
           UNION ALL
           SELECT w.start, c.parent_id, w.depth + 1 FROM walk w
             JOIN ${table} c ON c.tenant_id = $1::uuid AND c.id = w.id
            WHERE c.parent_id IS NOT NULL AND w.depth < 50
         )
         SELECT DISTINCT start::text AS id FROM walk WHERE id = start OR depth >= 50`,
        ctx.tenantId,
      ),
    );
    expect(cyclic).toEqual([]);
  });
});
