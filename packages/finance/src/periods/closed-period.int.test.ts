import { testDatabaseKind } from "@hisob/db/testing";
import { AppError, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";
import { assertPeriodOpen, prismaSql } from "./closed-period";

/*
 * A posting racing a move of the lock date (docs/decisions/0094-closed-periods.md), in both orders,
 * step by step: on PostgreSQL the two really overlap (a pool of connections; the test waits until the
 * second one is seen waiting on the row lock); on PGlite the second queues behind the first on its one
 * connection. Either way the outcome must be the same: nothing dated in the closed period commits
 * after the move.
 */

const DAY = "2026-11-10";
const postgres = testDatabaseKind() === "postgres";

let t: FinanceTestKit;
let ctx: TenantContext;
let account: string;
let earlier: string;

/** On PostgreSQL: until a backend of this database waits on a lock (the other side is queued). */
const someoneWaits = async () => {
  if (!postgres) return;
  await expect
    .poll(
      async () =>
        (
          await t.db.rawTx.once<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            [],
          )
        )[0]?.n,
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
};

const lockDate = () => t.services.finance.periods.get(ctx).then((period) => period.lockDate);

beforeAll(async () => {
  t = await createFinanceTestKit({ poolSize: 4 });
  const tenant = await t.createTenant();
  const admin = await t.createUser(tenant.id, "admin");
  const resolved = await t.services.context.resolveContext({
    bearerToken: admin.token,
    requestId: "periods",
  });
  if (!resolved) throw new Error("admin context did not resolve");
  ctx = resolved;
  account = (await t.services.finance.accounts.create(ctx, { name: "Kassa", currency: "UZS" })).id;
  earlier = (
    await t.services.finance.payments.create(ctx, {
      accountId: account,
      amount: "100000",
      date: "2026-11-01",
    })
  ).id;
});

afterAll(async () => {
  await t?.close();
});

const entriesOn = (day: string) =>
  t.db.withTenant(
    ctx.tenantId,
    (tx) =>
      tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM transactions WHERE date = ${day}::date`,
  );

describe("a posting racing a lock move", () => {
  it("a posting that comes while the move holds the row waits for it, then reads the new date and is refused", async () => {
    const { finance } = t.services;
    await finance.periods.set(ctx, { lockDate: null });
    let posting: Promise<unknown> | undefined;
    await t.db.withTenant(ctx.tenantId, async (tx) => {
      // The move's own statements (periods.service.ts), with the transaction held open.
      await tx.$queryRaw`SELECT 1 FROM tenants WHERE id = ${ctx.tenantId}::uuid FOR UPDATE`;
      await tx.$executeRaw`UPDATE tenants SET books_closed_through = ${DAY}::date WHERE id = ${ctx.tenantId}::uuid`;
      // The one-statement posting (driver transaction) and a Prisma-transaction one.
      posting = Promise.allSettled([
        finance.payments.create(ctx, { accountId: account, amount: "1", date: DAY }),
        finance.payments.update(ctx, earlier, { date: DAY }),
      ]);
      await someoneWaits();
    });
    for (const outcome of (await posting) as PromiseSettledResult<unknown>[]) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).reason).toBe("finance.period_closed");
      expect((error as AppError).params).toMatchObject({ lockDate: { isoDate: DAY } });
    }
    expect((await entriesOn(DAY))[0]?.n).toBe(0);
  });

  it("a move that comes while a posting holds its check waits until the posting committed", async () => {
    const { finance } = t.services;
    await finance.periods.set(ctx, { lockDate: null });
    let moved = false;
    let move: Promise<unknown> | undefined;
    await t.db.withTenant(ctx.tenantId, async (tx) => {
      // A posting in a Prisma transaction: the rule first (its share lock), then the write.
      await assertPeriodOpen(prismaSql(tx), ctx.tenantId, [{ date: DAY, field: "date" }]);
      move = finance.periods.set(ctx, { lockDate: DAY }).then(() => {
        moved = true;
      });
      await someoneWaits();
      await finance.payments.createIn(tx, ctx, {
        accountId: account,
        amount: "1",
        date: DAY,
        currency: undefined,
        counterpartyId: null,
        categoryId: null,
        comment: "before the move",
      });
      expect(moved).toBe(false);
    });
    await move;
    expect(moved).toBe(true);
    expect(await lockDate()).toBe(DAY);
    // The posting committed before the move, so it stands; nothing can join it now.
    expect((await entriesOn(DAY))[0]?.n).toBe(1);
    await expect(
      finance.payments.create(ctx, { accountId: account, amount: "1", date: DAY }),
    ).rejects.toMatchObject({
      reason: "finance.period_closed",
    });
    expect((await entriesOn(DAY))[0]?.n).toBe(1);
  });
});
