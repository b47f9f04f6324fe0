import { op } from "../operations";
import { ZReconcileReport } from "./reconcile.schema";

export const reconcileOperations = {
  run: op.query({
    http: { method: "GET", path: "/finance/reconcile", status: 200 },
    output: ZReconcileReport,
    access: { requires: ["accounts:reconcile:all"] },
    summary: "Recompute every balance from its transactions and list any drift",
    tag: "finance: accounts",
    call: (services, ctx) => services.reconcile.reconcile(ctx),
  }),
};
