import { ZTransactionDto } from "../ledger/ledger.schema";
import { op } from "../operations";
import { ZExchangeInput, ZTransferInput } from "./transfers.schema";

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
};

export const exchangesOperations = {
  create: op.mutation({
    http: { method: "POST", path: "/finance/exchanges", status: 201 },
    input: ZExchangeInput,
    output: ZTransactionDto,
    access: { requires: ["exchanges:create:all"] },
    summary:
      "Exchange money between accounts of different currencies; the destination receives trunc(amount × rate)",
    tag,
    call: (services, ctx, input) => services.transfers.exchange(ctx, input),
  }),
};
