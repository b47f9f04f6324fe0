import {
  periodInOrder,
  ZCurrencyCode,
  ZIsoDate,
  ZPagination,
  ZPositiveMinorAmount,
  ZText,
} from "@hisob/kernel/schema";
import { z } from "zod";

/*
 * Payments (money in) and expenses (money out) have the same shape; each posts one ledger entry.
 * "Document" in the names below means either of the two (the accounting sense: the record a
 * posting is made from); the wire names stay `Payment` and `Expense`.
 */

const ZComment = ZText(1000);

export const ZCreateDocumentInput = z
  .object({
    accountId: z.uuid(),
    /** Minor units of the account's currency, > 0. */
    amount: ZPositiveMinorAmount,
    /** Optional guard: when given it must be the account's currency (catches an amount meant for another). */
    currency: ZCurrencyCode.optional(),
    date: ZIsoDate,
    counterpartyId: z.uuid().nullable().default(null),
    categoryId: z.uuid().nullable().default(null),
    comment: ZComment.default(""),
  })
  .strict();
export type TCreateDocumentInput = z.input<typeof ZCreateDocumentInput>;

export const ZUpdateDocumentInput = z
  .object({
    accountId: z.uuid().optional(),
    amount: ZPositiveMinorAmount.optional(),
    currency: ZCurrencyCode.optional(),
    date: ZIsoDate.optional(),
    counterpartyId: z.uuid().nullable().optional(),
    categoryId: z.uuid().nullable().optional(),
    comment: ZComment.optional(),
  })
  .strict();
export type TUpdateDocumentInput = z.input<typeof ZUpdateDocumentInput>;

export const DOCUMENT_SORT_FIELDS = ["date", "amount", "createdAt"] as const;

/** The list's sort and filters (the JSON list pages them; the export takes every row by default). */
export const ZDocumentFilters = z.object({
  sortBy: z.enum(DOCUMENT_SORT_FIELDS).default("date"),
  order: z.enum(["asc", "desc"]).default("desc"),
  accountId: z.uuid().optional(),
  counterpartyId: z.uuid().optional(),
  categoryId: z.uuid().optional(),
  createdBy: z.uuid().optional(),
  from: ZIsoDate.optional().describe("First date, inclusive"),
  to: ZIsoDate.optional().describe("Last date, inclusive"),
});

/**
 * The list sorts by up to five fields in order (one field, or a list of them; the id breaks ties), as
 * every other list of documents does; the download keeps one field (its batches page by it).
 */
export const ZDocumentSort = z
  .union([z.enum(DOCUMENT_SORT_FIELDS), z.array(z.enum(DOCUMENT_SORT_FIELDS)).min(1).max(5)])
  .transform((value) => (Array.isArray(value) ? [...new Set(value)] : [value]))
  .default(["date"]);

export const ZListDocumentsQuery = ZPagination.extend({
  ...ZDocumentFilters.shape,
  sortBy: ZDocumentSort,
}).refine(...periodInOrder);
export type TListDocumentsQuery = z.input<typeof ZListDocumentsQuery>;

/** The totals of a list: its filters (a sort or a page changes no total and is ignored). */
export const ZDocumentTotalsQuery = ZDocumentFilters.omit({ sortBy: true, order: true }).refine(
  ...periodInOrder,
);
export type TDocumentTotalsQuery = z.input<typeof ZDocumentTotalsQuery>;

/** How many documents match, and their sum per currency (amounts in different currencies are never added). */
export const ZDocumentTotals = z
  .object({
    count: z.number().int(),
    currencies: z.array(
      z.object({
        currency: z.string(),
        count: z.number().int(),
        /** Minor units as a decimal integer string. */
        amount: z.string(),
      }),
    ),
  })
  .meta({ id: "DocumentTotals" });
export type TDocumentTotals = z.infer<typeof ZDocumentTotals>;

const documentDto = (id: string) =>
  z
    .object({
      id: z.uuid(),
      accountId: z.uuid(),
      /** The account's currency: the unit of `amount`. */
      currency: z.string(),
      /** Minor units as a decimal integer string. */
      amount: z.string(),
      date: z.iso.date(),
      counterpartyId: z.uuid().nullable(),
      categoryId: z.uuid().nullable(),
      comment: z.string(),
      /** The ledger entry this document posted. */
      transactionId: z.uuid(),
      createdBy: z.uuid(),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .meta({ id });

export const ZPaymentDto = documentDto("Payment");
export const ZExpenseDto = documentDto("Expense");
export type TDocumentDto = z.infer<typeof ZPaymentDto>;

/** A row of the list: the document and the names a list shows beside it (one query, no lookups per row). */
const documentListItem = (id: string, dto: typeof ZPaymentDto) =>
  dto
    .extend({
      categoryName: z.string().nullable(),
      counterpartyName: z.string().nullable(),
    })
    .meta({ id });
export const ZPaymentListItem = documentListItem("PaymentListItem", ZPaymentDto);
export const ZExpenseListItem = documentListItem("ExpenseListItem", ZExpenseDto);
export type TDocumentListItem = z.infer<typeof ZPaymentListItem>;
