import { dateOf, datesInOrder, ZCurrencyCode, ZIsoDate, ZPagination } from "@hisob/kernel/schema";
import { z } from "zod";

/** One id, or the same parameter repeated (`?accountId=a&accountId=b`). */
const ZIds = (description: string) =>
  z
    .union([z.uuid(), z.array(z.uuid()).min(1).max(100)])
    .optional()
    .describe(description);
const ZAccountIds = ZIds("Limit the report to these accounts (repeat the parameter for several)");

const ZPeriod = {
  startDate: ZIsoDate.describe("First day, inclusive"),
  endDate: ZIsoDate.describe("Last day, inclusive"),
};
const endNotBeforeStart = datesInOrder("startDate", "endDate");

/** The periods a report can be compared with (docs/api/finance.md, "Reports"). */
export const COMPARE_PERIODS = ["previousPeriod", "previousYear"] as const;
export type ComparePeriod = (typeof COMPARE_PERIODS)[number];
/** One period, or the parameter repeated (`?compare=previousPeriod&compare=previousYear`). */
const ZCompare = z
  .union([z.enum(COMPARE_PERIODS), z.array(z.enum(COMPARE_PERIODS)).min(1).max(COMPARE_PERIODS.length)])
  .optional()
  .describe("Compare with these periods: previousPeriod, previousYear (repeat the parameter for both)");

export const ZIncomeStatementQuery = z
  .object({
    ...ZPeriod,
    accountId: ZAccountIds,
    // docs/decisions/0088-report-filters-and-comparison.md: with either, the figures come from the
    // payments and expenses, which carry the category and counterparty the ledger entries do not.
    categoryId: ZIds(
      "Only payments and expenses of these categories, payment or expense categories (repeat the parameter for several)",
    ),
    counterpartyId: ZIds(
      "Only payments and expenses with these counterparties (repeat the parameter for several)",
    ),
    compare: ZCompare,
  })
  .refine(...endNotBeforeStart);
export type TIncomeStatementQuery = z.input<typeof ZIncomeStatementQuery>;

export const ZCashflowQuery = z
  .object({
    ...ZPeriod,
    accountId: ZAccountIds,
    granularity: z.enum(["day", "week", "month"]).default("month"),
    compare: ZCompare,
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

/**
 * A figure of a compared period beside the report's own: the compared period's value, the change
 * (report − compared) and the change in percent of the compared value, two decimals, null when the
 * compared value is zero.
 */
const ZComparedFigure = z.object({
  value: ZAmount,
  change: ZAmount,
  changePercent: z.string().nullable().describe('e.g. "12.50", "-100.00"; null when the compared value is 0'),
});
/** The compared periods of a report, in the order asked. */
const ZComparedPeriods = z
  .array(z.object({ compare: z.enum(COMPARE_PERIODS), startDate: z.iso.date(), endDate: z.iso.date() }))
  .describe("The periods compared with, in the order asked; empty when no comparison was asked for");
/** Per compared period (same order as `comparedPeriods`), the figures named `keys`. */
const comparedFigures = <K extends string>(keys: readonly K[]) =>
  z.array(
    z.object({
      compare: z.enum(COMPARE_PERIODS),
      ...(Object.fromEntries(keys.map((key) => [key, ZComparedFigure])) as Record<K, typeof ZComparedFigure>),
    }),
  );
export const INCOME_FIGURES = ["revenue", "expenses", "netIncome"] as const;
export const CASHFLOW_FIGURES = [
  "openingBalance",
  "closingBalance",
  "inflows",
  "outflows",
  "income",
  "expense",
  "transfersIn",
  "transfersOut",
  "exchangesIn",
  "exchangesOut",
] as const;

export const ZIncomeStatement = z
  .object({
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    accountIds: z.array(z.uuid()).nullable(),
    comparedPeriods: ZComparedPeriods,
    /** One section per currency: amounts in different currencies are never added together. */
    currencies: z.array(
      z.object({
        currency: z.string(),
        revenue: ZAmount,
        expenses: ZAmount,
        netIncome: ZAmount,
        compared: comparedFigures(INCOME_FIGURES),
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
    comparedPeriods: ZComparedPeriods,
    accounts: z.array(
      z.object({
        accountId: z.uuid(),
        name: z.string(),
        currency: z.string(),
        openingBalance: ZAmount,
        closingBalance: ZAmount,
        ...ZFlows,
        compared: comparedFigures(CASHFLOW_FIGURES),
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
      z.object({
        currency: z.string(),
        openingBalance: ZAmount,
        closingBalance: ZAmount,
        ...ZFlows,
        compared: comparedFigures(CASHFLOW_FIGURES),
      }),
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

/** At most this long a period for a counterparty statement (a longer one is several downloads). */
export const MAX_STATEMENT_DAYS = 3660;

export const ZAgingQuery = z
  .object({
    asOf: ZIsoDate.describe("The day the debts are aged at (end of day)"),
    counterpartyId: z.uuid().optional().describe("Only this counterparty's debts"),
  })
  .strict();
export type TAgingQuery = z.input<typeof ZAgingQuery>;

export const ZBalancesQuery = z
  .object({
    date: ZIsoDate.describe("Balances at the end of this day"),
    accountId: ZAccountIds,
  })
  .strict();
export type TBalancesQuery = z.input<typeof ZBalancesQuery>;

/** A refinement (spread into `.refine(...)`): the period is at most MAX_STATEMENT_DAYS long. */
export const periodNotTooLong: [
  (query: { startDate: string; endDate: string }) => boolean,
  { message: string; path: string[] },
] = [
  (query) =>
    dateOf(query.endDate).getTime() - dateOf(query.startDate).getTime() < MAX_STATEMENT_DAYS * 86_400_000,
  { message: `must be at most ${MAX_STATEMENT_DAYS} days after startDate`, path: ["endDate"] },
];

export const ZCounterpartyStatementQuery = z
  .object({ ...ZPeriod })
  .strict()
  .refine(...endNotBeforeStart)
  .refine(...periodNotTooLong);
export type TCounterpartyStatementQuery = z.input<typeof ZCounterpartyStatementQuery>;

export const AGING_BUCKETS = ["notDue", "days1To30", "days31To60", "days61To90", "over90"] as const;
const ZBuckets = {
  notDue: ZAmount.describe("Not yet due: due on or after the as-of day, or no due date"),
  days1To30: ZAmount,
  days31To60: ZAmount,
  days61To90: ZAmount,
  over90: ZAmount,
  total: ZAmount,
};

export const ZAgingReport = z
  .object({
    asOf: z.iso.date(),
    /** Per kind (owed to us, we owe), counterparty and currency; what was left due at the end of `asOf`. */
    rows: z.array(
      z.object({
        kind: z.enum(["receivable", "payable"]),
        counterpartyId: z.uuid(),
        counterpartyName: z.string(),
        currency: z.string(),
        debts: z.number().int().describe("Debts with something left due"),
        ...ZBuckets,
      }),
    ),
    /** Per kind and currency, over the rows above. */
    totals: z.array(
      z.object({
        kind: z.enum(["receivable", "payable"]),
        currency: z.string(),
        debts: z.number().int(),
        ...ZBuckets,
      }),
    ),
  })
  .meta({ id: "AgingReport" });
export type TAgingReport = z.infer<typeof ZAgingReport>;

export type TAgingBucket = (typeof AGING_BUCKETS)[number];

/** The debts behind one aging figure (decision 0106): what the figure counts, a page at a time. */
export const ZAgingDebtsQuery = z
  .object({
    asOf: ZIsoDate.describe("The day the debts are aged at (end of day), as the aging report's"),
    kind: z.enum(["receivable", "payable"]).describe("Owed to us (receivable) or by us (payable)"),
    currency: ZCurrencyCode.describe("The figure's currency"),
    bucket: z
      .enum([...AGING_BUCKETS, "total"])
      .describe("The figure's column: a bucket of days past due, or the total"),
    counterpartyId: z.uuid().optional().describe("The figure's counterparty (its row); all for a total"),
    ...ZPagination.shape,
  })
  .strict();
export type TAgingDebtsQuery = z.input<typeof ZAgingDebtsQuery>;

export const ZAgingDebts = z
  .object({
    asOf: z.iso.date(),
    kind: z.enum(["receivable", "payable"]),
    currency: z.string(),
    bucket: z.enum([...AGING_BUCKETS, "total"]),
    /** How many debts the figure counts, and what was left of them at the end of `asOf`: the figure. */
    total: z.number().int(),
    left: ZAmount,
    limit: z.number().int(),
    offset: z.number().int(),
    /** By counterparty name, then due date (none last). */
    items: z.array(
      z.object({
        id: z.uuid(),
        counterpartyId: z.uuid(),
        counterpartyName: z.string(),
        dueDate: z.iso.date().nullable(),
        /** Days past due at the end of `asOf`; null when not yet due. */
        daysPastDue: z.number().int().nullable(),
        amount: ZAmount,
        /** What was left due at the end of `asOf` (the amount less the settlements dated up to it). */
        left: ZAmount,
        description: z.string(),
      }),
    ),
  })
  .meta({ id: "AgingDebts" });
export type TAgingDebts = z.infer<typeof ZAgingDebts>;

export const ZBalancesReport = z
  .object({
    date: z.iso.date(),
    /** Accounts with an entry (an opening balance included) on or before `date`; others are absent. */
    accounts: z.array(
      z.object({
        accountId: z.uuid(),
        name: z.string(),
        number: z.string(),
        currency: z.string(),
        balance: ZAmount,
      }),
    ),
    totals: z.array(z.object({ currency: z.string(), balance: ZAmount, accounts: z.number().int() })),
  })
  .meta({ id: "BalancesReport" });
export type TBalancesReport = z.infer<typeof ZBalancesReport>;

export const COUNTERPARTY_ENTRY_TYPES = [
  "payment",
  "expense",
  "debt",
  "settlement",
  "writeOff",
  "transfer",
  "exchange",
] as const;

export const ZCounterpartyStatement = z
  .object({
    counterparty: z.object({ id: z.uuid(), name: z.string(), tin: z.string() }),
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    /** Per currency: what they owed us (receivable) and we owed them (payable) before and after the period. */
    currencies: z.array(
      z.object({
        currency: z.string(),
        openingReceivable: ZAmount,
        openingPayable: ZAmount,
        closingReceivable: ZAmount,
        closingPayable: ZAmount,
        /** What the period's entries moved: paid to us, paid by us (payments and expenses, settlements included). */
        received: ZAmount,
        paid: ZAmount,
      }),
    ),
    /** Everything with them in the period, oldest first. */
    entries: z.array(
      z.object({
        date: z.iso.date(),
        type: z.enum(COUNTERPARTY_ENTRY_TYPES),
        id: z.uuid().describe("The payment, expense, debt, settlement or ledger entry"),
        debtId: z.uuid().nullable(),
        debtKind: z.enum(["receivable", "payable"]).nullable(),
        accountId: z.uuid().nullable(),
        currency: z.string(),
        /** Money: + received, − paid (transfers/exchanges through them: what left the origin). */
        amount: ZAmount,
        /** Change of what they owe us and of what we owe them. */
        receivableChange: ZAmount,
        payableChange: ZAmount,
        description: z.string(),
      }),
    ),
  })
  .meta({ id: "CounterpartyStatement" });
export type TCounterpartyStatement = z.infer<typeof ZCounterpartyStatement>;
