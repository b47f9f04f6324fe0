import { datesInOrder, ZIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";

/** One id, or the same parameter repeated (`?accountId=a&accountId=b`). */
const ZAccountIds = z
  .union([z.uuid(), z.array(z.uuid()).min(1).max(100)])
  .optional()
  .describe("Limit the report to these accounts (repeat the parameter for several)");

const ZPeriod = {
  startDate: ZIsoDate.describe("First day, inclusive"),
  endDate: ZIsoDate.describe("Last day, inclusive"),
};
const endNotBeforeStart = datesInOrder("startDate", "endDate");

export const ZIncomeStatementQuery = z
  .object({ ...ZPeriod, accountId: ZAccountIds })
  .refine(...endNotBeforeStart);
export type TIncomeStatementQuery = z.input<typeof ZIncomeStatementQuery>;

export const ZCashflowQuery = z
  .object({
    ...ZPeriod,
    accountId: ZAccountIds,
    granularity: z.enum(["day", "week", "month"]).default("month"),
  })
  .refine(...endNotBeforeStart);
export type TCashflowQuery = z.input<typeof ZCashflowQuery>;

export const ZAccountStatementQuery = z
  .object({
    ...ZPeriod,
    limit: z.coerce.number().int().min(1).max(1000).default(500),
    offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
    /**
     * asc: oldest first (a printed statement); desc: newest first, so the page a screen opens on is
     * the cheapest to read however long the account's history is. Balances are the same either way.
     */
    order: z.enum(["asc", "desc"]).default("asc"),
  })
  .refine(...endNotBeforeStart);
export type TAccountStatementQuery = z.input<typeof ZAccountStatementQuery>;

/**
 * The statement download: the whole period, no paging. A bound left out is the date of the account's
 * first (or last) entry, so a file of the whole history is dated by what it holds (see
 * docs/decisions/0006-statement-period-without-dates.md).
 */
export const ZAccountStatementExportQuery = z
  .object({
    startDate: ZIsoDate.optional().describe("First day, inclusive; by default the day of the first entry"),
    endDate: ZIsoDate.optional().describe("Last day, inclusive; by default the day of the last entry"),
  })
  .refine(...endNotBeforeStart);

/** Minor units as a decimal integer string. */
const ZAmount = z.string();

export const ZIncomeStatement = z
  .object({
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    accountIds: z.array(z.uuid()).nullable(),
    /** One section per currency: amounts in different currencies are never added together. */
    currencies: z.array(
      z.object({
        currency: z.string(),
        revenue: ZAmount,
        expenses: ZAmount,
        netIncome: ZAmount,
        revenueByCategory: z.array(
          z.object({ categoryId: z.uuid().nullable(), categoryName: z.string().nullable(), amount: ZAmount }),
        ),
        expensesByCategory: z.array(
          z.object({ categoryId: z.uuid().nullable(), categoryName: z.string().nullable(), amount: ZAmount }),
        ),
        byMonth: z.array(
          z.object({
            month: z.string().describe("YYYY-MM"),
            revenue: ZAmount,
            expenses: ZAmount,
            netIncome: ZAmount,
          }),
        ),
      }),
    ),
  })
  .meta({ id: "IncomeStatement" });
export type TIncomeStatement = z.infer<typeof ZIncomeStatement>;

const ZFlows = {
  /** Everything that entered: income + transfers in + exchanges in. */
  inflows: ZAmount,
  /** Everything that left: expenses + transfers out + exchanges out. */
  outflows: ZAmount,
  income: ZAmount,
  expense: ZAmount,
  transfersIn: ZAmount,
  transfersOut: ZAmount,
  exchangesIn: ZAmount,
  exchangesOut: ZAmount,
};

export const ZCashflowReport = z
  .object({
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    granularity: z.enum(["day", "week", "month"]),
    accounts: z.array(
      z.object({
        accountId: z.uuid(),
        name: z.string(),
        currency: z.string(),
        openingBalance: ZAmount,
        closingBalance: ZAmount,
        ...ZFlows,
        /** Every period of the range, empty ones included, oldest first. */
        periods: z.array(
          z.object({
            period: z.string().describe('"2026-11" (month), "2026-W47" (ISO week) or "2026-11-25" (day)'),
            startDate: z.iso.date().describe("First day of the period within the report's range"),
            endDate: z.iso.date().describe("Last day of the period within the report's range"),
            openingBalance: ZAmount,
            closingBalance: ZAmount,
            ...ZFlows,
          }),
        ),
      }),
    ),
    /** Per currency, over the accounts above. */
    totals: z.array(
      z.object({ currency: z.string(), openingBalance: ZAmount, closingBalance: ZAmount, ...ZFlows }),
    ),
    /** Money moved between the tenant's accounts in the period, per pair of accounts. */
    movements: z.array(
      z.object({
        type: z.enum(["transfer", "exchange"]),
        fromAccountId: z.uuid(),
        toAccountId: z.uuid(),
        count: z.number().int(),
        amount: ZAmount.describe("Left the origin, in its currency"),
        destinationAmount: ZAmount.describe("Entered the destination, in its currency"),
      }),
    ),
  })
  .meta({ id: "CashflowReport" });
export type TCashflowReport = z.infer<typeof ZCashflowReport>;

export const ZAccountStatement = z
  .object({
    account: z.object({ id: z.uuid(), name: z.string(), number: z.string(), currency: z.string() }),
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    openingBalance: ZAmount,
    closingBalance: ZAmount,
    /** Transactions in the period (this page of them), oldest first. */
    entries: z.array(
      z.object({
        id: z.uuid(),
        date: z.iso.date(),
        type: z.enum(["income", "expense", "transfer", "exchange"]),
        comment: z.string(),
        counterAccountId: z.uuid().nullable(),
        /** Transfers and exchanges: who the money went through, if anyone. */
        counterpartyId: z.uuid().nullable(),
        paymentId: z.uuid().nullable(),
        expenseId: z.uuid().nullable(),
        /** Transfers and exchanges: the entry this one reverses (it is a reversal). */
        reversalOfId: z.uuid().nullable(),
        /** Transfers and exchanges: the reversal that undid this entry, if any. */
        reversedById: z.uuid().nullable(),
        /** Why it was reversed: a reversal's own reason, or the reason of the reversal that undid it. */
        reversalReason: z.string().nullable(),
        /** Signed change to this account, its currency. */
        change: ZAmount,
        /** The balance right after this entry. */
        runningBalance: ZAmount,
      }),
    ),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "AccountStatement" });
export type TAccountStatement = z.infer<typeof ZAccountStatement>;
