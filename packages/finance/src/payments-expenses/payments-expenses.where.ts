import type { Prisma } from "@hisob/db";
import type { z } from "zod";
import { dateOf } from "../dates";
import type { ZListDocumentsQuery } from "./payments-expenses.schema";

type DocumentFilters = Omit<z.output<typeof ZListDocumentsQuery>, "limit" | "offset">;

/**
 * The payments/expenses filter shared by the list and its export; `ownerId` limits a `:own` reader.
 * The scope narrows the filter, never replaces it: an own reader asking for someone else's
 * documents gets none.
 */
export const paymentsExpensesWhere = (
  tenantId: string,
  query: DocumentFilters,
  ownerId: string | null,
): Prisma.PaymentWhereInput => ({
  tenantId,
  ...(query.accountId ? { accountId: query.accountId } : {}),
  ...(query.counterpartyId ? { counterpartyId: query.counterpartyId } : {}),
  ...(query.categoryId ? { categoryId: query.categoryId } : {}),
  ...(query.from || query.to
    ? {
        date: {
          ...(query.from ? { gte: dateOf(query.from) } : {}),
          ...(query.to ? { lte: dateOf(query.to) } : {}),
        },
      }
    : {}),
  ...(ownerId || query.createdBy
    ? { AND: [ownerId ? { createdBy: ownerId } : {}, query.createdBy ? { createdBy: query.createdBy } : {}] }
    : {}),
});
