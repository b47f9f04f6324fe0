import { z } from "zod";
import { crudOperations, op, withId } from "../operations";
import {
  ZCreateDebtInput,
  ZDebtDetailDto,
  ZDebtDto,
  ZDebtHistoryEntryDto,
  ZDebtSettlementResult,
  ZListDebtsQuery,
  ZSettleDebtInput,
  ZUpdateDebtInput,
  ZWriteOffDebtInput,
} from "./debts.schema";

const tag = "finance: debts";
const path = "/finance/debts";

/** Debts owed to (receivable) or by (payable) the organization, their settlements and write-offs. */
export const debtsOperations = {
  ...crudOperations({
    path,
    tag,
    service: (services) => services.debts,
    idempotentCreate: true,
    schemas: {
      list: ZListDebtsQuery,
      listItem: ZDebtDto,
      create: ZCreateDebtInput,
      update: ZUpdateDebtInput,
      item: ZDebtDetailDto,
    },
    access: {
      list: "debts:read:all",
      get: "debts:read:all",
      create: "debts:create:all",
      update: "debts:update:all",
      delete: "debts:delete:all",
    },
    summaries: {
      list: "List debts by status, kind, counterparty, currency or due date",
      get: "Get a debt with its settlements",
      create: "Record a debt; it starts pending with everything outstanding",
      update:
        "Change a debt: anything while pending; amount (above what is settled), due date and description once partly settled; due date and description when closed",
      delete: "Delete a pending debt (nothing settled, not written off)",
    },
  }),
  history: op.query({
    http: { method: "GET", path: `${path}/:id/history`, status: 200 },
    input: z.object({ id: z.uuid() }),
    output: z.array(ZDebtHistoryEntryDto),
    access: { requires: ["debts:read:all"] },
    summary:
      "A debt's history, oldest first: created, edited, each settlement and its reversal, the write-off, each with who and when",
    tag,
    call: (services, ctx, input) => services.debts.history(ctx, input.id),
  }),
  settle: op.mutation({
    idempotent: true,
    http: { method: "POST", path: `${path}/:id/settle`, status: 201, rest: "data" },
    input: withId(ZSettleDebtInput),
    output: ZDebtSettlementResult,
    access: {
      requires: ["debts:update:all"],
      oneOf: [
        { permission: "payments:create:all", when: "receivable" },
        { permission: "expenses:create:all", when: "payable" },
      ],
    },
    summary:
      "Settle all or part of a debt from an account in its currency: a receivable posts a payment into the account, a payable an expense out of it, in the same transaction",
    tag,
    call: (services, ctx, input) => services.debts.settle(ctx, input.id, input.data),
  }),
  reverseSettlement: op.mutation({
    idempotent: true,
    http: { method: "DELETE", path: `${path}/:id/settlements/:settlementId`, status: 200 },
    input: z.object({ id: z.uuid(), settlementId: z.uuid() }),
    output: ZDebtDetailDto,
    access: {
      requires: ["debts:update:all"],
      oneOf: [
        { permission: "payments:delete:all", when: "receivable" },
        { permission: "expenses:delete:all", when: "payable" },
      ],
    },
    summary: "Reverse a settlement: its payment or expense is deleted and the amount is outstanding again",
    tag,
    call: (services, ctx, input) => services.debts.reverseSettlement(ctx, input.id, input.settlementId),
  }),
  writeOff: op.mutation({
    idempotent: true,
    http: { method: "POST", path: `${path}/:id/write-off`, status: 200, rest: "data" },
    input: withId(ZWriteOffDebtInput),
    output: ZDebtDetailDto,
    access: { requires: ["debts:update:all"] },
    summary: "Write off what is outstanding, recording who and why",
    tag,
    call: (services, ctx, input) => services.debts.writeOff(ctx, input.id, input.data),
  }),
};
