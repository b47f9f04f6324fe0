import { datesInOrder, ZIsoDate, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";
import { periodNotTooLong } from "../reports/reports.schema";

/*
 * The chart of accounts and the trial balance (docs/decisions/0093-general-ledger.md). Amounts are
 * integer minor units as strings; a line's sign: debit positive, credit negative.
 */

export const GL_ACCOUNT_TYPES = ["asset", "liability", "equity", "income", "expense"] as const;
export const GL_CHART_TEMPLATES = ["nas21", "ifrs"] as const;
/** What is mapped onto the chart: a money account (to an asset leaf) or a category (income, expense). */
export const GL_MAPPING_KINDS = ["moneyAccount", "paymentCategory", "expenseCategory"] as const;

const ZCode = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[0-9A-Za-z.-]+$/, "may contain only letters, digits, dots and dashes");
const ZName = ZRequiredLine(200);
const ZCurrency = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code")
  .nullable();

export const ZGlAccountDto = z
  .object({
    id: z.uuid(),
    code: z.string(),
    nameEn: z.string(),
    nameRu: z.string(),
    nameUz: z.string(),
    type: z.enum(GL_ACCOUNT_TYPES),
    parentId: z.uuid().nullable(),
    currency: z.string().nullable(),
    /** What the postings use it for by default (money, receivable, revenue, fx_gain…), or null. */
    role: z.string().nullable(),
    isActive: z.boolean(),
    /** Whether journal lines were posted to it (it can then be deactivated, not deleted). */
    hasEntries: z.boolean(),
  })
  .meta({ id: "GlAccount" });
export type TGlAccountDto = z.infer<typeof ZGlAccountDto>;

export const ZCreateGlAccountInput = z
  .object({
    code: ZCode,
    nameEn: ZName,
    nameRu: ZName,
    nameUz: ZName,
    type: z.enum(GL_ACCOUNT_TYPES),
    parentId: z.uuid().nullable().default(null),
    currency: ZCurrency.default(null),
  })
  .strict();
export type TCreateGlAccountInput = z.input<typeof ZCreateGlAccountInput>;

export const ZUpdateGlAccountInput = z
  .object({
    code: ZCode.optional(),
    nameEn: ZName.optional(),
    nameRu: ZName.optional(),
    nameUz: ZName.optional(),
    currency: ZCurrency.optional(),
    isActive: z.boolean().optional(),
  })
  .strict();
export type TUpdateGlAccountInput = z.input<typeof ZUpdateGlAccountInput>;

/** Another parent for an account (null: the top of the chart); its sub-accounts move with it. */
export const ZMoveGlAccountInput = z
  .object({
    /** The new parent: an account of the same type without lines, not the account or one under it. */
    parentId: z.uuid().nullable(),
  })
  .strict();
export type TMoveGlAccountInput = z.input<typeof ZMoveGlAccountInput>;

export const ZInstallChartInput = z.object({ template: z.enum(GL_CHART_TEMPLATES) }).strict();
export type TInstallChartInput = z.input<typeof ZInstallChartInput>;

export const ZSetGlMappingInput = z
  .object({
    /** What is mapped: a money account (to an asset leaf) or a category (to an income or expense leaf). */
    kind: z.enum(GL_MAPPING_KINDS),
    id: z.uuid(),
    /** The leaf; null: the chart's default. */
    glAccountId: z.uuid().nullable(),
  })
  .strict();
export type TSetGlMappingInput = z.input<typeof ZSetGlMappingInput>;

/** Where one money account or category posts: its own leaf, or (null) the chart's default. */
export const ZGlMappingDto = z
  .object({
    kind: z.enum(GL_MAPPING_KINDS),
    id: z.uuid(),
    name: z.string(),
    /** A money account's currency; null for a category. */
    currency: z.string().nullable(),
    /** The leaf it is mapped to; null: the chart's default. */
    glAccountId: z.uuid().nullable(),
    /** The chart's default leaf for it (by its role; null: no chart yet). */
    defaultGlAccountId: z.uuid().nullable(),
    /** The leaf it posts to now: its mapping, else the chart's default for its role (null: no chart yet). */
    postsTo: z.uuid().nullable(),
  })
  .meta({ id: "GlMapping" });
export type TGlMappingDto = z.infer<typeof ZGlMappingDto>;

export const ZTrialBalanceQuery = z
  .object({
    startDate: ZIsoDate.describe("First day, inclusive"),
    endDate: ZIsoDate.describe("Last day, inclusive"),
  })
  .strict()
  .refine(...datesInOrder("startDate", "endDate"))
  // At most ten years: the balance before the period is the opening (docs/decisions/0101-books-reports.md).
  .refine(...periodNotTooLong);
export type TTrialBalanceQuery = z.input<typeof ZTrialBalanceQuery>;

const ZMinor = z.string().regex(/^-?\d+$/);

/** An account of the chart as a report names it: its code, names in the three languages, its parent. */
export const GL_ACCOUNT_REF = {
  accountId: z.uuid(),
  code: z.string(),
  nameEn: z.string(),
  nameRu: z.string(),
  nameUz: z.string(),
  type: z.enum(GL_ACCOUNT_TYPES),
  parentId: z.uuid().nullable(),
};

export const ZTrialBalanceRow = z.object({
  ...GL_ACCOUNT_REF,
  /** Base-currency minor units: balance before the period (debit positive), turnover, balance after. */
  opening: ZMinor,
  debit: ZMinor,
  credit: ZMinor,
  closing: ZMinor,
});

export const ZTrialBalanceTreeRow = ZTrialBalanceRow.extend({
  /** Has sub-accounts: its figures are subtotals. */
  isGroup: z.boolean(),
  /** 0 for a top-level account, 1 for its sub-accounts… */
  depth: z.number().int(),
});

export const ZTrialBalance = z
  .object({
    startDate: z.string(),
    endDate: z.string(),
    baseCurrency: z.string().nullable(),
    /** Leaves with a balance or a turnover, by code. */
    rows: z.array(ZTrialBalanceRow),
    /**
     * The chart's tree over those leaves (docs/decisions/0101-books-reports.md): every leaf and every
     * group above one, in tree order, a group's figures the sums of its leaves'.
     */
    tree: z.array(ZTrialBalanceTreeRow),
    totals: z.object({ opening: ZMinor, debit: ZMinor, credit: ZMinor, closing: ZMinor }),
    /** Debits equal credits: opening and closing sum to zero and the turnovers are equal. */
    balanced: z.boolean(),
  })
  .meta({ id: "TrialBalance" });
export type TTrialBalance = z.infer<typeof ZTrialBalance>;
