import { EXPORT_MAX_ROWS, periodInOrder } from "@hisob/kernel/schema";
import { z } from "zod";
import { ZListMoneyAccountsQuery } from "../accounts/accounts.schema";
import { ZListCounterpartiesQuery } from "../counterparties/counterparties.schema";
import { debtsDueRangeInOrder, ZListDebtsQuery } from "../debts/debts.schema";
import { ZListInventoryQuery } from "../inventory/inventory.schema";
import { ZAccountTransactionFilters } from "../ledger/ledger.schema";
import { ZDocumentFilters } from "../payments-expenses/payments-expenses.schema";

/*
 * Finance lists as spreadsheets: the same filters and order as the JSON list; every matching row
 * (up to EXPORT_MAX_ROWS) unless `limit` is given.
 */

export const ZExportRange = {
  limit: z.coerce.number().int().min(1).max(EXPORT_MAX_ROWS).optional(),
  offset: z.coerce.number().int().min(0).max(EXPORT_MAX_ROWS).default(0),
};
export const ZExportDocumentsQuery = ZDocumentFilters.extend(ZExportRange).refine(...periodInOrder);
export const ZExportAccountsQuery = ZListMoneyAccountsQuery.extend(ZExportRange);
export const ZExportAccountTransactionsQuery = ZAccountTransactionFilters.extend(ZExportRange).refine(
  ...periodInOrder,
);

export const ZExportDebtsQuery = z
  .object(ZListDebtsQuery.shape)
  .extend(ZExportRange)
  .refine(...debtsDueRangeInOrder);
export const ZExportCounterpartiesQuery = ZListCounterpartiesQuery.extend(ZExportRange);
export const ZExportInventoryQuery = ZListInventoryQuery.extend(ZExportRange);
