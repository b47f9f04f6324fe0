import { op } from "../operations";
import { ZClosedPeriodDto, ZSetClosedPeriodInput } from "./periods.schema";

const tag = "finance: closed periods";

export const periodsOperations = {
  get: op.query({
    http: { method: "GET", path: "/finance/closed-period", status: 200 },
    output: ZClosedPeriodDto,
    // The money forms show it, so whoever posts can read it.
    access: { requires: [] },
    summary: "The day the books are closed through: nothing dated on or before it changes",
    tag,
    call: (services, ctx) => services.periods.get(ctx),
  }),
  set: op.mutation({
    http: { method: "PUT", path: "/finance/closed-period", status: 200 },
    input: ZSetClosedPeriodInput,
    output: ZClosedPeriodDto,
    access: { requires: ["periods:update:all"] },
    summary: "Close the books through a day, move that day, or (null) open every period again; audited",
    tag,
    call: (services, ctx, input) => services.periods.set(ctx, input),
  }),
};
