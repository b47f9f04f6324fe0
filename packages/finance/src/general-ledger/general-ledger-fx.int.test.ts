import { createManualClock, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * Foreign-currency debts settled at another rate than they were booked at, and the set-based backfill
 * (docs/decisions/0103-ledger-sql.md). Base currency UZS; amounts in minor units (tiyin, cents), so a
 * rate of 12,000 UZS per USD is 12,000 tiyin per cent.
 */

const clock = createManualClock(new Date("2026-06-01T09:00:00Z"));
let t: FinanceTestKit;
let ctx: TenantContext;
/** The tenant's UZS bank account and USD account, opened by the first test. */
let bank = "";
let usd = "";

const on = (date: string) => clock.set(new Date(`${date}T09:00:00Z`));

type Line = [date: string, source: string, code: string, currency: string, amount: string, base: string];

/** Every line of the tenant's books dated in [from, to], as [date, source kind, account code, currency, amount, base]. */
const lines = (from: string, to: string) =>
  t.db.withTenant(ctx.tenantId, async (tx) => {
    const rows = await tx.$queryRaw<{ line: Line }[]>`
      SELECT json_build_array(to_char(l.date, 'YYYY-MM-DD'), e.source_kind, a.code, l.currency_code::text,
                              l.amount::text, l.base_amount::text) AS line
        FROM journal_lines l
        JOIN journal_entries e ON e.tenant_id = l.tenant_id AND e.id = l.entry_id
        JOIN gl_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.gl_account_id
       WHERE l.date BETWEEN ${from}::date AND ${to}::date
       ORDER BY e.created_at, e.source_kind, a.code, l.amount`;
    return rows.map((row) => row.line);
  });

/** code → closing balance (base currency) of every account with lines up to `endDate`. */
const closing = async (endDate: string) => {
  const report = await t.services.finance.generalLedger.trialBalance(ctx, {
    startDate: "2026-01-01",
    endDate,
  });
  expect(report.balanced).toBe(true);
  return Object.fromEntries(
    report.rows.filter((row) => row.closing !== "0").map((row) => [row.code, row.closing]),
  );
};

/** Net lines per document, the shape a backfill must reproduce. */
const netLines = () =>
  t.db.withTenant(
    ctx.tenantId,
    async (tx) =>
      tx.$queryRaw<{ line: string }[]>`
      SELECT concat_ws(' ', e.source_kind, e.source_id, l.date, l.gl_account_id, l.money_account_id,
                       l.counterparty_id, l.currency_code, sum(l.amount), sum(l.base_amount), max(l.rate)) AS line
        FROM journal_lines l JOIN journal_entries e ON e.tenant_id = l.tenant_id AND e.id = l.entry_id
       GROUP BY e.source_kind, e.source_id, l.date, l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code
      HAVING sum(l.amount) <> 0 OR sum(l.base_amount) <> 0
       ORDER BY 1`,
  );

const backfill = () =>
  t.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx.$queryRaw<{ n: string }[]>`SELECT gl_backfill(${ctx.tenantId}::uuid)::text AS n`;
    return Number(row?.n);
  });

beforeAll(async () => {
  t = await createFinanceTestKit({ clock });
  const tenant = await t.createTenant();
  ctx = await t.contextOf(await t.createUser(tenant.id, "admin"), "general-ledger-fx");
  await t.db.withTenant(tenant.id, async (tx) => {
    await tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } });
    await tx.tenantSetting.create({ data: { tenantId: tenant.id, baseCurrencyCode: "UZS" } });
  });
});
afterAll(async () => t?.close());

describe("a USD debt settled at other rates than it was booked at", () => {
  it("realises the difference in each settlement's entry; the receivable ends at zero; a reversal restores exactly", async () => {
    const f = t.services.finance;
    bank = (await f.accounts.create(ctx, { name: "Bank", currency: "UZS" })).id;
    usd = (await f.accounts.create(ctx, { name: "USD account", currency: "USD" })).id;
    const customer = await f.counterparties.create(ctx, { name: "Customer", type: "customer" });
    /** Buys 100.00 USD at `rate` UZS per USD: the tenant's own rate from that day. */
    const buyUsd = (date: string, rate: number) =>
      f.transfers.exchange(ctx, {
        fromAccountId: bank,
        toAccountId: usd,
        amount: String(rate * 10_000),
        amountReceived: "10000",
        date,
      });

    on("2026-06-01");
    await f.openingBalances.set(ctx, bank, { amount: "5000000000", date: "2026-06-01" });
    await buyUsd("2026-06-01", 12_000);
    on("2026-06-02");
    // 1,000.00 USD sold on credit, booked at 12,000: 1,200,000,000 tiyin.
    const debt = await f.debts.create(ctx, {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "100000",
      currency: "USD",
    });
    on("2026-06-10");
    await buyUsd("2026-06-10", 12_500);
    const first = await f.debts.settle(ctx, debt.id, { amount: "50000", accountId: usd, date: "2026-06-10" });
    on("2026-06-20");
    await buyUsd("2026-06-20", 11_800);
    const beforeSecond = await closing("2026-06-30");
    const second = await f.debts.settle(ctx, debt.id, {
      amount: "50000",
      accountId: usd,
      date: "2026-06-20",
    });
    expect(second.debt.status).toBe("settled");

    // By hand (Dr positive, Cr negative; 5110 bank, 5210 USD account, 8720 opening equity, 4010
    // receivable, 9030 revenue, 9540 FX gains, 9620 FX losses):
    //  opening balance     Dr 5110 5,000,000,000 / Cr 8720
    //  each 100.00 USD bought at rate R: Dr 5210 R × 10,000 / Cr 5110 (at cost: no difference)
    //  the debt, 06-02     Dr 4010 100,000.00 cents × 12,000 = 1,200,000,000 / Cr 9030
    //  1st half, 06-10     payment: Dr 5210 50,000 × 12,500 = 625,000,000 / Cr 9030; settlement: Dr 9030
    //                      625,000,000 / Cr 4010 50,000 × 12,000 = 600,000,000 / Cr 9540 25,000,000 (gain)
    //  2nd half, 06-20     payment: Dr 5210 50,000 × 11,800 = 590,000,000 / Cr 9030; settlement: Dr 9030
    //                      590,000,000 / Cr 4010 600,000,000 / Dr 9620 10,000,000 (loss)
    expect(await lines("2026-06-01", "2026-06-30")).toEqual([
      ["2026-06-01", "transaction", "5110", "UZS", "5000000000", "5000000000"],
      ["2026-06-01", "transaction", "8720", "UZS", "-5000000000", "-5000000000"],
      ["2026-06-01", "transaction", "5110", "UZS", "-120000000", "-120000000"],
      ["2026-06-01", "transaction", "5210", "USD", "10000", "120000000"],
      ["2026-06-02", "debt", "4010", "USD", "100000", "1200000000"],
      ["2026-06-02", "debt", "9030", "USD", "-100000", "-1200000000"],
      ["2026-06-10", "transaction", "5110", "UZS", "-125000000", "-125000000"],
      ["2026-06-10", "transaction", "5210", "USD", "10000", "125000000"],
      ["2026-06-10", "settlement", "4010", "USD", "-50000", "-600000000"],
      ["2026-06-10", "settlement", "9030", "USD", "50000", "625000000"],
      ["2026-06-10", "settlement", "9540", "UZS", "-25000000", "-25000000"],
      ["2026-06-10", "transaction", "5210", "USD", "50000", "625000000"],
      ["2026-06-10", "transaction", "9030", "USD", "-50000", "-625000000"],
      ["2026-06-20", "transaction", "5110", "UZS", "-118000000", "-118000000"],
      ["2026-06-20", "transaction", "5210", "USD", "10000", "118000000"],
      ["2026-06-20", "settlement", "4010", "USD", "-50000", "-600000000"],
      ["2026-06-20", "settlement", "9030", "USD", "50000", "590000000"],
      ["2026-06-20", "settlement", "9620", "UZS", "10000000", "10000000"],
      ["2026-06-20", "transaction", "5210", "USD", "50000", "590000000"],
      ["2026-06-20", "transaction", "9030", "USD", "-50000", "-590000000"],
    ]);
    // The receivable is gone in the base currency too; revenue is the debt's 1,200,000,000 once; the
    // USD account holds 1,300.00 USD at what it cost: 363,000,000 bought + 1,215,000,000 received.
    expect(await closing("2026-06-30")).toEqual({
      "5110": "4637000000",
      "5210": "1578000000",
      "8720": "-5000000000",
      "9030": "-1200000000",
      "9540": "-25000000",
      "9620": "10000000",
    });
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);

    // Reversing the second settlement posts the exact opposite of its lines and of its payment's:
    // every balance is what it was before it.
    on("2026-06-25");
    const reversed = await f.debts.reverseSettlement(ctx, debt.id, second.settlement.id);
    expect(reversed.outstanding).toBe("50000");
    expect((await lines("2026-06-20", "2026-06-20")).slice(-5)).toEqual([
      ["2026-06-20", "settlement", "4010", "USD", "50000", "600000000"],
      ["2026-06-20", "settlement", "9030", "USD", "-50000", "-590000000"],
      ["2026-06-20", "settlement", "9620", "UZS", "-10000000", "-10000000"],
      ["2026-06-20", "transaction", "5210", "USD", "-50000", "-590000000"],
      ["2026-06-20", "transaction", "9030", "USD", "50000", "590000000"],
    ]);
    expect(await closing("2026-06-30")).toEqual(beforeSecond);
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);

    // Writing off what remains takes it off at the value it was booked at: the receivable is zero.
    on("2026-06-28");
    await f.debts.writeOff(ctx, debt.id, { reason: "The customer closed" });
    expect(await lines("2026-06-28", "2026-06-28")).toEqual([
      ["2026-06-28", "debt", "4010", "USD", "-50000", "-600000000"],
      ["2026-06-28", "debt", "9430", "USD", "50000", "600000000"],
    ]);
    expect((await closing("2026-06-30"))["4010"]).toBeUndefined();
    expect(first.debt.outstanding).toBe("50000");
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
  });

  it("a payable settled dearer than booked realises a loss on the settlement", async () => {
    const f = t.services.finance;
    const supplier = await f.counterparties.create(ctx, { name: "Supplier", type: "supplier" });
    on("2026-07-01");
    // 10.00 USD owed, booked at the last rate, 11,800: 11,800,000 tiyin.
    const debt = await f.debts.create(ctx, {
      kind: "payable",
      counterpartyId: supplier.id,
      amount: "1000",
      currency: "USD",
    });
    on("2026-07-02");
    await f.transfers.exchange(ctx, {
      fromAccountId: bank,
      toAccountId: usd,
      amount: "122000000",
      amountReceived: "10000",
      date: "2026-07-02",
    });
    await f.debts.settle(ctx, debt.id, { amount: "1000", accountId: usd, date: "2026-07-02" });
    // Expense: Dr 9420 / Cr 5210 1,000 × 12,200 = 12,200,000; settlement: Dr 6010 11,800,000 (as booked)
    // / Cr 9420 12,200,000 / Dr 9620 400,000.
    expect((await lines("2026-07-02", "2026-07-02")).filter(([, source]) => source === "settlement")).toEqual(
      [
        ["2026-07-02", "settlement", "6010", "USD", "1000", "11800000"],
        ["2026-07-02", "settlement", "9420", "USD", "-1000", "-12200000"],
        ["2026-07-02", "settlement", "9620", "UZS", "400000", "400000"],
      ],
    );
    expect((await closing("2026-07-31"))["6010"]).toBeUndefined();
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
  });
});

describe("the set-based backfill", () => {
  it("posts the same lines as the live postings, and nothing on a second run", async () => {
    const f = t.services.finance;
    const desk = await f.accounts.create(ctx, { name: "Desk", currency: "UZS" });
    on("2026-07-05");
    await f.payments.create(ctx, { accountId: bank, amount: "7000000", date: "2026-07-05" });
    await f.expenses.create(ctx, { accountId: bank, amount: "3000000", date: "2026-07-05" });
    const moved = await f.transfers.transfer(ctx, {
      fromAccountId: bank,
      toAccountId: desk.id,
      amount: "1000000",
      date: "2026-07-05",
    });
    await f.transfers.reverseTransfer(ctx, moved.id, { reason: "Wrong account", date: "2026-07-05" });
    await f.transfers.transfer(ctx, {
      fromAccountId: bank,
      toAccountId: desk.id,
      amount: "2000000",
      date: "2026-07-06",
    });

    // 100.00 USD sold at 12,100 after buying at 12,200: the set-based path's realised loss.
    await f.transfers.exchange(ctx, {
      fromAccountId: usd,
      toAccountId: bank,
      amount: "10000",
      amountReceived: "121000000",
      date: "2026-07-06",
    });
    expect((await lines("2026-07-06", "2026-07-06")).filter(([, , code]) => code === "9620")).toEqual([
      ["2026-07-06", "transaction", "9620", "UZS", "1000000", "1000000"],
    ]);

    const live = await netLines();
    const before = await closing("2026-12-31");
    expect(await backfill()).toBe(0);
    await t.db.withTenant(ctx.tenantId, (tx) => tx.$executeRaw`DELETE FROM journal_entries`);
    const posted = await backfill();
    expect(posted).toBeGreaterThan(30);
    expect(await netLines()).toEqual(live);
    expect(await closing("2026-12-31")).toEqual(before);
    expect(await backfill()).toBe(0);
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
  });
});

describe("corrections of days in a closed period go to the first open day (docs/decisions/0111-books-features.md)", () => {
  const deleteSettlementEntries = () =>
    t.db.withTenant(
      ctx.tenantId,
      (tx) => tx.$executeRaw`DELETE FROM journal_entries WHERE source_kind = 'settlement'`,
    );
  const settlementEntries = () =>
    t.db.withTenant(
      ctx.tenantId,
      (tx) =>
        tx.$queryRaw<{ date: string; memo: string; written: Date }[]>`
        SELECT to_char(date, 'YYYY-MM-DD') AS date, memo, created_at AS written
          FROM journal_entries WHERE source_kind = 'settlement' ORDER BY date, memo`,
    );
  const CORRECTION =
    /^Correction of 2026-0[67]-\d\d, in a closed period \(books closed through 2026-07-31\)$/;

  it("the corrections a migration wrote into a closed period are taken back and posted on the first open day; a backfill posts them there itself", async () => {
    const f = t.services.finance;
    const before = await closing("2026-12-31");
    // The June settlements' lines gone, as if the books had been closed without them: what was reported.
    await deleteSettlementEntries();
    const reported = await closing("2026-07-31");
    expect(reported).not.toEqual(before);

    // A backfill before the books are closed posts them on their own days, like 20261215's did.
    expect(await backfill()).toBeGreaterThan(0);
    const written = await settlementEntries();
    expect(written.every((entry) => entry.date < "2026-08-01" && entry.memo === "")).toBe(true);
    expect(await closing("2026-07-31")).toEqual(before);
    on("2026-08-15");
    await f.periods.set(ctx, { lockDate: "2026-07-31" });

    // 20261221's step: the entries written at that moment and now in the closed period are moved.
    const [moved] = await t.db.withTenant(
      ctx.tenantId,
      (tx) =>
        tx.$queryRaw<{ n: string }[]>`
        SELECT gl_repost_closed_corrections(${ctx.tenantId}::uuid, ${written[0]?.written}::timestamptz)::text AS n`,
    );
    expect(Number(moved?.n)).toBe(written.length);
    const after = await settlementEntries();
    expect(after.length).toBeGreaterThan(0);
    for (const entry of after) {
      expect(entry.date).toBe("2026-08-01");
      expect(entry.memo).toMatch(CORRECTION);
    }
    // The closed period is as it was reported; from the first open day on, the books are whole again.
    expect(await closing("2026-07-31")).toEqual(reported);
    expect(await closing("2026-08-01")).toEqual(before);
    expect(await backfill()).toBe(0);

    // Once the period is closed, a backfill that finds the lines missing posts them on the first open day.
    await deleteSettlementEntries();
    expect(await closing("2026-08-01")).toEqual(reported);
    expect(await backfill()).toBeGreaterThan(0);
    const again = await settlementEntries();
    expect(again.map((entry) => entry.date)).toEqual(after.map((entry) => entry.date));
    for (const entry of again) expect(entry.memo).toMatch(CORRECTION);
    expect(await closing("2026-07-31")).toEqual(reported);
    expect(await closing("2026-12-31")).toEqual(before);
    expect(await backfill()).toBe(0);
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
    // Without a lock date the function moves nothing.
    await f.periods.set(ctx, { lockDate: null });
    const [none] = await t.db.withTenant(
      ctx.tenantId,
      (tx) =>
        tx.$queryRaw<{ n: string }[]>`
        SELECT gl_repost_closed_corrections(${ctx.tenantId}::uuid, now())::text AS n`,
    );
    expect(none?.n).toBe("0");
  });
});
