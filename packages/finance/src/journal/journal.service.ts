import { audit, type Db, idempotent, type Tx } from "@hisob/db";
import { formatMoney } from "@hisob/i18n";
import {
  AppError,
  type Clock,
  moneyParam,
  newId,
  type Page,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { fieldError, notFound } from "../finance-errors";
import { assertPeriodOpen, prismaSql } from "../periods/closed-period";
import {
  type TCreateJournalInput,
  type TJournalDetailDto,
  type TJournalDto,
  type TListJournalsQuery,
  type TRevaluationInput,
  type TRevaluationPreview,
  type TReverseJournalInput,
  type TUpdateJournalInput,
  ZCreateJournalInput,
  ZListJournalsQuery,
  ZRevaluationInput,
  ZReverseJournalInput,
  ZUpdateJournalInput,
} from "./journal.schema";
import { multiplyRateWithin, normalizeRate } from "./rate";

/*
 * Manual journal entries and period-end revaluation (docs/decisions/0100-manual-journals-and-revaluation.md).
 *
 * A draft keeps its lines in `manual_journal_lines` and posts nothing. Posting writes one journal entry
 * (source 'manual') with the same lines, in the same transaction, where the deferred check of 0093 sees
 * it balance. A reversal is a further posted journal with the exact opposite lines. A revaluation is a
 * journal the server computes: per foreign-currency money account, the difference between its balance
 * in its own currency at the rate and its base-currency value in the ledger, against the unrealised
 * exchange gain or loss account. Every write checks the closed period (0094) first in its transaction.
 */

type JournalRow = {
  id: string;
  number: number;
  kind: TJournalDto["kind"];
  state: TJournalDto["state"];
  date: string;
  memo: string;
  total: string;
  entry_id: string | null;
  reversal_of_id: string | null;
  reversed_by_id: string | null;
  attachment_ids: string[];
  created_at: Date;
  posted_at: Date | null;
};

type LineRow = {
  id: string;
  gl_account_id: string;
  code: string;
  name_en: string;
  name_ru: string;
  name_uz: string;
  counterparty_id: string | null;
  money_account_id: string | null;
  currency_code: string;
  amount: string;
  base_amount: string;
  rate: string | null;
  memo: string;
};

type AccountInfo = {
  id: string;
  currency_code: string | null;
  is_active: boolean;
  is_leaf: boolean;
  moves_cash: boolean;
  takes_counterparty: boolean;
};

/** A line ready to be written: signed amounts (debit positive). */
type ResolvedLine = {
  glAccountId: string;
  counterpartyId: string | null;
  moneyAccountId: string | null;
  currency: string;
  amount: bigint;
  baseAmount: bigint;
  rate: string | null;
  memo: string;
};

const journalNotFound = () => notFound("finance.journal_not_found", "Journal entry not found");

const businessRule = (reason: string, message: string, params?: Record<string, unknown>) =>
  new AppError("BUSINESS_RULE", { reason, message, ...(params ? { params } : {}) });

const notDraft = () =>
  businessRule(
    "finance.journal_not_draft",
    "The journal entry is posted: it can no longer be changed or deleted; reverse it instead",
  );

/** amount × rate beyond what an amount can hold: the rate (or the amount) is wrong, never a 500. */
const rateOverflow = (field: string) =>
  fieldError(
    field,
    "finance.rate_overflow",
    "values the amount beyond the largest amount that can be stored",
  );

const JOURNAL_COLUMNS = `id::text, number, kind, state, date::text, memo, total::text, entry_id::text,
  reversal_of_id::text, reversed_by_id::text, attachment_ids::text[] AS attachment_ids, created_at, posted_at`;

const selectJournal = async (tx: Tx, tenantId: string, id: string, lock = false) =>
  (
    await tx.$queryRawUnsafe<JournalRow[]>(
      `SELECT ${JOURNAL_COLUMNS} FROM manual_journals WHERE tenant_id = $1::uuid AND id = $2::uuid${lock ? " FOR UPDATE" : ""}`,
      tenantId,
      id,
    )
  )[0];

const selectLines = (tx: Tx, tenantId: string, id: string) =>
  tx.$queryRaw<LineRow[]>`
    SELECT l.id::text, l.gl_account_id::text, a.code, a.name_en, a.name_ru, a.name_uz,
           l.counterparty_id::text, l.money_account_id::text, l.currency_code::text,
           l.amount::text, l.base_amount::text, l.rate::text, l.memo
      FROM manual_journal_lines l
      JOIN gl_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.gl_account_id
     WHERE l.tenant_id = ${tenantId}::uuid AND l.journal_id = ${id}::uuid
     ORDER BY l.position`;

const baseCurrencyOf = async (tx: Tx, tenantId: string): Promise<string | null> => {
  const [row] = await tx.$queryRaw<{ code: string | null }[]>`
    SELECT gl_base_currency(${tenantId}::uuid)::text AS code`;
  return row?.code ?? null;
};

const minorUnitsOf = async (tx: Tx, currency: string): Promise<number> => {
  const [row] = await tx.$queryRaw<{ minor_units: number }[]>`
    SELECT minor_units::int FROM currencies WHERE code = ${currency}`;
  return row?.minor_units ?? 2;
};

const toDto = (row: JournalRow, baseCurrency: string | null): TJournalDto => ({
  id: row.id,
  number: row.number,
  kind: row.kind,
  state: row.state,
  date: row.date,
  memo: row.memo,
  baseCurrency,
  total: row.total,
  reversalOfId: row.reversal_of_id,
  reversedById: row.reversed_by_id,
  attachmentIds: row.attachment_ids,
  createdAt: row.created_at.toISOString(),
  postedAt: row.posted_at ? row.posted_at.toISOString() : null,
});

const detailOf = async (tx: Tx, tenantId: string, id: string): Promise<TJournalDetailDto> => {
  const row = await selectJournal(tx, tenantId, id);
  if (!row) throw journalNotFound();
  const lines = await selectLines(tx, tenantId, id);
  const files = row.attachment_ids.length
    ? await tx.$queryRaw<{ id: string; original_name: string; size: bigint; mime_type: string }[]>`
        SELECT id::text, original_name, size, mime_type FROM uploads
         WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${row.attachment_ids}::uuid[])`
    : [];
  const byId = new Map(files.map((file) => [file.id, file]));
  return {
    ...toDto(row, await baseCurrencyOf(tx, tenantId)),
    attachments: row.attachment_ids.map((attachmentId) => {
      const file = byId.get(attachmentId);
      return {
        id: attachmentId,
        name: file?.original_name ?? null,
        size: file ? Number(file.size) : null,
        mimeType: file?.mime_type ?? null,
        url: file ? `/uploads/${attachmentId}/content` : null,
      };
    }),
    lines: lines.map((line) => {
      const amount = BigInt(line.amount);
      return {
        id: line.id,
        glAccountId: line.gl_account_id,
        code: line.code,
        nameEn: line.name_en,
        nameRu: line.name_ru,
        nameUz: line.name_uz,
        counterpartyId: line.counterparty_id,
        moneyAccountId: line.money_account_id,
        currency: line.currency_code,
        debit: amount > 0n ? amount.toString() : "0",
        credit: amount < 0n ? (-amount).toString() : "0",
        baseAmount: line.base_amount,
        rate: line.rate === null ? null : normalizeRate(line.rate),
        memo: line.memo,
      };
    }),
  };
};

/** Checks each line against the chart and values it in the base currency; refuses an unbalanced entry. */
const resolveLines = async (
  tx: Tx,
  tenantId: string,
  lines: ReturnType<typeof ZCreateJournalInput.parse>["lines"],
  /** A stored draft's line currencies: posting refuses a line whose account now holds another one. */
  storedCurrencies?: string[],
): Promise<{ lines: ResolvedLine[]; total: bigint }> => {
  const base = await baseCurrencyOf(tx, tenantId);
  if (base === null) {
    throw fieldError("lines", "finance.currency_not_selected", "need a currency of the organization");
  }
  const ids = [...new Set(lines.map((line) => line.glAccountId))];
  const accounts = await tx.$queryRaw<AccountInfo[]>`
    SELECT a.id::text, a.currency_code::text, a.is_active,
           NOT EXISTS (SELECT 1 FROM gl_accounts c WHERE c.tenant_id = a.tenant_id AND c.parent_id = a.id) AS is_leaf,
           (a.role IN ('money', 'money_foreign')
             OR EXISTS (SELECT 1 FROM money_accounts m WHERE m.tenant_id = a.tenant_id AND m.gl_account_id = a.id)) AS moves_cash,
           (a.role IN ('receivable', 'payable')
             OR EXISTS (SELECT 1 FROM gl_accounts r WHERE r.tenant_id = a.tenant_id AND r.role IN ('receivable', 'payable')
                                                     AND r.parent_id IS NOT DISTINCT FROM a.parent_id)) AS takes_counterparty
      FROM gl_accounts a
     WHERE a.tenant_id = ${tenantId}::uuid AND a.id = ANY(${ids}::uuid[])`;
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const counterpartyIds = [
    ...new Set(lines.flatMap((line) => (line.counterpartyId ? [line.counterpartyId] : []))),
  ];
  const known = new Set(
    counterpartyIds.length === 0
      ? []
      : (
          await tx.$queryRaw<{ id: string }[]>`
            SELECT id::text FROM counterparties WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${counterpartyIds}::uuid[])`
        ).map((row) => row.id),
  );
  let sum = 0n;
  let total = 0n;
  const resolved = lines.map((line, index): ResolvedLine => {
    const at = (field: string) => `lines.${index}.${field}`;
    const account = byId.get(line.glAccountId);
    if (!account)
      throw fieldError(at("glAccountId"), "finance.unknown_gl_account", "is not an account of this chart");
    if (!account.is_leaf) {
      throw fieldError(
        at("glAccountId"),
        "finance.gl_account_not_leaf",
        "has sub-accounts; only a leaf takes lines",
      );
    }
    if (!account.is_active)
      throw fieldError(at("glAccountId"), "finance.gl_account_inactive", "is deactivated");
    if (account.moves_cash) {
      throw fieldError(
        at("glAccountId"),
        "finance.journal_cash_account",
        "holds money accounts' cash: record a payment, an expense or a transfer instead",
      );
    }
    if (line.counterpartyId !== null) {
      if (!account.takes_counterparty) {
        throw fieldError(
          at("counterpartyId"),
          "finance.journal_counterparty_not_allowed",
          "is allowed only on a receivable or payable account",
        );
      }
      if (!known.has(line.counterpartyId)) {
        throw fieldError(
          at("counterpartyId"),
          "finance.unknown_counterparty",
          "is not a counterparty of this organization",
        );
      }
    }
    const currency = account.currency_code ?? base;
    const stored = storedCurrencies?.[index];
    if (stored !== undefined && stored !== currency) {
      throw fieldError(
        at("glAccountId"),
        "finance.journal_account_currency_changed",
        `now holds ${currency}, not ${stored} as when the line was written`,
      );
    }
    const amount = line.debit !== "0" ? BigInt(line.debit) : -BigInt(line.credit);
    let rate: string | null = "1";
    let baseAmount = amount;
    if (currency !== base) {
      if (line.rate === null) {
        throw fieldError(
          at("rate"),
          "finance.journal_rate_required",
          `is required: the account holds ${currency}`,
        );
      }
      rate = line.rate;
      const valued = multiplyRateWithin(amount, line.rate);
      if (valued === null) throw rateOverflow(at("rate"));
      baseAmount = valued;
      if (baseAmount === 0n) {
        throw fieldError(
          at("rate"),
          "finance.journal_rate_too_small",
          "values the amount at zero in the base currency",
        );
      }
    }
    sum += baseAmount;
    if (baseAmount > 0n) total += baseAmount;
    return {
      glAccountId: line.glAccountId,
      counterpartyId: line.counterpartyId,
      moneyAccountId: null,
      currency,
      amount,
      baseAmount,
      rate,
      memo: line.memo,
    };
  });
  if (sum !== 0n) {
    const minorUnits = await minorUnitsOf(tx, base);
    const difference = sum < 0n ? -sum : sum;
    const side = sum > 0n ? "debits" : "credits";
    throw new AppError("VALIDATION_ERROR", {
      reason: "finance.journal_unbalanced",
      message: `Debits and credits must be equal: they differ by ${formatMoney(difference, base, minorUnits, "en")}`,
      params: {
        difference: moneyParam(difference, base, minorUnits),
        side,
        currency: base,
        issues: [{ path: "lines", message: "must balance: debits and credits differ" }],
      },
    });
  }
  return { lines: resolved, total };
};

const insertLines = async (tx: Tx, tenantId: string, journalId: string, lines: ResolvedLine[]) => {
  if (lines.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO manual_journal_lines (tenant_id, journal_id, position, gl_account_id, counterparty_id, money_account_id,
                                      currency_code, amount, base_amount, rate, memo)
    SELECT ${tenantId}::uuid, ${journalId}::uuid, x.position, x.gl_account_id, x.counterparty_id, x.money_account_id,
           x.currency_code, x.amount, x.base_amount, x.rate, x.memo
      FROM unnest(${lines.map((_, i) => i)}::int[], ${lines.map((l) => l.glAccountId)}::uuid[],
                  ${lines.map((l) => l.counterpartyId)}::uuid[], ${lines.map((l) => l.moneyAccountId)}::uuid[],
                  ${lines.map((l) => l.currency)}::text[], ${lines.map((l) => l.amount.toString())}::bigint[],
                  ${lines.map((l) => l.baseAmount.toString())}::bigint[], ${lines.map((l) => l.rate)}::numeric[],
                  ${lines.map((l) => l.memo)}::text[])
           AS x(position, gl_account_id, counterparty_id, money_account_id, currency_code, amount, base_amount, rate, memo)`;
};

/** Writes the journal entry holding a journal's lines (the posting), in the caller's transaction. */
const postEntry = async (
  tx: Tx,
  tenantId: string,
  journalId: string,
  date: string,
  memo: string,
  now: Date,
) => {
  const [entry] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO journal_entries (tenant_id, date, source_kind, source_id, memo)
    VALUES (${tenantId}::uuid, ${date}::date, 'manual', ${journalId}::uuid, ${memo})
    RETURNING id::text`;
  const entryId = entry?.id ?? "";
  await tx.$executeRaw`
    INSERT INTO journal_lines (tenant_id, entry_id, gl_account_id, date, money_account_id, counterparty_id,
                               currency_code, amount, base_amount, rate)
    SELECT tenant_id, ${entryId}::uuid, gl_account_id, ${date}::date, money_account_id, counterparty_id,
           currency_code, amount, base_amount, rate
      FROM manual_journal_lines
     WHERE tenant_id = ${tenantId}::uuid AND journal_id = ${journalId}::uuid
     ORDER BY position`;
  await tx.$executeRaw`
    UPDATE manual_journals SET state = 'posted', entry_id = ${entryId}::uuid, posted_at = ${now}, updated_at = ${now}
     WHERE tenant_id = ${tenantId}::uuid AND id = ${journalId}::uuid`;
};

/**
 * The organization's journal lock, held to the end of the transaction (re-entrant within it): numbering,
 * and a revaluation from reading balances to posting, so that two at once do not both post.
 */
const lockJournals = async (tx: Tx, tenantId: string) => {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${0x4869_0100}, hashtext(${tenantId}))`;
};

const nextNumber = async (tx: Tx, tenantId: string): Promise<number> => {
  await lockJournals(tx, tenantId);
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT (COALESCE(max(number), 0) + 1)::int AS n FROM manual_journals WHERE tenant_id = ${tenantId}::uuid`;
  return row?.n ?? 1;
};

const insertJournal = async (
  tx: Tx,
  ctx: TenantContext,
  journal: {
    id: string;
    kind: TJournalDto["kind"];
    date: string;
    memo: string;
    total: bigint;
    attachmentIds: string[];
    reversalOfId: string | null;
    now: Date;
  },
) => {
  const number = await nextNumber(tx, ctx.tenantId);
  await tx.$executeRaw`
    INSERT INTO manual_journals (id, tenant_id, number, kind, state, date, memo, total, reversal_of_id,
                                 attachment_ids, created_by, created_at, updated_at)
    VALUES (${journal.id}::uuid, ${ctx.tenantId}::uuid, ${number}, ${journal.kind}, 'draft', ${journal.date}::date,
            ${journal.memo}, ${journal.total}, ${journal.reversalOfId}::uuid, ${journal.attachmentIds}::uuid[],
            ${ctx.actor.userId}::uuid, ${journal.now}, ${journal.now})`;
};

const checkAttachments = async (tx: Tx, tenantId: string, ids: string[]) => {
  if (ids.length === 0) return;
  const found = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM uploads WHERE tenant_id = ${tenantId}::uuid AND id = ANY(${ids}::uuid[])`;
  const known = new Set(found.map((row) => row.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw fieldError(
      `attachmentIds.${index}`,
      "finance.unknown_upload",
      "is not a file uploaded to this organization",
    );
  }
};

type RevaluationRow = {
  money_account_id: string;
  name: string;
  currency_code: string;
  gl_account_id: string;
  balance: string;
  booked: string;
  last_rate: string | null;
};

type DebtRevaluationRow = {
  gl_account_id: string;
  code: string;
  name_en: string;
  name_ru: string;
  name_uz: string;
  counterparty_id: string;
  counterparty: string;
  currency_code: string;
  balance: string;
  booked: string;
  last_rate: string | null;
};

/** A stored draft's lines checked again against the chart as it is now, as `resolveLines` checks new ones. */
const recheckLines = async (tx: Tx, tenantId: string, journalId: string) => {
  const stored = await tx.$queryRaw<
    {
      gl_account_id: string;
      counterparty_id: string | null;
      currency_code: string;
      amount: string;
      rate: string | null;
      memo: string;
    }[]
  >`
    SELECT gl_account_id::text, counterparty_id::text, currency_code::text, amount::text, rate::text, memo
      FROM manual_journal_lines
     WHERE tenant_id = ${tenantId}::uuid AND journal_id = ${journalId}::uuid
     ORDER BY position`;
  const base = await baseCurrencyOf(tx, tenantId);
  await resolveLines(
    tx,
    tenantId,
    stored.map((line) => {
      const amount = BigInt(line.amount);
      return {
        glAccountId: line.gl_account_id,
        debit: amount > 0n ? amount.toString() : "0",
        credit: amount < 0n ? (-amount).toString() : "0",
        rate: line.currency_code === base || line.rate === null ? null : normalizeRate(line.rate),
        counterpartyId: line.counterparty_id,
        memo: line.memo,
      };
    }),
    stored.map((line) => line.currency_code),
  );
};

export const createJournalService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  /** The revaluation's figures as of `date` (inclusive), at the given rates or the last known ones. */
  const computeRevaluation = async (
    tx: Tx,
    tenantId: string,
    input: ReturnType<typeof ZRevaluationInput.parse>,
  ): Promise<TRevaluationPreview> => {
    const base = await baseCurrencyOf(tx, tenantId);
    const given = new Map(input.rates.map((rate) => [rate.currency, rate.rate]));
    const rows =
      base === null
        ? []
        : await tx.$queryRaw<RevaluationRow[]>`
          SELECT m.id::text AS money_account_id, m.name, m.currency_code::text,
                 gl_money_account(${tenantId}::uuid, m.id, ${base}::char(3))::text AS gl_account_id,
                 COALESCE(sum(l.amount), 0)::text AS balance, COALESCE(sum(l.base_amount), 0)::text AS booked,
                 (gl_rate(${tenantId}::uuid, m.currency_code, ${base}::char(3), ${input.date}::date + 1,
                          '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid))::text AS last_rate
            FROM money_accounts m
            LEFT JOIN journal_lines l ON l.tenant_id = m.tenant_id AND l.money_account_id = m.id AND l.date <= ${input.date}::date
           WHERE m.tenant_id = ${tenantId}::uuid AND m.currency_code <> ${base}::char(3)
           GROUP BY m.id
          HAVING COALESCE(sum(l.amount), 0) <> 0 OR COALESCE(sum(l.base_amount), 0) <> 0
           ORDER BY m.currency_code, m.name, m.id`;
    // Open receivables and payables in a foreign currency: the lines with a counterparty on asset and
    // liability accounts (debts, their settlements and write-offs, manual lines on those accounts),
    // per account of the chart, counterparty and currency (docs/decisions/0111-books-features.md).
    const debts =
      base === null
        ? []
        : await tx.$queryRaw<DebtRevaluationRow[]>`
          SELECT o.gl_account_id::text, a.code, a.name_en, a.name_ru, a.name_uz, o.counterparty_id::text,
                 c.name AS counterparty, o.currency_code::text, o.balance::text, o.booked::text,
                 (gl_rate(${tenantId}::uuid, o.currency_code, ${base}::char(3), ${input.date}::date + 1,
                          '-infinity'::timestamptz, '00000000-0000-0000-0000-000000000000'::uuid))::text AS last_rate
            FROM (SELECT l.gl_account_id, l.counterparty_id, l.currency_code,
                         sum(l.amount) AS balance, sum(l.base_amount) AS booked
                    FROM journal_lines l
                   WHERE l.tenant_id = ${tenantId}::uuid AND l.date <= ${input.date}::date
                     AND l.counterparty_id IS NOT NULL AND l.money_account_id IS NULL
                     AND l.currency_code <> ${base}::char(3)
                   GROUP BY l.gl_account_id, l.counterparty_id, l.currency_code
                  HAVING sum(l.amount) <> 0 OR sum(l.base_amount) <> 0) o
            JOIN gl_accounts a ON a.tenant_id = ${tenantId}::uuid AND a.id = o.gl_account_id AND a.type IN ('asset', 'liability')
            JOIN counterparties c ON c.tenant_id = ${tenantId}::uuid AND c.id = o.counterparty_id
           ORDER BY o.currency_code, a.code, c.name, o.counterparty_id`;
    let gain = 0n;
    let loss = 0n;
    /** A balance at the rate given for its currency, else the last known; its difference to what is booked. */
    const revalue = (currency: string, lastRate: string | null, balanceText: string, bookedText: string) => {
      const rate = given.get(currency) ?? (lastRate === null ? null : normalizeRate(lastRate));
      const balance = BigInt(balanceText);
      const booked = BigInt(bookedText);
      const revalued = rate === null ? null : multiplyRateWithin(balance, rate);
      if (rate !== null && revalued === null) {
        const given = input.rates.findIndex((entry) => entry.currency === currency);
        throw rateOverflow(given >= 0 ? `rates.${given}.rate` : "rates");
      }
      const difference = revalued === null ? 0n : revalued - booked;
      if (difference > 0n) gain += difference;
      else loss -= difference;
      return {
        currency,
        balance: balanceText,
        bookedBase: bookedText,
        rate,
        revaluedBase: revalued === null ? null : revalued.toString(),
        difference: difference.toString(),
      };
    };
    const out = rows.map((row) => ({
      moneyAccountId: row.money_account_id,
      name: row.name,
      glAccountId: row.gl_account_id,
      ...revalue(row.currency_code, row.last_rate, row.balance, row.booked),
    }));
    const counterparties = debts.map((row) => ({
      glAccountId: row.gl_account_id,
      code: row.code,
      nameEn: row.name_en,
      nameRu: row.name_ru,
      nameUz: row.name_uz,
      counterpartyId: row.counterparty_id,
      counterparty: row.counterparty,
      ...revalue(row.currency_code, row.last_rate, row.balance, row.booked),
    }));
    return {
      date: input.date,
      baseCurrency: base,
      rows: out,
      counterparties,
      gain: gain.toString(),
      loss: loss.toString(),
    };
  };

  return {
    list: async (
      ctx: TenantContext,
      raw: TListJournalsQuery,
    ): Promise<Page<TJournalDto> & { baseCurrency: string | null }> => {
      requirePermission(ctx, "journal:read:all");
      const query = parseInput(ZListJournalsQuery, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        const where = `tenant_id = $1::uuid AND ($2::date IS NULL OR date >= $2::date) AND ($3::date IS NULL OR date <= $3::date)
          AND ($4::text IS NULL OR state = $4) AND ($5::text IS NULL OR kind = $5)`;
        const params = [
          tenantId,
          query.startDate ?? null,
          query.endDate ?? null,
          query.state ?? null,
          query.kind ?? null,
        ];
        const rows = await tx.$queryRawUnsafe<JournalRow[]>(
          `SELECT ${JOURNAL_COLUMNS} FROM manual_journals WHERE ${where}
            ORDER BY date DESC, number DESC LIMIT $6 OFFSET $7`,
          ...params,
          query.limit,
          query.offset,
        );
        const [count] = await tx.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM manual_journals WHERE ${where}`,
          ...params,
        );
        const base = await baseCurrencyOf(tx, tenantId);
        return {
          items: rows.map((row) => toDto(row, base)),
          baseCurrency: base,
          total: count?.n ?? 0,
          limit: query.limit,
          offset: query.offset,
        };
      });
    },

    get: async (ctx: TenantContext, id: string): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:read:all");
      return db.withTenant(ctx.tenantId, (tx) => detailOf(tx, ctx.tenantId, id));
    },

    /** A draft: its lines are checked and must balance, and nothing is posted yet. */
    create: async (ctx: TenantContext, raw: TCreateJournalInput): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:create:all");
      const input = parseInput(ZCreateJournalInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "journal.create", input, async () => {
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: input.date, field: "date" }]);
          const { lines, total } = await resolveLines(tx, tenantId, input.lines);
          await checkAttachments(tx, tenantId, input.attachmentIds);
          const id = newId();
          const now = clock.now();
          await insertJournal(tx, ctx, {
            id,
            kind: "manual",
            date: input.date,
            memo: input.memo,
            total,
            attachmentIds: input.attachmentIds,
            reversalOfId: null,
            now,
          });
          await insertLines(tx, tenantId, id, lines);
          const detail = await detailOf(tx, tenantId, id);
          await audit(tx, ctx, "journal_entry", id, "create", { after: detail });
          return detail;
        }),
      );
    },

    /** A draft's date, memo, lines or attachments; a posted entry is reversed, never changed. */
    update: async (ctx: TenantContext, id: string, raw: TUpdateJournalInput): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:update:all");
      const input = parseInput(ZUpdateJournalInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        const row = await selectJournal(tx, tenantId, id, true);
        if (!row) throw journalNotFound();
        await assertPeriodOpen(prismaSql(tx), tenantId, [
          { date: row.date, field: null },
          ...(input.date !== undefined ? [{ date: input.date, field: "date" as const }] : []),
        ]);
        if (row.state !== "draft") throw notDraft();
        const before = await detailOf(tx, tenantId, id);
        const now = clock.now();
        let total = BigInt(row.total);
        if (input.lines !== undefined) {
          const resolved = await resolveLines(tx, tenantId, input.lines);
          total = resolved.total;
          await tx.$executeRaw`DELETE FROM manual_journal_lines WHERE tenant_id = ${tenantId}::uuid AND journal_id = ${id}::uuid`;
          await insertLines(tx, tenantId, id, resolved.lines);
        }
        if (input.attachmentIds !== undefined) await checkAttachments(tx, tenantId, input.attachmentIds);
        await tx.$executeRaw`
          UPDATE manual_journals
             SET date = COALESCE(${input.date ?? null}::date, date),
                 memo = COALESCE(${input.memo ?? null}, memo),
                 attachment_ids = COALESCE(${input.attachmentIds ?? null}::uuid[], attachment_ids),
                 total = ${total}, updated_at = ${now}
           WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
        const after = await detailOf(tx, tenantId, id);
        await audit(tx, ctx, "journal_entry", id, "update", { before, after });
        return after;
      });
    },

    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "journal:delete:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const row = await selectJournal(tx, tenantId, id, true);
        if (!row) throw journalNotFound();
        await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: row.date, field: null }]);
        if (row.state !== "draft") throw notDraft();
        const before = await detailOf(tx, tenantId, id);
        await tx.$executeRaw`DELETE FROM manual_journals WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
        await audit(tx, ctx, "journal_entry", id, "delete", { before });
      });
    },

    /** Posts a draft: its lines go into the journal in this transaction. */
    post: async (ctx: TenantContext, id: string): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:post:all");
      const { tenantId } = ctx;
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "journal.post", { id }, async () => {
          const row = await selectJournal(tx, tenantId, id, true);
          if (!row) throw journalNotFound();
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: row.date, field: null }]);
          if (row.state !== "draft") {
            throw businessRule("finance.journal_already_posted", "The journal entry is already posted");
          }
          // The chart may have changed since the draft was saved (a sub-account added, an account
          // deactivated or given another currency): its lines are checked again as new ones are.
          await recheckLines(tx, tenantId, id);
          await postEntry(tx, tenantId, id, row.date, row.memo, clock.now());
          const detail = await detailOf(tx, tenantId, id);
          await audit(tx, ctx, "journal_entry", id, "post", {
            after: { state: detail.state, total: detail.total },
          });
          return detail;
        }),
      );
    },

    /** Posts the exact opposite of a posted entry on the date chosen; the entry becomes reversed. */
    reverse: async (
      ctx: TenantContext,
      id: string,
      raw: TReverseJournalInput,
    ): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:post:all");
      const input = parseInput(ZReverseJournalInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "journal.reverse", { id, ...input }, async () => {
          const row = await selectJournal(tx, tenantId, id, true);
          if (!row) throw journalNotFound();
          await assertPeriodOpen(prismaSql(tx), tenantId, [
            { date: row.date, field: null },
            { date: input.date, field: "date" },
          ]);
          if (row.state === "reversed") {
            throw businessRule("finance.already_reversed", "This entry has already been reversed.");
          }
          if (row.state === "draft") {
            throw businessRule(
              "finance.journal_not_posted",
              "A draft posts nothing to reverse; delete it instead",
            );
          }
          if (row.reversal_of_id !== null) {
            throw businessRule(
              "finance.reversal_not_reversible",
              "A reversal cannot be reversed; post the entry again instead.",
            );
          }
          if (input.date < row.date) {
            throw fieldError(
              "date",
              "finance.journal_reversal_before",
              `must not be before the entry's date (${row.date})`,
            );
          }
          const reversalId = newId();
          const now = clock.now();
          await insertJournal(tx, ctx, {
            id: reversalId,
            kind: row.kind,
            date: input.date,
            memo: row.memo,
            total: BigInt(row.total),
            attachmentIds: [],
            reversalOfId: id,
            now,
          });
          await tx.$executeRaw`
            INSERT INTO manual_journal_lines (tenant_id, journal_id, position, gl_account_id, counterparty_id, money_account_id,
                                              currency_code, amount, base_amount, rate, memo)
            SELECT tenant_id, ${reversalId}::uuid, position, gl_account_id, counterparty_id, money_account_id,
                   currency_code, -amount, -base_amount, rate, memo
              FROM manual_journal_lines WHERE tenant_id = ${tenantId}::uuid AND journal_id = ${id}::uuid`;
          await postEntry(tx, tenantId, reversalId, input.date, row.memo, now);
          await tx.$executeRaw`
            UPDATE manual_journals SET state = 'reversed', reversed_by_id = ${reversalId}::uuid, updated_at = ${now}
             WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
          const reversal = await detailOf(tx, tenantId, reversalId);
          await audit(tx, ctx, "journal_entry", id, "reverse", {
            before: { state: row.state },
            after: { state: "reversed", reversedById: reversalId, date: input.date },
          });
          return reversal;
        }),
      );
    },

    /** What a revaluation as of a date would post, per foreign-currency money account; nothing written. */
    previewRevaluation: async (ctx: TenantContext, raw: TRevaluationInput): Promise<TRevaluationPreview> => {
      requirePermission(ctx, "journal:read:all");
      const input = parseInput(ZRevaluationInput, raw);
      return db.withTenant(ctx.tenantId, (tx) => computeRevaluation(tx, ctx.tenantId, input));
    },

    /**
     * Posts the revaluation as one journal entry: per account, Dr (Cr) the money account's leaf by the
     * difference in the base currency only (its own-currency balance is unchanged), against the
     * unrealised exchange gain (loss) account.
     */
    revalue: async (ctx: TenantContext, raw: TRevaluationInput): Promise<TJournalDetailDto> => {
      requirePermission(ctx, "journal:post:all");
      const input = parseInput(ZRevaluationInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, (tx) =>
        idempotent(tx, ctx, "journal.revalue", input, async () => {
          await assertPeriodOpen(prismaSql(tx), tenantId, [{ date: input.date, field: "date" }]);
          // Locked before the balances are read: a second revaluation at once waits, then sees this one's lines.
          await lockJournals(tx, tenantId);
          const [last] = await tx.$queryRaw<{ date: string }[]>`
            SELECT max(date)::text AS date FROM manual_journals
             WHERE tenant_id = ${tenantId}::uuid AND kind = 'revaluation' AND state = 'posted' AND reversal_of_id IS NULL`;
          if (last?.date && input.date <= last.date) {
            throw new AppError("VALIDATION_ERROR", {
              reason: "finance.revaluation_not_after_last",
              message: `validation error: date must be after the last revaluation (${last.date})`,
              params: {
                date: last.date,
                issues: [{ path: "date", message: `must be after the last revaluation (${last.date})` }],
              },
            });
          }
          const preview = await computeRevaluation(tx, tenantId, input);
          const rows = preview.rows.filter((row) => row.difference !== "0");
          const debts = preview.counterparties.filter((row) => row.difference !== "0");
          if ((rows.length === 0 && debts.length === 0) || preview.baseCurrency === null) {
            throw businessRule(
              "finance.revaluation_nothing",
              "Nothing to revalue: no foreign-currency account differs from its value at these rates",
            );
          }
          const base = preview.baseCurrency;
          // Read directly: gl_role_account would fail obscurely (a foreign-key error) on a chart without them.
          const [roles] = await tx.$queryRaw<{ gain: string | null; loss: string | null }[]>`
            SELECT (SELECT id::text FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid AND role = 'fx_unrealised_gain') AS gain,
                   (SELECT id::text FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid AND role = 'fx_unrealised_loss') AS loss`;
          if (!roles?.gain || !roles.loss) {
            throw businessRule(
              "finance.revaluation_accounts_missing",
              "The chart has no unrealised exchange gain or loss account: a revaluation cannot be posted without both",
            );
          }
          const lines: ResolvedLine[] = [];
          let total = 0n;
          // Per balance: its leaf by the difference in the base currency only (amount 0: what is held or
          // owed in its own currency is unchanged), against the unrealised gain or loss.
          const revalued = (
            row: { glAccountId: string; currency: string; rate: string | null; difference: string },
            held: { moneyAccountId: string | null; counterpartyId: string | null; memo: string },
          ) => {
            const difference = BigInt(row.difference);
            total += difference > 0n ? difference : -difference;
            lines.push({
              glAccountId: row.glAccountId,
              counterpartyId: held.counterpartyId,
              moneyAccountId: held.moneyAccountId,
              currency: row.currency,
              amount: 0n,
              baseAmount: difference,
              rate: row.rate,
              memo: held.memo,
            });
            lines.push({
              glAccountId: difference > 0n ? (roles.gain ?? "") : (roles.loss ?? ""),
              counterpartyId: null,
              moneyAccountId: null,
              currency: base,
              amount: -difference,
              baseAmount: -difference,
              rate: "1",
              memo: held.memo,
            });
          };
          for (const row of rows) {
            revalued(row, { moneyAccountId: row.moneyAccountId, counterpartyId: null, memo: row.name });
          }
          for (const row of debts) {
            revalued(row, {
              moneyAccountId: null,
              counterpartyId: row.counterpartyId,
              memo: `${row.code} ${row.counterparty}`,
            });
          }
          const id = newId();
          const now = clock.now();
          await insertJournal(tx, ctx, {
            id,
            kind: "revaluation",
            date: input.date,
            memo: input.memo,
            total,
            attachmentIds: [],
            reversalOfId: null,
            now,
          });
          await insertLines(tx, tenantId, id, lines);
          await postEntry(tx, tenantId, id, input.date, input.memo, now);
          const detail = await detailOf(tx, tenantId, id);
          await audit(tx, ctx, "journal_entry", id, "revalue", {
            after: {
              date: input.date,
              rates: [...preview.rows, ...preview.counterparties].map((r) => ({
                currency: r.currency,
                rate: r.rate,
              })),
              gain: preview.gain,
              loss: preview.loss,
            },
          });
          return detail;
        }),
      );
    },
  };
};

export type JournalService = ReturnType<typeof createJournalService>;
