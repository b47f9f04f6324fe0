import {
  ZCurrencyCode,
  ZIsoDate,
  ZPagination,
  ZPositiveMinorAmount,
  ZQueryBoolean,
  ZText,
} from "@hisob/kernel/schema";
import { z } from "zod";

/*
 * Debts: money owed to the tenant (receivable) or by it (payable). Status moves
 * pending → partial → settled as settlements come in, or to written_off (see the README).
 */

export const DEBT_KINDS = ["receivable", "payable"] as const;
export const DEBT_STATUSES = ["pending", "partial", "settled", "written_off"] as const;

const ZDescription = ZText(1000);

export const ZCreateDebtInput = z
  .object({
    kind: z.enum(DEBT_KINDS),
    counterpartyId: z.uuid(),
    /** Minor units of `currency`, > 0. */
    amount: ZPositiveMinorAmount,
    /** One of the organization's currencies; settlements must come from accounts in it. */
    currency: ZCurrencyCode,
    dueDate: ZIsoDate.nullable().default(null),
    description: ZDescription.default(""),
  })
  .strict();
export type TCreateDebtInput = z.input<typeof ZCreateDebtInput>;

export const ZUpdateDebtInput = z
  .object({
    kind: z.enum(DEBT_KINDS).optional(),
    counterpartyId: z.uuid().optional(),
    /** The new total; it must stay above what was already settled. */
    amount: ZPositiveMinorAmount.optional(),
    currency: ZCurrencyCode.optional(),
    dueDate: ZIsoDate.nullable().optional(),
    description: ZDescription.optional(),
  })
  .strict();
export type TUpdateDebtInput = z.input<typeof ZUpdateDebtInput>;

export const ZSettleDebtInput = z
  .object({
    /** Minor units of the debt's currency, > 0 and at most what is outstanding. */
    amount: ZPositiveMinorAmount,
    /** The account the money enters (receivable) or leaves (payable); in the debt's currency. */
    accountId: z.uuid(),
    date: ZIsoDate,
    comment: ZText(1000).default(""),
    /** Category of the payment (receivable) or expense (payable) the settlement posts. */
    categoryId: z.uuid().nullable().default(null),
  })
  .strict();
export type TSettleDebtInput = z.input<typeof ZSettleDebtInput>;

export const ZWriteOffDebtInput = z
  .object({
    /** Why what is outstanding will not be collected (or paid). */
    reason: ZText(1000).refine((reason) => reason.length > 0, { message: "must not be empty" }),
  })
  .strict();
export type TWriteOffDebtInput = z.input<typeof ZWriteOffDebtInput>;

export const DEBT_SORT_FIELDS = ["dueDate", "amount", "outstanding", "createdAt", "updatedAt"] as const;

/** dueBefore must come after dueAfter (shared by the list and its download). */
export const debtsDueRangeInOrder: [
  (query: { dueBefore?: string | undefined; dueAfter?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (query) => !query.dueBefore || !query.dueAfter || query.dueAfter < query.dueBefore,
  { message: "must be after dueAfter", path: ["dueBefore"] },
];

export const ZListDebtsQuery = ZPagination.extend({
  sortBy: z.enum(DEBT_SORT_FIELDS).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  status: z.enum(DEBT_STATUSES).optional(),
  kind: z.enum(DEBT_KINDS).optional(),
  counterpartyId: z.uuid().optional(),
  currency: ZCurrencyCode.optional(),
  dueBefore: ZIsoDate.optional().describe("Due strictly before this date"),
  dueAfter: ZIsoDate.optional().describe("Due strictly after this date"),
  /** The aging's first bucket (decision 0087): what it counts, so its figure opens these debts. */
  notDueOn: ZIsoDate.optional().describe(
    "Not yet due at the end of this date: due on or after it, or without a due date",
  ),
  /** With dueBefore = today: what is overdue (the app's "overdue" filter). */
  open: ZQueryBoolean.optional().describe(
    "Only debts still open (pending or partial): true; only closed ones: false",
  ),
}).refine(...debtsDueRangeInOrder);
export type TListDebtsQuery = z.input<typeof ZListDebtsQuery>;

export const ZDebtSettlementDto = z
  .object({
    id: z.uuid(),
    debtId: z.uuid(),
    /** Minor units of the debt's currency. */
    amount: z.string(),
    date: z.iso.date(),
    accountId: z.uuid(),
    /** The payment it posted (receivable debts) or the expense (payable). */
    paymentId: z.uuid().nullable(),
    expenseId: z.uuid().nullable(),
    transactionId: z.uuid(),
    comment: z.string(),
    createdBy: z.uuid(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "DebtSettlement" });
export type TDebtSettlementDto = z.infer<typeof ZDebtSettlementDto>;

export const ZDebtDto = z
  .object({
    id: z.uuid(),
    kind: z.enum(DEBT_KINDS),
    counterpartyId: z.uuid(),
    currency: z.string(),
    /** Minor units, decimal strings: amount = settled + writtenOff + outstanding. */
    amount: z.string(),
    outstanding: z.string(),
    settled: z.string(),
    dueDate: z.iso.date().nullable(),
    description: z.string(),
    status: z.enum(DEBT_STATUSES),
    /** Who wrote the debt off, when, why and how much was then outstanding; null unless written_off. */
    writeOff: z
      .object({
        amount: z.string(),
        at: z.iso.datetime(),
        by: z.uuid(),
        reason: z.string(),
      })
      .nullable(),
    createdBy: z.uuid(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Debt" });
export type TDebtDto = z.infer<typeof ZDebtDto>;

export const ZDebtDetailDto = ZDebtDto.extend({
  /** Every settlement, oldest first. */
  settlements: z.array(ZDebtSettlementDto),
}).meta({ id: "DebtDetail" });
export type TDebtDetailDto = z.infer<typeof ZDebtDetailDto>;

export const ZDebtSettlementResult = z
  .object({
    debt: ZDebtDetailDto,
    settlement: ZDebtSettlementDto,
  })
  .meta({ id: "DebtSettlementResult" });
export type TDebtSettlementResult = z.infer<typeof ZDebtSettlementResult>;

/** What happened to a debt, as its history shows it (read from the audit log, oldest first). */
export const DEBT_HISTORY_ACTIONS = [
  "created",
  "updated",
  "settled",
  "settlement_reversed",
  "written_off",
] as const;

export const ZDebtHistoryEntryDto = z
  .object({
    id: z.uuid(),
    action: z.enum(DEBT_HISTORY_ACTIONS),
    at: z.iso.datetime(),
    /** Who did it: the user's id and name (email when the name is empty); null when unknown. */
    userId: z.uuid().nullable(),
    userName: z.string().nullable(),
    /** Minor units of the debt's currency: the amount created, settled, reversed or written off. */
    amount: z.string().nullable(),
    /** The settlement's date (settled, settlement_reversed), when recorded. */
    date: z.iso.date().nullable(),
    settlementId: z.uuid().nullable(),
    /** Why it was written off. */
    reason: z.string().nullable(),
    /** The fields an edit changed. */
    fields: z.array(z.string()),
  })
  .meta({ id: "DebtHistoryEntry" });
export type TDebtHistoryEntryDto = z.infer<typeof ZDebtHistoryEntryDto>;
