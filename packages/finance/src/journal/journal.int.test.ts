import { readFileSync } from "node:fs";
import { type AppError, createManualClock, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";
import type { TJournalLineInput } from "./journal.schema";

/*
 * Manual journal entries and revaluation (docs/decisions/0100-manual-journals-and-revaluation.md),
 * through the services on a real database: an accrual computed by hand and its trial-balance effect,
 * drafts that post nothing, posting and reversing, the closed period on every write, another
 * organization's ids, hostile input, and a revaluation computed by hand. Base currency UZS; amounts in
 * minor units (tiyin, cents).
 */

const clock = createManualClock(new Date("2026-05-01T09:00:00Z"));
let t: FinanceTestKit;
let ctx: TenantContext;
let other: TenantContext;
/** code → account id of the chart (NAS 21). */
let chart: Record<string, string>;
let supplierId: string;
let bankId: string;
let usdId: string;

const on = (date: string) => clock.set(new Date(`${date}T09:00:00Z`));
const f = () => t.services.finance;

const count = (table: "journal_lines" | "manual_journals", who: TenantContext = ctx) =>
  t.db.withTenant(who.tenantId, async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`);
    return row?.n ?? 0;
  });

/** code → [debit, credit, closing] of the period, base-currency minor units. */
const trial = async (startDate: string, endDate: string) => {
  const report = await f().generalLedger.trialBalance(ctx, { startDate, endDate });
  return {
    report,
    rows: Object.fromEntries(report.rows.map((row) => [row.code, [row.debit, row.credit, row.closing]])),
  };
};

const line = (
  code: string,
  side: "debit" | "credit",
  amount: string,
  more: Partial<TJournalLineInput> = {},
) => ({
  glAccountId: chart[code] ?? "",
  [side]: amount,
  ...more,
});

/** Rent for May accrued: Dr 9420 administrative expenses / Cr 6010 payable to the landlord, 5,000,000.00 UZS. */
const accrual = (date: string, amount = "500000000") => ({
  date,
  memo: "Rent for May, accrued",
  lines: [line("9420", "debit", amount), line("6010", "credit", amount, { counterpartyId: supplierId })],
});

const rejection = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as AppError | null;
  expect(error, "the call must be refused").not.toBeNull();
  return error as AppError;
};

/** The organization keeps USD beside its base currency UZS. */
const usdOverUzs = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => {
    await tx.tenantCurrency.create({ data: { tenantId, currencyCode: "USD" } });
    await tx.tenantSetting.upsert({
      where: { tenantId },
      create: { tenantId, baseCurrencyCode: "UZS" },
      update: { baseCurrencyCode: "UZS" },
    });
  });

beforeAll(async () => {
  t = await createFinanceTestKit({ clock });
  const tenant = await t.createTenant();
  ctx = await t.contextOf(await t.createUser(tenant.id, "admin"), "journal");
  await usdOverUzs(tenant.id);
  const installed = await f().generalLedger.installChart(ctx, { template: "nas21" });
  chart = Object.fromEntries(installed.map((account) => [account.code, account.id]));
  supplierId = (await f().counterparties.create(ctx, { name: "Landlord", type: "supplier" })).id;
  bankId = (await f().accounts.create(ctx, { name: "Bank", currency: "UZS" })).id;
  usdId = (await f().accounts.create(ctx, { name: "USD account", currency: "USD" })).id;
  const otherTenant = await t.createTenant();
  other = await t.contextOf(await t.createUser(otherTenant.id, "admin"), "journal-other");
});
afterAll(async () => t?.close());

describe("manual journal entries", () => {
  it("the chart has the unrealised exchange gain and loss leaves", () => {
    expect(chart["9541"]).toBeDefined();
    expect(chart["9621"]).toBeDefined();
  });

  it("a draft posts nothing and may be edited; posting writes its lines; the trial balance moves by hand's figures", async () => {
    on("2026-05-31");
    const linesBefore = await count("journal_lines");
    const draft = await f().journal.create(ctx, accrual("2026-05-31", "400000000"));
    expect(draft).toMatchObject({ state: "draft", kind: "manual", total: "400000000", baseCurrency: "UZS" });
    expect(draft.number).toBeGreaterThan(0);
    expect(await count("journal_lines")).toBe(linesBefore);

    const edited = await f().journal.update(ctx, draft.id, {
      memo: "Rent for May",
      lines: accrual("2026-05-31").lines,
    });
    expect(edited).toMatchObject({ memo: "Rent for May", total: "500000000" });
    expect(edited.lines.map((l) => [l.code, l.debit, l.credit, l.baseAmount, l.counterpartyId])).toEqual([
      ["9420", "500000000", "0", "500000000", null],
      ["6010", "0", "500000000", "-500000000", supplierId],
    ]);
    expect(await count("journal_lines")).toBe(linesBefore);

    const posted = await f().journal.post(ctx, draft.id);
    expect(posted.state).toBe("posted");
    expect(await count("journal_lines")).toBe(linesBefore + 2);
    // By hand: May's turnover Dr 9420 5,000,000.00 and Cr 6010 5,000,000.00; nothing else moved.
    const { report, rows } = await trial("2026-05-01", "2026-05-31");
    expect(rows["9420"]).toEqual(["500000000", "0", "500000000"]);
    expect(rows["6010"]).toEqual(["0", "500000000", "-500000000"]);
    expect(report.balanced).toBe(true);

    // Posted: no longer changed or deleted; posting again is refused.
    expect(await rejection(f().journal.update(ctx, draft.id, { memo: "x" }))).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "finance.journal_not_draft",
    });
    expect(await rejection(f().journal.delete(ctx, draft.id))).toMatchObject({
      reason: "finance.journal_not_draft",
    });
    expect(await rejection(f().journal.post(ctx, draft.id))).toMatchObject({
      reason: "finance.journal_already_posted",
    });
    const listed = await f().journal.list(ctx, {
      state: "posted",
      startDate: "2026-05-01",
      endDate: "2026-05-31",
    });
    expect(listed.items.map((item) => item.id)).toContain(draft.id);
    expect((await f().reconcile.reconcile(ctx)).ok).toBe(true);
  });

  it("an unbalanced entry is refused naming the difference, and nothing is written", async () => {
    const journals = await count("manual_journals");
    const error = await rejection(
      f().journal.create(ctx, {
        date: "2026-05-31",
        lines: [
          line("9420", "debit", "100000"),
          line("6010", "credit", "99950", { counterpartyId: supplierId }),
        ],
      }),
    );
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "finance.journal_unbalanced",
      params: { side: "debits", difference: { minor: "50", currency: "UZS" } },
    });
    expect(error.message).toContain("50");
    expect(await count("manual_journals")).toBe(journals);
  });

  it("a reversal posts the exact opposite lines on its own date and restores every balance", async () => {
    on("2026-06-02");
    const before = await trial("2026-06-01", "2026-06-30");
    const entry = await f().journal.create(ctx, accrual("2026-06-01", "120000"));
    await f().journal.post(ctx, entry.id);
    const reversal = await f().journal.reverse(ctx, entry.id, { date: "2026-06-02" });
    expect(reversal).toMatchObject({
      state: "posted",
      reversalOfId: entry.id,
      date: "2026-06-02",
      total: "120000",
    });
    const original = await f().journal.get(ctx, entry.id);
    expect(original).toMatchObject({ state: "reversed", reversedById: reversal.id });
    expect(reversal.lines.map((l) => [l.glAccountId, l.debit, l.credit, l.baseAmount])).toEqual(
      original.lines.map((l) => [l.glAccountId, l.credit, l.debit, (-BigInt(l.baseAmount)).toString()]),
    );
    const after = await trial("2026-06-01", "2026-06-30");
    expect(after.rows["9420"]?.[2]).toBe(before.rows["9420"]?.[2]);
    expect(after.rows["6010"]?.[2]).toBe(before.rows["6010"]?.[2]);
    expect(after.rows["9420"]?.slice(0, 2)).toEqual(["120000", "120000"]);

    expect(await rejection(f().journal.reverse(ctx, entry.id, { date: "2026-06-02" }))).toMatchObject({
      reason: "finance.already_reversed",
    });
    expect(await rejection(f().journal.reverse(ctx, reversal.id, { date: "2026-06-02" }))).toMatchObject({
      reason: "finance.reversal_not_reversible",
    });
    const draft = await f().journal.create(ctx, accrual("2026-06-02", "1000"));
    expect(await rejection(f().journal.reverse(ctx, draft.id, { date: "2026-06-02" }))).toMatchObject({
      reason: "finance.journal_not_posted",
    });
    await f().journal.delete(ctx, draft.id);
    expect(await rejection(f().journal.get(ctx, draft.id))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("one posting per idempotency key", async () => {
    const keyed = { ...ctx, idempotencyKey: "journal-create-1" };
    const first = await f().journal.create(keyed, accrual("2026-06-02", "3000"));
    const again = await f().journal.create(keyed, accrual("2026-06-02", "3000"));
    expect(again.id).toBe(first.id);
    expect(await rejection(f().journal.create(keyed, accrual("2026-06-02", "4000")))).toMatchObject({
      reason: "idempotency.key_reused",
    });
    const posted = await f().journal.post({ ...ctx, idempotencyKey: "journal-post-1" }, first.id);
    const repeated = await f().journal.post({ ...ctx, idempotencyKey: "journal-post-1" }, first.id);
    expect(repeated).toEqual(posted);
  });

  it("the closed period refuses every write on or before the lock date", async () => {
    on("2026-06-20");
    const draft = await f().journal.create(ctx, accrual("2026-06-10", "1000"));
    const posted = await f().journal.create(ctx, accrual("2026-06-10", "2000"));
    await f().journal.post(ctx, posted.id);
    await f().periods.set(ctx, { lockDate: "2026-06-15" });
    try {
      const lines = await count("journal_lines");
      const later = await f().journal.create(ctx, accrual("2026-06-16", "1000"));
      const refusals = [
        () => f().journal.create(ctx, accrual("2026-06-15", "1000")),
        () => f().journal.update(ctx, draft.id, { memo: "changed" }),
        () => f().journal.update(ctx, later.id, { date: "2026-06-14" }),
        () => f().journal.post(ctx, draft.id),
        () => f().journal.delete(ctx, draft.id),
        () => f().journal.reverse(ctx, posted.id, { date: "2026-06-20" }),
        () => f().journal.revalue(ctx, { date: "2026-06-15", rates: [{ currency: "USD", rate: "12000" }] }),
      ];
      for (const refusal of refusals) {
        expect(await rejection(refusal())).toMatchObject({
          reason: "finance.period_closed",
          params: { lockDate: { isoDate: "2026-06-15" } },
        });
      }
      // A date the caller gave is a field error on `date`; a stored one a business rule.
      expect(await rejection(f().journal.create(ctx, accrual("2026-06-01")))).toMatchObject({
        code: "VALIDATION_ERROR",
        params: { issues: [{ path: "date" }] },
      });
      expect(await rejection(f().journal.post(ctx, draft.id))).toMatchObject({ code: "BUSINESS_RULE" });
      expect(await count("journal_lines")).toBe(lines);
      expect((await f().journal.get(ctx, draft.id)).state).toBe("draft");
    } finally {
      await f().periods.set(ctx, { lockDate: null });
    }
  });

  it("another organization's entry or account is not found", async () => {
    on("2026-06-20");
    const mine = await f().journal.create(ctx, accrual("2026-06-20", "1000"));
    expect(await rejection(f().journal.get(other, mine.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await rejection(f().journal.update(other, mine.id, { memo: "x" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await rejection(f().journal.post(other, mine.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await rejection(f().journal.delete(other, mine.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await rejection(f().journal.reverse(other, mine.id, { date: "2026-06-20" }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await f().journal.list(other, {})).total).toBe(0);
    // Our chart's account in their entry: not an account of their chart.
    await f().generalLedger.installChart(other, { template: "ifrs" });
    expect(await rejection(f().journal.create(other, accrual("2026-06-20")))).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "finance.unknown_gl_account",
      params: { issues: [{ path: "lines.0.glAccountId" }] },
    });
    expect(await count("manual_journals", other)).toBe(0);
    expect((await f().journal.get(ctx, mine.id)).state).toBe("draft");
  });

  it("hostile and oversized input is refused as a validation error", async () => {
    const journals = await count("manual_journals");
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        line(i % 2 === 0 ? "9420" : "9430", i % 2 === 0 ? "debit" : "credit", "1"),
      );
    const cases: unknown[] = [
      { date: "2026-06-20", lines: many(501) },
      { date: "2026-06-20", lines: many(1000) },
      { date: "2026-06-20", lines: [line("9420", "debit", "1")] },
      { date: "2026-06-20", lines: [line("9420", "debit", "-5"), line("9430", "credit", "-5")] },
      {
        date: "2026-06-20",
        lines: [{ ...line("9420", "debit", "5"), credit: "5" }, line("9430", "credit", "5")],
      },
      { date: "2026-06-20", lines: [line("9420", "debit", "1.5"), line("9430", "credit", "1.5")] },
      {
        date: "2026-06-20",
        lines: [line("9420", "debit", "99999999999999999999"), line("9430", "credit", "1")],
      },
      { date: "2026-02-30", lines: many(2) },
      { date: "2026-06-20", memo: "a\u0000b", lines: many(2) },
      { date: "2026-06-20", memo: "x".repeat(1001), lines: many(2) },
      {
        date: "2026-06-20",
        lines: many(2),
        attachmentIds: Array.from({ length: 21 }, () => crypto.randomUUID()),
      },
      { date: "2026-06-20", lines: many(2), extra: true },
      {
        date: "2026-06-20",
        lines: [{ ...line("9420", "debit", "1"), glAccountId: "not-a-uuid" }, line("9430", "credit", "1")],
      },
      // Only a leaf takes lines; a cash account moves through payments; counterparties only on receivables/payables.
      { date: "2026-06-20", lines: [line("9400", "debit", "1"), line("9430", "credit", "1")] },
      { date: "2026-06-20", lines: [line("5110", "debit", "1"), line("9430", "credit", "1")] },
      {
        date: "2026-06-20",
        lines: [line("9420", "debit", "1", { counterpartyId: supplierId }), line("9430", "credit", "1")],
      },
      {
        date: "2026-06-20",
        lines: [
          line("6010", "debit", "1", { counterpartyId: crypto.randomUUID() }),
          line("9430", "credit", "1"),
        ],
      },
      // An upload that is not this organization's.
      { date: "2026-06-20", lines: many(2), attachmentIds: [crypto.randomUUID()] },
    ];
    for (const input of cases) {
      const error = await rejection(f().journal.create(ctx, input as never));
      expect(error.code, JSON.stringify(input).slice(0, 200)).toBe("VALIDATION_ERROR");
    }
    expect(await count("manual_journals")).toBe(journals);
  });

  it("posting a draft checks its lines against the chart as it is now (a group, deactivated, another currency)", async () => {
    on("2026-06-25");
    const leaf = async (code: string) =>
      (
        await f().generalLedger.createAccount(ctx, {
          code,
          nameEn: `Expense ${code}`,
          nameRu: `Расход ${code}`,
          nameUz: `Xarajat ${code}`,
          type: "expense",
          parentId: chart["9400"] ?? null,
        })
      ).id;
    chart["9481"] = await leaf("9481");
    chart["9482"] = await leaf("9482");
    const draftOf = async () =>
      f().journal.create(ctx, {
        date: "2026-06-25",
        lines: [line("9481", "debit", "700"), line("9482", "credit", "700")],
      });
    const lines = await count("journal_lines");

    // A sub-account added under a line's account after the draft was saved: only a leaf takes lines.
    const grouped = await draftOf();
    const child = await f().generalLedger.createAccount(ctx, {
      code: "94811",
      nameEn: "Sub",
      nameRu: "Суб",
      nameUz: "Sub",
      type: "expense",
      parentId: chart["9481"] ?? null,
    });
    expect(await rejection(f().journal.post(ctx, grouped.id))).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "finance.gl_account_not_leaf",
      params: { issues: [{ path: "lines.0.glAccountId" }] },
    });
    await f().generalLedger.deleteAccount(ctx, child.id);

    // Deactivated after the draft was saved.
    const inactive = await draftOf();
    await f().generalLedger.updateAccount(ctx, chart["9482"] ?? "", { isActive: false });
    expect(await rejection(f().journal.post(ctx, inactive.id))).toMatchObject({
      reason: "finance.gl_account_inactive",
      params: { issues: [{ path: "lines.1.glAccountId" }] },
    });
    await f().generalLedger.updateAccount(ctx, chart["9482"] ?? "", { isActive: true });

    // Given another currency after the draft was saved: the line was written in UZS with no rate.
    const currency = await draftOf();
    await f().generalLedger.updateAccount(ctx, chart["9481"] ?? "", { currency: "USD" });
    expect(await rejection(f().journal.post(ctx, currency.id))).toMatchObject({
      reason: "finance.journal_account_currency_changed",
      params: {
        issues: [
          { path: "lines.0.glAccountId", message: "now holds USD, not UZS as when the line was written" },
        ],
      },
    });
    await f().generalLedger.updateAccount(ctx, chart["9481"] ?? "", { currency: null });

    // An account on a draft's lines cannot be deleted (refused as an account with lines, never a 500).
    expect(await rejection(f().generalLedger.deleteAccount(ctx, chart["9482"] ?? ""))).toMatchObject({
      reason: "finance.gl_account_has_entries",
    });

    expect(await count("journal_lines")).toBe(lines);
    for (const draft of [grouped, inactive, currency]) {
      expect((await f().journal.get(ctx, draft.id)).state).toBe("draft");
    }
    // The chart as it was: the same draft posts.
    expect((await f().journal.post(ctx, grouped.id)).state).toBe("posted");
    expect(await count("journal_lines")).toBe(lines + 2);
  });

  it("an amount times a rate beyond what an amount can hold is a field error on the rate", async () => {
    on("2026-06-25");
    chart["9483"] = (
      await f().generalLedger.createAccount(ctx, {
        code: "9483",
        nameEn: "Dollar expense",
        nameRu: "Долларовый расход",
        nameUz: "Dollar xarajati",
        type: "expense",
        parentId: chart["9400"] ?? null,
        currency: "USD",
      })
    ).id;
    const journals = await count("manual_journals");
    const input = {
      date: "2026-06-25",
      lines: [line("9483", "debit", "1000000000000", { rate: "999999999999" }), line("9430", "credit", "1")],
    };
    const refused = {
      code: "VALIDATION_ERROR",
      reason: "finance.rate_overflow",
      params: { issues: [{ path: "lines.0.rate" }] },
    };
    expect(await rejection(f().journal.create(ctx, input))).toMatchObject(refused);
    const draft = await f().journal.create(ctx, accrual("2026-06-25", "1000"));
    expect(await rejection(f().journal.update(ctx, draft.id, { lines: input.lines }))).toMatchObject(refused);
    await f().journal.delete(ctx, draft.id);
    expect(await count("manual_journals")).toBe(journals);
  });
});

describe("revaluation of foreign-currency money accounts", () => {
  it("USD 1,000.00 booked at 12,000 and revalued at 12,650 posts a gain of 650,000.00 UZS; its reversal undoes it", async () => {
    on("2026-07-01");
    await f().openingBalances.set(ctx, bankId, { amount: "2000000000", date: "2026-07-01" });
    // 12,000,000.00 UZS for 1,000.00 USD: 12,000 UZS per USD (tiyin per cent: 12,000).
    await f().transfers.exchange(ctx, {
      fromAccountId: bankId,
      toAccountId: usdId,
      amount: "1200000000",
      amountReceived: "100000",
      date: "2026-07-01",
    });
    on("2026-07-31");
    const defaults = await f().journal.previewRevaluation(ctx, { date: "2026-07-31" });
    expect(defaults.rows).toEqual([
      expect.objectContaining({
        moneyAccountId: usdId,
        currency: "USD",
        balance: "100000",
        bookedBase: "1200000000",
        rate: "12000",
        difference: "0",
      }),
    ]);
    const preview = await f().journal.previewRevaluation(ctx, {
      date: "2026-07-31",
      rates: [{ currency: "USD", rate: "12650" }],
    });
    // By hand: 1,000.00 USD × 12,650 = 12,650,000.00 UZS; booked 12,000,000.00; gain 650,000.00.
    expect(preview.rows[0]).toMatchObject({ revaluedBase: "1265000000", difference: "65000000" });
    expect(preview).toMatchObject({ gain: "65000000", loss: "0", baseCurrency: "UZS" });
    const journals = await count("manual_journals");
    expect(await count("manual_journals")).toBe(journals);

    const posted = await f().journal.revalue(ctx, {
      date: "2026-07-31",
      rates: [{ currency: "USD", rate: "12650" }],
      memo: "July revaluation",
    });
    expect(posted).toMatchObject({ kind: "revaluation", state: "posted", total: "65000000" });
    expect(posted.lines.map((l) => [l.code, l.currency, l.debit, l.credit, l.baseAmount])).toEqual([
      ["5210", "USD", "0", "0", "65000000"],
      ["9541", "UZS", "0", "65000000", "-65000000"],
    ]);
    const july = await trial("2026-07-01", "2026-07-31");
    expect(july.rows["5210"]?.[2]).toBe("1265000000");
    expect(july.rows["9541"]).toEqual(["0", "65000000", "-65000000"]);
    expect(july.report.balanced).toBe(true);
    // The account's cash in its own currency is unchanged; the ledger still agrees with it.
    expect((await f().accounts.get(ctx, usdId)).balance).toBe("100000");
    expect((await f().reconcile.reconcile(ctx)).ok).toBe(true);
    // Revalued: nothing left to revalue at the same rate.
    const again = await f().journal.previewRevaluation(ctx, {
      date: "2026-07-31",
      rates: [{ currency: "USD", rate: "12650" }],
    });
    expect(again.rows[0]?.difference).toBe("0");
    expect(
      await rejection(
        f().journal.revalue(ctx, { date: "2026-07-31", rates: [{ currency: "USD", rate: "12650" }] }),
      ),
    ).toMatchObject({ reason: "finance.revaluation_not_after_last", params: { date: "2026-07-31" } });
    expect(
      await rejection(
        f().journal.revalue(ctx, { date: "2026-08-01", rates: [{ currency: "USD", rate: "12650" }] }),
      ),
    ).toMatchObject({ reason: "finance.revaluation_nothing" });

    // Reversed on the first day of the next month: the booked value is back to cost.
    on("2026-08-01");
    await f().journal.reverse(ctx, posted.id, { date: "2026-08-01" });
    const august = await trial("2026-08-01", "2026-08-31");
    expect(august.rows["5210"]?.[2]).toBe("1200000000");
    expect(august.rows["9541"]).toEqual(["65000000", "0", "0"]);
    expect((await f().reconcile.reconcile(ctx)).ok).toBe(true);

    // A fall to 11,900 is a loss of 100,000.00 UZS, on the loss account.
    const loss = await f().journal.revalue(ctx, {
      date: "2026-08-01",
      rates: [{ currency: "USD", rate: "11900" }],
    });
    expect(loss.lines.map((l) => [l.code, l.baseAmount])).toEqual([
      ["5210", "-10000000"],
      ["9621", "10000000"],
    ]);
  });

  it("a revaluation dated on or before the last unreversed one is refused, naming its date", async () => {
    on("2026-08-15");
    const journals = await count("manual_journals");
    for (const date of ["2026-08-01", "2026-07-31"]) {
      expect(
        await rejection(f().journal.revalue(ctx, { date, rates: [{ currency: "USD", rate: "12300" }] })),
      ).toMatchObject({
        code: "VALIDATION_ERROR",
        reason: "finance.revaluation_not_after_last",
        params: {
          date: "2026-08-01",
          issues: [{ path: "date", message: "must be after the last revaluation (2026-08-01)" }],
        },
      });
    }
    expect(await count("manual_journals")).toBe(journals);
  });

  it("two revaluations at once post once: the second sees the first's lines", async () => {
    on("2026-08-31");
    const results = await Promise.allSettled(
      ["revalue-a", "revalue-b"].map((key) =>
        f().journal.revalue(
          { ...ctx, idempotencyKey: key },
          { date: "2026-08-31", rates: [{ currency: "USD", rate: "12500" }] },
        ),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected");
    expect(["finance.revaluation_not_after_last", "finance.revaluation_nothing"]).toContain(
      (refused as PromiseRejectedResult | undefined)?.reason?.reason,
    );
    // By hand: 1,000.00 USD × 12,500 = 12,500,000.00 UZS, revalued once.
    const august = await trial("2026-08-01", "2026-08-31");
    expect(august.rows["5210"]?.[2]).toBe("1250000000");
    expect(august.report.balanced).toBe(true);
    expect((await f().reconcile.reconcile(ctx)).ok).toBe(true);
  });

  it("a preview whose rate values a balance beyond what an amount can hold is a field error, not a crash", async () => {
    on("2026-09-01");
    const reserve = (await f().accounts.create(ctx, { name: "USD reserve", currency: "USD" })).id;
    await f().openingBalances.set(ctx, reserve, { amount: "100000000000", date: "2026-09-01" });
    const input = { date: "2026-09-01", rates: [{ currency: "USD", rate: "999999999999" }] };
    const refused = {
      code: "VALIDATION_ERROR",
      reason: "finance.rate_overflow",
      params: { issues: [{ path: "rates.0.rate" }] },
    };
    expect(await rejection(f().journal.previewRevaluation(ctx, input))).toMatchObject(refused);
    expect(await rejection(f().journal.revalue(ctx, input))).toMatchObject(refused);
  });

  it("without unrealised exchange accounts a revaluation is refused clearly; the 20261218 migration adds them under a free code", async () => {
    on("2026-09-10");
    // An organization whose chart had the template's codes before 20261212 got no unrealised accounts:
    // the other organization's IFRS chart, its 4910 and 5910 kept as its own accounts without the roles.
    await usdOverUzs(other.tenantId);
    await t.db.withTenant(other.tenantId, async (tx) => {
      await tx.$executeRaw`UPDATE gl_accounts SET role = NULL WHERE role IN ('fx_unrealised_gain', 'fx_unrealised_loss')`;
    });
    const bank = (await f().accounts.create(other, { name: "Bank", currency: "UZS" })).id;
    const usd = (await f().accounts.create(other, { name: "USD", currency: "USD" })).id;
    await f().openingBalances.set(other, bank, { amount: "2000000000", date: "2026-09-01" });
    await f().transfers.exchange(other, {
      fromAccountId: bank,
      toAccountId: usd,
      amount: "1200000000",
      amountReceived: "100000",
      date: "2026-09-01",
    });
    const input = { date: "2026-09-10", rates: [{ currency: "USD", rate: "12650" }] };
    expect(await rejection(f().journal.revalue(other, input))).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "finance.revaluation_accounts_missing",
    });
    expect(await count("manual_journals", other)).toBe(0);

    const migration = readFileSync(
      new URL(
        "../../../../prisma/migrations/20261218000000_unrealised_fx_accounts_free_code/migration.sql",
        import.meta.url,
      ),
      "utf8",
    );
    await t.db.withTenant(other.tenantId, (tx) => tx.$executeRawUnsafe(migration));
    const accounts = await f().generalLedger.accounts(other);
    const byCode = Object.fromEntries(accounts.map((account) => [account.code, account]));
    // 4910 and 5910 were taken: the next free codes beside them, under the same parents.
    expect(byCode["4911"]).toMatchObject({ type: "income", parentId: byCode["4910"]?.parentId });
    expect(byCode["5911"]).toMatchObject({ type: "expense", parentId: byCode["5910"]?.parentId });
    // Run again: nothing more is added.
    await t.db.withTenant(other.tenantId, (tx) => tx.$executeRawUnsafe(migration));
    expect(await f().generalLedger.accounts(other)).toHaveLength(accounts.length);

    const posted = await f().journal.revalue(other, input);
    expect(posted.lines.map((l) => [l.code, l.baseAmount])).toEqual([
      [expect.any(String), "65000000"],
      ["4911", "-65000000"],
    ]);
  });
});

describe("revaluation of foreign-currency receivables and payables (docs/decisions/0111-books-features.md)", () => {
  it("a USD 500.00 receivable booked at 12,000 revalued at 12,650 is a gain of 325,000.00 UZS; a USD 200.00 payable a loss of 130,000.00; the reversal restores both", async () => {
    const tenant = await t.createTenant();
    const who = await t.contextOf(await t.createUser(tenant.id, "admin"), "journal-debts");
    await usdOverUzs(tenant.id);
    const codes = Object.fromEntries(
      (await f().generalLedger.installChart(who, { template: "nas21" })).map((a) => [a.code, a.id]),
    );
    const bank = (await f().accounts.create(who, { name: "Bank", currency: "UZS" })).id;
    const usd = (await f().accounts.create(who, { name: "USD", currency: "USD" })).id;
    const customer = (await f().counterparties.create(who, { name: "Customer", type: "customer" })).id;
    const supplier = (await f().counterparties.create(who, { name: "Supplier", type: "supplier" })).id;
    on("2026-10-01");
    await f().openingBalances.set(who, bank, { amount: "2000000000", date: "2026-10-01" });
    // 12,000,000.00 UZS for 1,000.00 USD: the rate the debts after it are booked at, 12,000 UZS per USD.
    await f().transfers.exchange(who, {
      fromAccountId: bank,
      toAccountId: usd,
      amount: "1200000000",
      amountReceived: "100000",
      date: "2026-10-01",
    });
    on("2026-10-02");
    // Sold on credit for USD 500.00 (booked 6,000,000.00 UZS), bought on credit for USD 200.00 (2,400,000.00).
    await f().debts.create(who, {
      kind: "receivable",
      counterpartyId: customer,
      amount: "50000",
      currency: "USD",
    });
    await f().debts.create(who, {
      kind: "payable",
      counterpartyId: supplier,
      amount: "20000",
      currency: "USD",
    });

    on("2026-10-31");
    const input = { date: "2026-10-31", rates: [{ currency: "USD", rate: "12650" }], memo: "October" };
    const preview = await f().journal.previewRevaluation(who, input);
    // By hand: 500.00 × 12,650 = 6,325,000.00 UZS against 6,000,000.00 booked: +325,000.00;
    // −200.00 × 12,650 = −2,530,000.00 against −2,400,000.00: −130,000.00; the cash 1,000.00 USD +650,000.00.
    expect(preview.counterparties).toEqual([
      expect.objectContaining({
        code: "4010",
        counterpartyId: customer,
        counterparty: "Customer",
        currency: "USD",
        balance: "50000",
        bookedBase: "600000000",
        rate: "12650",
        revaluedBase: "632500000",
        difference: "32500000",
      }),
      expect.objectContaining({
        code: "6010",
        counterpartyId: supplier,
        balance: "-20000",
        bookedBase: "-240000000",
        revaluedBase: "-253000000",
        difference: "-13000000",
      }),
    ]);
    expect(preview.rows).toEqual([expect.objectContaining({ moneyAccountId: usd, difference: "65000000" })]);
    expect(preview).toMatchObject({ gain: "97500000", loss: "13000000" });

    const lines = async () =>
      t.db.withTenant(
        who.tenantId,
        (tx) => tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM journal_lines`,
      );
    const before = await lines();
    const posted = await f().journal.revalue(who, input);
    expect(posted.total).toBe("110500000");
    expect(
      posted.lines.map((l) => [l.code, l.currency, l.debit, l.credit, l.baseAmount, l.counterpartyId]),
    ).toEqual([
      ["5210", "USD", "0", "0", "65000000", null],
      ["9541", "UZS", "0", "65000000", "-65000000", null],
      ["4010", "USD", "0", "0", "32500000", customer],
      ["9541", "UZS", "0", "32500000", "-32500000", null],
      ["6010", "USD", "0", "0", "-13000000", supplier],
      ["9621", "UZS", "13000000", "0", "13000000", null],
    ]);
    const october = await f().generalLedger.trialBalance(who, {
      startDate: "2026-10-01",
      endDate: "2026-10-31",
    });
    const closing = (code: string) => october.rows.find((row) => row.code === code)?.closing;
    expect(closing("4010")).toBe("632500000");
    expect(closing("6010")).toBe("-253000000");
    expect(closing("9541")).toBe("-97500000");
    expect(closing("9621")).toBe("13000000");
    expect(october.balanced).toBe(true);
    expect((await f().reconcile.reconcile(who)).ok).toBe(true);
    // What is owed in dollars is unchanged: nothing left to revalue at the same rate.
    const again = await f().journal.previewRevaluation(who, input);
    expect(again.counterparties.map((row) => [row.balance, row.difference])).toEqual([
      ["50000", "0"],
      ["-20000", "0"],
    ]);
    expect(codes["4010"]).toBe(posted.lines[2]?.glAccountId);

    // Reversed on the first day of November: the receivable and the payable are back at what they were booked at.
    on("2026-11-01");
    await f().journal.reverse(who, posted.id, { date: "2026-11-01" });
    const november = await f().generalLedger.trialBalance(who, {
      startDate: "2026-11-01",
      endDate: "2026-11-30",
    });
    const after = (code: string) => november.rows.find((row) => row.code === code)?.closing;
    expect(after("4010")).toBe("600000000");
    expect(after("6010")).toBe("-240000000");
    expect(after("9541")).toBe("0");
    expect(after("9621")).toBe("0");
    expect(november.balanced).toBe(true);
    expect((await lines())[0]?.n).toBe((before[0]?.n ?? 0) + 12);
    const reverted = await f().journal.previewRevaluation(who, { date: "2026-11-01", rates: input.rates });
    expect(reverted.counterparties.map((row) => row.difference)).toEqual(["32500000", "-13000000"]);
  });
});
