import { ZTransactionDto } from "../ledger/ledger.schema";
import { op, withId } from "../operations";
import { ZExchangeInput, ZReverseInput, ZTransferInput, ZUpdateMovementInput } from "./transfers.schema";

const tag = "finance: accounts";

export const transfersOperations = {
  create: op.mutation({
    http: { method: "POST", path: "/finance/transfers", status: 201 },
    input: ZTransferInput,
    output: ZTransactionDto,
    access: { requires: ["transfers:create:all"] },
    summary: "Move money between two accounts of one currency",
    tag,
    call: (services, ctx, input) => services.transfers.transfer(ctx, input),
  }),
  update: op.mutation({
    http: { method: "PUT", path: "/finance/transfers/:id", status: 200, rest: "data" },
    input: withId(ZUpdateMovementInput),
    output: ZTransactionDto,
    access: { requires: ["transfers:update:all"] },
    summary: "Change a transfer's date, comment or counterparty (nothing that moves money)",
    tag,
    call: (services, ctx, input) => services.transfers.updateTransfer(ctx, input.id, input.data),
  }),
  reverse: op.mutation({
    http: { method: "POST", path: "/finance/transfers/:id/reversal", status: 201, rest: "data" },
    input: withId(ZReverseInput),
    output: ZTransactionDto,
    access: { requires: ["transfers:update:all"] },
    summary:
      "Reverse a transfer: post its exact opposite, linked to it, with why (once; refused when the destination no longer holds the money)",
    tag,
    call: (services, ctx, input) => services.transfers.reverseTransfer(ctx, input.id, input.data),
  }),
};

export const exchangesOperations = {
  create: op.mutation({
    http: { method: "POST", path: "/finance/exchanges", status: 201 },
    input: ZExchangeInput,
    output: ZTransactionDto,
    access: { requires: ["exchanges:create:all"] },
    summary:
      "Exchange money between accounts of different currencies: give the amount received, a market quote (1 base = rate quote) or a rate in minor units",
    tag,
    call: (services, ctx, input) => services.transfers.exchange(ctx, input),
  }),
  update: op.mutation({
    http: { method: "PUT", path: "/finance/exchanges/:id", status: 200, rest: "data" },
    input: withId(ZUpdateMovementInput),
    output: ZTransactionDto,
    access: { requires: ["exchanges:update:all"] },
    summary: "Change an exchange's date, comment or counterparty (nothing that moves money)",
    tag,
    call: (services, ctx, input) => services.transfers.updateExchange(ctx, input.id, input.data),
  }),
  reverse: op.mutation({
    http: { method: "POST", path: "/finance/exchanges/:id/reversal", status: 201, rest: "data" },
    input: withId(ZReverseInput),
    output: ZTransactionDto,
    access: { requires: ["exchanges:update:all"] },
    summary:
      "Reverse an exchange: post its exact opposite, linked to it, with why (once; refused when the destination no longer holds the money)",
    tag,
    call: (services, ctx, input) => services.transfers.reverseExchange(ctx, input.id, input.data),
  }),
};
