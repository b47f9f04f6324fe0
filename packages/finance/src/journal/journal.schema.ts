import { datesInOrder, ZIsoDate, ZMinorAmount, ZPagination, ZRate, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

/*
 * Manual journal entries and period-end revaluation (docs/decisions/0100-manual-journals-and-revaluation.md).
 * Amounts are integer minor units as strings; a rate is base-currency minor units per minor unit of the
 * line's currency (the ledger's own convention, 0093).
 */

export const JOURNAL_STATES = ["draft", "posted", "reversed"] as const;
export const JOURNAL_KINDS = ["manual", "revaluation"] as const;

/** The most lines one entry may hold: a month's payroll or accruals fit; a runaway client does not. */
export const MAX_JOURNAL_LINES = 500;
/** The most uploads attached to one entry. */
export const MAX_JOURNAL_ATTACHMENTS = 20;

const ZNonNegativeMinor = ZMinorAmount.refine((amount) => !amount.startsWith("-"), {
  message: "must not be negative",
});

export const ZJournalLineInput = z
  .object({
    /** A leaf of the chart, active. */
    glAccountId: z.uuid(),
    /** Minor units of the account's currency (the base currency when the account names none). */
    debit: ZNonNegativeMinor.default("0"),
    credit: ZNonNegativeMinor.default("0"),
    /** Required when the account's currency is not the base currency. */
    rate: ZRate.nullable().default(null),
    /** Only on a receivable or payable account. */
    counterpartyId: z.uuid().nullable().default(null),
    memo: ZText(500).default(""),
  })
  .strict()
  .refine((line) => (line.debit === "0") !== (line.credit === "0"), {
    message: "must have either a debit or a credit, not both",
    path: ["debit"],
  });
export type TJournalLineInput = z.input<typeof ZJournalLineInput>;

const ZLines = z.array(ZJournalLineInput).min(2).max(MAX_JOURNAL_LINES);
const ZAttachments = z.array(z.uuid()).max(MAX_JOURNAL_ATTACHMENTS);

export const ZCreateJournalInput = z
  .object({
    date: ZIsoDate,
    memo: ZText(1000).default(""),
    lines: ZLines,
    attachmentIds: ZAttachments.default([]),
  })
  .strict();
export type TCreateJournalInput = z.input<typeof ZCreateJournalInput>;

export const ZUpdateJournalInput = z
  .object({
    date: ZIsoDate.optional(),
    memo: ZText(1000).optional(),
    lines: ZLines.optional(),
    attachmentIds: ZAttachments.optional(),
  })
  .strict();
export type TUpdateJournalInput = z.input<typeof ZUpdateJournalInput>;

export const ZReverseJournalInput = z
  .object({ date: ZIsoDate.describe("The reversal's date (on or after the entry's)") })
  .strict();
export type TReverseJournalInput = z.input<typeof ZReverseJournalInput>;

export const ZListJournalsQuery = ZPagination.extend({
  startDate: ZIsoDate.optional().describe("First day, inclusive"),
  endDate: ZIsoDate.optional().describe("Last day, inclusive"),
  state: z.enum(JOURNAL_STATES).optional(),
  kind: z.enum(JOURNAL_KINDS).optional(),
})
  .strict()
  .refine(...datesInOrder("startDate", "endDate"));
export type TListJournalsQuery = z.input<typeof ZListJournalsQuery>;

const ZMinor = z.string().regex(/^-?\d+$/);

export const ZJournalLineDto = z
  .object({
    id: z.uuid(),
    glAccountId: z.uuid(),
    code: z.string(),
    nameEn: z.string(),
    nameRu: z.string(),
    nameUz: z.string(),
    counterpartyId: z.uuid().nullable(),
    moneyAccountId: z.uuid().nullable(),
    currency: z.string(),
    /** Minor units of `currency`; one of the two is "0". */
    debit: ZMinor,
    credit: ZMinor,
    /** Base-currency minor units, debit positive. */
    baseAmount: ZMinor,
    rate: z.string().nullable(),
    memo: z.string(),
  })
  .meta({ id: "JournalLine" });

export const ZJournalDto = z
  .object({
    id: z.uuid(),
    number: z.number().int(),
    kind: z.enum(JOURNAL_KINDS),
    state: z.enum(JOURNAL_STATES),
    date: z.string(),
    memo: z.string(),
    baseCurrency: z.string().nullable(),
    /** Sum of the debits in the base currency (minor units). */
    total: ZMinor,
    reversalOfId: z.uuid().nullable(),
    reversedById: z.uuid().nullable(),
    attachmentIds: z.array(z.uuid()),
    createdAt: z.iso.datetime(),
    postedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "Journal" });
export type TJournalDto = z.infer<typeof ZJournalDto>;

/** An attached upload as the entry's view shows it; an upload deleted since has no name and no url. */
export const ZJournalAttachmentDto = z
  .object({
    id: z.uuid(),
    /** The file's name; null: the upload was deleted after it was attached. */
    name: z.string().nullable(),
    size: z.number().int().nullable(),
    mimeType: z.string().nullable(),
    /** Where its bytes download (the uploads route; uploads:read permission), null when deleted. */
    url: z.string().nullable(),
  })
  .meta({ id: "JournalAttachment" });
export type TJournalAttachmentDto = z.infer<typeof ZJournalAttachmentDto>;

export const ZJournalDetailDto = ZJournalDto.extend({
  lines: z.array(ZJournalLineDto),
  /** The attachments in attachmentIds' order, with their names (docs/decisions/0111-books-features.md). */
  attachments: z.array(ZJournalAttachmentDto),
}).meta({
  id: "JournalDetail",
});
export type TJournalDetailDto = z.infer<typeof ZJournalDetailDto>;

export const ZJournalPage = z.object({
  items: z.array(ZJournalDto),
  /** The organization's base currency (the totals' currency), also when the page is empty. */
  baseCurrency: z.string().nullable(),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const ZRevaluationInput = z
  .object({
    date: ZIsoDate.describe("Revalue the balances as of this day (inclusive)"),
    /** Rates per currency; a currency left out takes the last exchange known on or before the date. */
    rates: z
      .array(z.object({ currency: z.string().regex(/^[A-Z]{3}$/), rate: ZRate }).strict())
      .max(50)
      .default([]),
    memo: ZText(1000).default(""),
  })
  .strict();
export type TRevaluationInput = z.input<typeof ZRevaluationInput>;

export const ZRevaluationPreview = z
  .object({
    date: z.string(),
    baseCurrency: z.string().nullable(),
    rows: z.array(
      z.object({
        moneyAccountId: z.uuid(),
        name: z.string(),
        currency: z.string(),
        glAccountId: z.uuid(),
        /** The account's balance in its own currency (minor units) on the date. */
        balance: ZMinor,
        /** Its base-currency value in the ledger on the date. */
        bookedBase: ZMinor,
        /** The rate used: given, else the last known; null when none is known (the row posts nothing). */
        rate: z.string().nullable(),
        revaluedBase: ZMinor.nullable(),
        /** revaluedBase − bookedBase: a gain when positive. */
        difference: ZMinor,
      }),
    ),
    /**
     * Open foreign-currency receivables and payables, per account of the chart and counterparty
     * (docs/decisions/0111-books-features.md): the same figures as a money account's.
     */
    counterparties: z.array(
      z.object({
        glAccountId: z.uuid(),
        code: z.string(),
        nameEn: z.string(),
        nameRu: z.string(),
        nameUz: z.string(),
        counterpartyId: z.uuid(),
        counterparty: z.string(),
        currency: z.string(),
        /** What is open in its own currency (minor units, debit positive: owed to us) on the date. */
        balance: ZMinor,
        bookedBase: ZMinor,
        rate: z.string().nullable(),
        revaluedBase: ZMinor.nullable(),
        difference: ZMinor,
      }),
    ),
    /** Sums over both lists. */
    gain: ZMinor,
    loss: ZMinor,
  })
  .meta({ id: "RevaluationPreview" });
export type TRevaluationPreview = z.infer<typeof ZRevaluationPreview>;
