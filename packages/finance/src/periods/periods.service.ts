import { audit, type Db } from "@hisob/db";
import { type Clock, parseInput, requirePermission, systemClock, type TenantContext } from "@hisob/kernel";
import { fieldError } from "../finance-errors";
import { todayOf } from "./closed-period";
import { type TClosedPeriodDto, type TSetClosedPeriodInput, ZSetClosedPeriodInput } from "./periods.schema";

/**
 * The organization's closed period (docs/decisions/0094-closed-periods.md): any signed-in user reads
 * the lock date (the money forms show it); only `periods:update:all` moves it, and every move is audited.
 */
const mayMove = (ctx: TenantContext) => ctx.actor.permissions.has("periods:update:all");

export const createPeriodsService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  return {
    get: async (ctx: TenantContext): Promise<TClosedPeriodDto> => {
      const rows = await db.rawTx.withTenant(
        ctx.tenantId,
        (tx) =>
          tx.query<{ through: string | null }>(
            "SELECT books_closed_through::text AS through FROM tenants WHERE id = $1::uuid",
            [ctx.tenantId],
            { commit: true },
          ),
        { readOnly: true },
      );
      return { lockDate: rows[0]?.through ?? null, canMove: mayMove(ctx) };
    },

    set: async (ctx: TenantContext, raw: TSetClosedPeriodInput): Promise<TClosedPeriodDto> => {
      requirePermission(ctx, "periods:update:all");
      const input = parseInput(ZSetClosedPeriodInput, raw);
      const today = todayOf(clock.now());
      if (input.lockDate !== null && input.lockDate > today) {
        throw fieldError("lockDate", "finance.period_lock_in_future", `must not be after today (${today})`);
      }
      return db.withTenant(ctx.tenantId, async (tx) => {
        // FOR UPDATE, the one lock that conflicts with the FOR KEY SHARE every posting's check takes on
        // this row (closed-period.ts): the move waits for postings that checked the old date, and postings
        // that come now wait for the move and then read the new date.
        const [row] = await tx.$queryRaw<{ through: string | null }[]>`
          SELECT books_closed_through::text AS through FROM tenants WHERE id = ${ctx.tenantId}::uuid FOR UPDATE`;
        const before = row?.through ?? null;
        if (before !== input.lockDate) {
          await tx.$executeRaw`
            UPDATE tenants SET books_closed_through = ${input.lockDate}::date, updated_at = ${clock.now()}
             WHERE id = ${ctx.tenantId}::uuid`;
          await audit(tx, ctx, "closed_period", ctx.tenantId, "update", {
            before: { lockDate: before },
            after: { lockDate: input.lockDate },
          });
        }
        return { lockDate: input.lockDate, canMove: true };
      });
    },
  };
};

export type PeriodsService = ReturnType<typeof createPeriodsService>;
