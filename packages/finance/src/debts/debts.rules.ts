import type { Db, Outbox, Tx } from "@hisob/db";
import type { Clock, TenantContext } from "@hisob/kernel";
import { AppError } from "@hisob/kernel";
import { currencyNotSelected, notFound, rethrowUnknownReference } from "../finance-errors";
import type { PaymentsExpensesService } from "../payments-expenses/payments-expenses.service";
import { type DebtRow, debtsRepository } from "./debts.repository";
import type { TDebtDetailDto } from "./debts.schema";

/* The debts' refusals, shared by the record's verbs (debts.service) and the settling ones (debt-settlements.service). */

export const debtNotFound = () => notFound("finance.debt_not_found", "Debt not found");

export { currencyNotSelected };

export const alreadySettled = () =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.debt_already_settled",
    message: "The debt is already settled",
  });

export const writtenOff = () =>
  new AppError("BUSINESS_RULE", {
    reason: "finance.debt_written_off",
    message: "The debt was written off",
  });

/** Refuses any change to a closed debt (settled or written off). */
export const refuseIfClosed = (status: DebtRow["status"]) => {
  if (status === "settled") throw alreadySettled();
  if (status === "written_off") throw writtenOff();
};

/** An unknown counterparty, or a currency deselected meanwhile, is caught by a tenant-scoped foreign key. */
export const rethrowReference = rethrowUnknownReference("counterparty", "currency");

/** A settlement's unknown category or account is the settlement's `categoryId` or `accountId`. */
export const rethrowDocumentReference = rethrowUnknownReference("category", "account");

/** The debt as its events and audit entries carry it. */
export const toEventPayload = ({ settlements: _settlements, id: _id, ...debt }: TDebtDetailDto) => debt;

/** The debt with its settlements, or NOT_FOUND. */
export const debtDetail = async (tx: Tx, tenantId: string, id: string): Promise<TDebtDetailDto> => {
  const detail = await debtsRepository.findDetail(tx, tenantId, id);
  if (!detail) throw debtNotFound();
  return detail;
};

/** What the debts' two services take: settling posts its money through payments or expenses. */
export type DebtsDeps = {
  db: Db;
  outbox: Outbox;
  payments: PaymentsExpensesService;
  expenses: PaymentsExpensesService;
  clock?: Clock;
};

/** Raises a debt event in the caller's transaction (the outbox dispatches it after the commit). */
export const debtEvents =
  (outbox: Outbox) => (tx: Tx, ctx: TenantContext, type: string, payload: Record<string, unknown>) =>
    outbox.raise(tx, { type, tenantId: ctx.tenantId, payload });
