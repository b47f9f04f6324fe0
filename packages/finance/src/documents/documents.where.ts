import type { Prisma } from "@hisob/db";
import type { z } from "zod";
import { dateOf } from "../dates";
import type { ZListDocumentsQuery } from "./documents.schema";

type DocumentFilters = Omit<z.output<typeof ZListDocumentsQuery>, "limit" | "offset">;

/** The payments/expenses filter shared by the list and its export; `ownerId` limits a `:own` reader. */
export const documentsWhere = (
  tenantId: string,
  query: DocumentFilters,
  ownerId: string | null,
): Prisma.PaymentWhereInput => ({
  tenantId,
  ...(query.accountId ? { accountId: query.accountId } : {}),
  ...(query.counterpartyId ? { counterpartyId: query.counterpartyId } : {}),
  ...(query.categoryId ? { categoryId: query.categoryId } : {}),
  ...(query.createdBy ? { createdBy: query.createdBy } : {}),
  ...(query.from || query.to
    ? {
        date: {
          ...(query.from ? { gte: dateOf(query.from) } : {}),
          ...(query.to ? { lte: dateOf(query.to) } : {}),
        },
      }
    : {}),
  ...(ownerId ? { createdBy: ownerId } : {}),
});
