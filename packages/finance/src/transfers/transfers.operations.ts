import { ZTransactionDto } from "../ledger/ledger.schema";
import { op, withId } from "../operations";
import { ZExchangeInput, ZReverseInput, ZTransferInput, ZUpdateMovementInput } from "./transfers.schema";

const tag = "finance: accounts";

/**
 * The two corrections a posted transfer or exchange takes — a change of what moves no money, and
 * its reversal — declared once for both kinds.
 */
const corrections = (kind: "transfer" | "exchange") => {
  const path = `/finance/${kind}s/:id`;
  const permission = kind === "transfer" ? "transfers:update:all" : "exchanges:update:all";
  const one = kind === "transfer" ? "a transfer" : "an exchange";
  return {
    update: op.mutation({
      http: { method: "PUT", path, status: 200, rest: "data" },
      input: withId(ZUpdateMovementInput),
      output: ZTransactionDto,
      access: { requires: [permission] },
      summary: `Change ${one}'s date, comment or counterparty (nothing that moves money)`,
      tag,
      call: (services, ctx, input) =>
        kind === "transfer"
          ? services.transfers.updateTransfer(ctx, input.id, input.data)
          : services.transfers.updateExchange(ctx, input.id, input.data),
    }),
    reverse: op.mutation({
      idempotent: true,
      http: { method: "POST", path: `${path}/reversal`, status: 201, rest: "data" },
      input: withId(ZReverseInput),
      output: ZTransactionDto,
      access: { requires: [permission] },
      summary: `Reverse ${one}: post its exact opposite, linked to it, with why (once; refused when the destination no longer holds the money)`,
      tag,
      call: (services, ctx, input) =>
        kind === "transfer"
          ? services.transfers.reverseTransfer(ctx, input.id, input.data)
          : services.transfers.reverseExchange(ctx, input.id, input.data),
    }),
  };
};

export const transfersOperations = {
  create: op.mutation({
    idempotent: true,
    http: { method: "POST", path: "/finance/transfers", status: 201 },
    input: ZTransferInput,
    output: ZTransactionDto,
    access: { requires: ["transfers:create:all"] },
    summary: "Move money between two accounts of one currency",
    tag,
    call: (services, ctx, input) => services.transfers.transfer(ctx, input),
  }),
  ...corrections("transfer"),
};

export const exchangesOperations = {
  create: op.mutation({
    idempotent: true,
    http: { method: "POST", path: "/finance/exchanges", status: 201 },
    input: ZExchangeInput,
    output: ZTransactionDto,
    access: { requires: ["exchanges:create:all"] },
    summary:
      "Exchange money between accounts of different currencies: give the amount received, a market quote (1 base = rate quote) or a rate in minor units",
    tag,
    call: (services, ctx, input) => services.transfers.exchange(ctx, input),
  }),
  ...corrections("exchange"),
};
