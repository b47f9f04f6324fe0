import { datesInOrder, ZIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";
import { COMPARE_PERIODS, periodNotTooLong } from "../reports/reports.schema";
import { GL_ACCOUNT_REF } from "./general-ledger.schema";

/*
 * The books' reports on the general ledger (docs/decisions/0101-books-reports.md): the general ledger
 * of one account, the balance sheet at a date and the profit and loss of a period. Amounts are
 * integer minor units of the base currency as strings.
 */

const ZMinor = z.string().regex(/^-?\d+$/);

/** An account of the chart with its place in the tree. */
const ZAccountRef = {
  ...GL_ACCOUNT_REF,
  /** A group (it has sub-accounts): its figures are its leaves' sums. */
  isGroup: z.boolean(),
  /** 0 for a top-level account, 1 for its sub-accounts… */
  depth: z.number().int(),
};

export const ZLedgerAccount = z.object(ZAccountRef);

// ---- General ledger ------------------------------------------------------------------------------

export const ZGeneralLedgerQuery = z
  .object({
    startDate: ZIsoDate.describe("First day, inclusive"),
    endDate: ZIsoDate.describe("Last day, inclusive"),
    limit: z.coerce.number().int().min(1).max(1000).default(500),
    offset: z.coerce.number().int().min(0).max(100_000_000).default(0),
  })
  .strict()
  .refine(...datesInOrder("startDate", "endDate"))
  .refine(...periodNotTooLong);
export type TGeneralLedgerQuery = z.input<typeof ZGeneralLedgerQuery>;

/** What a line's entry was posted for, as the app opens it. */
export const GL_DOCUMENT_KINDS = [
  "payment",
  "expense",
  "transfer",
  "exchange",
  "opening_balance",
  "debt",
  "settlement",
  "other",
] as const;

export const ZGeneralLedgerSource = z.object({ kind: z.string(), id: z.uuid() });
export const ZGeneralLedgerDocument = z.object({ kind: z.enum(GL_DOCUMENT_KINDS), id: z.uuid() });

export const ZGeneralLedgerLine = z.object({
  lineId: z.uuid(),
  entryId: z.uuid(),
  date: z.iso.date(),
  /** The leaf the line is on (the account itself, or one of a group's leaves). */
  accountId: z.uuid(),
  code: z.string(),
  /** The line's own currency and amount in it (debit positive). */
  currency: z.string(),
  amount: ZMinor,
  /** Base currency: debit, credit (both ≥ 0) and the balance after the line (debit positive). */
  debit: ZMinor,
  credit: ZMinor,
  balance: ZMinor,
  /** The journal entry's source as the database posted it (transaction, debt, settlement…). */
  source: ZGeneralLedgerSource,
  /** The document to open: a payment, expense, transfer… (a settlement opens its debt: `id` is the debt's). */
  document: ZGeneralLedgerDocument,
  description: z.string(),
  counterpartyId: z.uuid().nullable(),
  counterpartyName: z.string().nullable(),
  /** The money account whose cash the line moves (a money account's leaf), else null. */
  moneyAccountId: z.uuid().nullable(),
});

export const ZGeneralLedger = z
  .object({
    account: ZLedgerAccount,
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    baseCurrency: z.string().nullable(),
    /** Balance before the period (debit positive). */
    opening: ZMinor,
    /** Turnover of the whole period (every line, not only this page's). */
    debit: ZMinor,
    credit: ZMinor,
    closing: ZMinor,
    /** Lines of the period, oldest first; `total` of them in all, this page from `offset`. */
    lines: z.array(ZGeneralLedgerLine),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: "GeneralLedger" });
export type TGeneralLedger = z.infer<typeof ZGeneralLedger>;

// ---- Trial balance with its groups -------------------------------------------------------------------

export const ZTrialBalanceGroup = z.object({
  ...ZAccountRef,
  opening: ZMinor,
  debit: ZMinor,
  credit: ZMinor,
  closing: ZMinor,
});

// ---- Balance sheet -------------------------------------------------------------------------------

export const ZBalanceSheetQuery = z
  .object({
    date: ZIsoDate.describe("The day whose closing balances are shown"),
    compareDate: ZIsoDate.optional().describe("Show each line's balance at this other day beside it"),
  })
  .strict();
export type TBalanceSheetQuery = z.input<typeof ZBalanceSheetQuery>;

/**
 * A line of the balance sheet: an account (a group sums its leaves). Assets as debit balances,
 * liabilities and equity as credit balances, so each side's figures are positive when normal.
 */
export const ZBalanceSheetLine = z.object({
  ...ZAccountRef,
  amount: ZMinor,
  /** The same at `compareDate`; null when none was asked. */
  compared: ZMinor.nullable(),
});

export const ZBalanceSheetSide = z.object({
  lines: z.array(ZBalanceSheetLine),
  total: ZMinor,
  comparedTotal: ZMinor.nullable(),
});
export const ZBalanceSheetFigure = z.object({ amount: ZMinor, compared: ZMinor.nullable() });

export const ZBalanceSheet = z
  .object({
    date: z.iso.date(),
    compareDate: z.iso.date().nullable(),
    baseCurrency: z.string().nullable(),
    assets: ZBalanceSheetSide,
    liabilities: ZBalanceSheetSide,
    equity: ZBalanceSheetSide,
    /**
     * Income less expenses not yet closed into equity up to the date: an equity line of its own
     * (included in equity's total).
     */
    retainedEarnings: ZBalanceSheetFigure,
    liabilitiesAndEquity: ZBalanceSheetFigure,
    /** Assets − (liabilities + equity): 0 when the books balance. */
    difference: ZMinor,
    comparedDifference: ZMinor.nullable(),
    balanced: z.boolean(),
  })
  .meta({ id: "BalanceSheet" });
export type TBalanceSheet = z.infer<typeof ZBalanceSheet>;

// ---- Profit and loss -----------------------------------------------------------------------------

const ZCompare = z
  .union([z.enum(COMPARE_PERIODS), z.array(z.enum(COMPARE_PERIODS)).min(1).max(COMPARE_PERIODS.length)])
  .optional()
  .describe("Compare with these periods: previousPeriod, previousYear (repeat the parameter for both)");

export const ZProfitAndLossQuery = z
  .object({
    startDate: ZIsoDate.describe("First day, inclusive"),
    endDate: ZIsoDate.describe("Last day, inclusive"),
    compare: ZCompare,
  })
  .strict()
  .refine(...datesInOrder("startDate", "endDate"))
  .refine(...periodNotTooLong);
export type TProfitAndLossQuery = z.input<typeof ZProfitAndLossQuery>;

export const PROFIT_AND_LOSS_FIGURES = ["income", "expenses", "netResult"] as const;

const ZComparedFigure = z.object({
  value: ZMinor,
  change: ZMinor,
  changePercent: z.string().nullable().describe('e.g. "12.50"; null when the compared value is 0'),
});

export const ZComparedProfitAndLoss = z.object({
  compare: z.enum(COMPARE_PERIODS),
  income: ZComparedFigure,
  expenses: ZComparedFigure,
  netResult: ZComparedFigure,
});

/** An income line (credit − debit) or an expense line (debit − credit) of the period. */
export const ZProfitAndLossLine = z.object({
  ...ZAccountRef,
  amount: ZMinor,
  /** Per compared period, in the order of `comparedPeriods`: that period's amount. */
  compared: z.array(ZMinor),
});

export const ZProfitAndLoss = z
  .object({
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    baseCurrency: z.string().nullable(),
    comparedPeriods: z.array(
      z.object({ compare: z.enum(COMPARE_PERIODS), startDate: z.iso.date(), endDate: z.iso.date() }),
    ),
    incomeLines: z.array(ZProfitAndLossLine),
    expenseLines: z.array(ZProfitAndLossLine),
    income: ZMinor,
    expenses: ZMinor,
    /** Income − expenses: a profit when positive. */
    netResult: ZMinor,
    compared: z.array(ZComparedProfitAndLoss),
  })
  .meta({ id: "ProfitAndLoss" });
export type TProfitAndLoss = z.infer<typeof ZProfitAndLoss>;
