import { createManualClock, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * The general ledger under every document (docs/decisions/0093-general-ledger.md): a month of a
 * small firm posted through the services, its trial balance computed by hand below; a refused
 * posting writes no line; a reversal and a deletion restore every balance; the chart's rules.
 * Base currency UZS, amounts in minor units (tiyin, cents).
 */

const clock = createManualClock(new Date("2026-03-01T09:00:00Z"));
let t: FinanceTestKit;
let ctx: TenantContext;

const on = (date: string) => clock.set(new Date(`${date}T09:00:00Z`));

const lineCount = () =>
  t.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM journal_lines`;
    return row?.n ?? 0;
  });

/** code → [debit, credit, closing] of the period, base-currency minor units. */
const trial = async (startDate: string, endDate: string) => {
  const report = await t.services.finance.generalLedger.trialBalance(ctx, { startDate, endDate });
  return {
    report,
    rows: Object.fromEntries(report.rows.map((row) => [row.code, [row.debit, row.credit, row.closing]])),
  };
};

beforeAll(async () => {
  t = await createFinanceTestKit({ clock });
  const tenant = await t.createTenant();
  ctx = await t.contextOf(await t.createUser(tenant.id, "admin"), "general-ledger");
  await t.db.withTenant(tenant.id, async (tx) => {
    await tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } });
    await tx.tenantSetting.upsert({
      where: { tenantId: tenant.id },
      create: { tenantId: tenant.id, baseCurrencyCode: "UZS" },
      update: { baseCurrencyCode: "UZS" },
    });
  });
});
afterAll(async () => t?.close());

describe("a month of a small firm", () => {
  it("posts balanced lines for every document; the trial balance is the one computed by hand", async () => {
    const f = t.services.finance;
    // The chart: NAS 21, installed before anything is posted.
    const chart = await f.generalLedger.installChart(ctx, { template: "nas21" });
    const byCode = Object.fromEntries(chart.map((account) => [account.code, account]));
    expect(byCode["5110"]?.role).toBe("money");
    expect(byCode["9540"]?.nameUz).toBe("Valyuta kurslari farqidan daromadlar");

    const bank = await f.accounts.create(ctx, { name: "Bank", currency: "UZS" });
    const usd = await f.accounts.create(ctx, { name: "USD cash", currency: "USD" });
    const desk = await f.accounts.create(ctx, { name: "Cash desk", currency: "UZS" });
    // The cash desk is kept on 5010 (cash on hand), not on the default settlement account 5110.
    await f.generalLedger.setMapping(ctx, {
      kind: "moneyAccount",
      id: desk.id,
      glAccountId: byCode["5010"]?.id ?? "",
    });
    const supplier = await f.counterparties.create(ctx, { name: "Supplier", type: "supplier" });
    const customer = await f.counterparties.create(ctx, { name: "Customer", type: "customer" });

    on("2026-03-01");
    await f.openingBalances.set(ctx, bank.id, { amount: "1000000000", date: "2026-03-01" });
    on("2026-03-02");
    await f.transfers.exchange(ctx, {
      fromAccountId: bank.id,
      toAccountId: usd.id,
      amount: "253000000",
      amountReceived: "20000",
      date: "2026-03-02",
    });
    on("2026-03-05");
    await f.payments.create(ctx, { accountId: bank.id, amount: "500000000", date: "2026-03-05" });
    on("2026-03-10");
    await f.expenses.create(ctx, { accountId: bank.id, amount: "120000000", date: "2026-03-10" });
    on("2026-03-12");
    const payable = await f.debts.create(ctx, {
      kind: "payable",
      counterpartyId: supplier.id,
      amount: "300000000",
      currency: "UZS",
    });
    on("2026-03-15");
    const receivable = await f.debts.create(ctx, {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "200000000",
      currency: "UZS",
    });
    on("2026-03-18");
    await f.debts.settle(ctx, payable.id, { amount: "100000000", accountId: bank.id, date: "2026-03-18" });
    on("2026-03-20");
    await f.debts.settle(ctx, receivable.id, { amount: "150000000", accountId: bank.id, date: "2026-03-20" });
    on("2026-03-22");
    await f.transfers.exchange(ctx, {
      fromAccountId: usd.id,
      toAccountId: bank.id,
      amount: "10000",
      amountReceived: "130000000",
      date: "2026-03-22",
    });
    on("2026-03-25");
    await f.debts.writeOff(ctx, receivable.id, { reason: "The customer closed" });
    on("2026-03-28");
    const transfer = await f.transfers.transfer(ctx, {
      fromAccountId: bank.id,
      toAccountId: desk.id,
      amount: "20000000",
      date: "2026-03-28",
    });
    on("2026-03-30");
    await f.transfers.reverseTransfer(ctx, transfer.id, { reason: "Wrong account", date: "2026-03-30" });

    // By hand. Debits (Dr) and credits (Cr) per account, base currency UZS, minor units:
    //  5110 settlement account  Dr 1,000,000,000 opening + 500,000,000 sale + 150,000,000 settled by the
    //                           customer + 130,000,000 from the USD sale + 20,000,000 transfer reversed
    //                           = 1,800,000,000; Cr 253,000,000 USD bought + 120,000,000 expense
    //                           + 100,000,000 paid to the supplier + 20,000,000 transfer = 493,000,000
    //  5010 cash desk           Dr 20,000,000 transfer; Cr 20,000,000 its reversal
    //  5210 USD account         Dr 253,000,000 (200.00 USD at cost, 12,650/USD); Cr 100.00 USD at that
    //                           rate = 126,500,000
    //  4010 receivable          Dr 200,000,000 debt; Cr 150,000,000 settled + 50,000,000 written off
    //  6010 payable             Dr 100,000,000 settled; Cr 300,000,000 debt
    //  8720 opening equity      Cr 1,000,000,000
    //  9030 revenue             Dr 150,000,000 (the settlement's payment is the receivable, not new
    //                           revenue); Cr 500,000,000 sale + 200,000,000 sold on credit + 150,000,000
    //  9420 administrative      Dr 120,000,000 + 300,000,000 bought on credit + 100,000,000 the
    //                           settlement's expense; Cr 100,000,000 (that expense is the payable)
    //  9430 other operating     Dr 50,000,000 written off
    //  9540 FX gains            Cr 130,000,000 received − 126,500,000 carried = 3,500,000
    const { report, rows } = await trial("2026-03-01", "2026-03-31");
    expect(rows).toEqual({
      "4010": ["200000000", "200000000", "0"],
      "5010": ["20000000", "20000000", "0"],
      "5110": ["1800000000", "493000000", "1307000000"],
      "5210": ["253000000", "126500000", "126500000"],
      "6010": ["100000000", "300000000", "-200000000"],
      "8720": ["0", "1000000000", "-1000000000"],
      "9030": ["150000000", "850000000", "-700000000"],
      "9420": ["520000000", "100000000", "420000000"],
      "9430": ["50000000", "0", "50000000"],
      "9540": ["0", "3500000", "-3500000"],
    });
    expect(report.totals).toEqual({ opening: "0", debit: "3093000000", credit: "3093000000", closing: "0" });
    expect(report).toMatchObject({ balanced: true, baseCurrency: "UZS" });

    // The next month opens with March's closing balances and has no turnover yet.
    const april = await trial("2026-04-01", "2026-04-30");
    expect(april.rows["5110"]).toEqual(["0", "0", "1307000000"]);
    expect(april.report.totals.opening).toBe("0");

    // Cash and ledger agree per money account, in its own currency.
    expect((await f.accounts.get(ctx, bank.id)).balance).toBe("1307000000");
    expect((await f.accounts.get(ctx, usd.id)).balance).toBe("10000");
    const reconcile = await f.reconcile.reconcile(ctx);
    expect(reconcile.ledger).toEqual({
      debitsMinusCredits: "0",
      unbalancedEntries: [],
      accountDifferences: [],
    });
    expect(reconcile.ok).toBe(true);
  });

  it("a refused posting writes no line; a deleted or edited payment posts the difference", async () => {
    const f = t.services.finance;
    on("2026-04-02");
    const strict = await f.accounts.create(ctx, { name: "Strict", currency: "UZS" });
    const before = await lineCount();
    await expect(
      f.expenses.create(ctx, { accountId: strict.id, amount: "1", date: "2026-04-02" }),
    ).rejects.toMatchObject({ reason: "finance.insufficient_balance" });
    expect(await lineCount()).toBe(before);

    const payment = await f.payments.create(ctx, {
      accountId: strict.id,
      amount: "5000",
      date: "2026-04-02",
    });
    expect(await lineCount()).toBe(before + 2);
    await f.payments.update(ctx, payment.id, { amount: "7000" });
    // Revenue closes April at March's 700,000,000 plus this payment (credit balances are negative).
    expect((await trial("2026-04-01", "2026-04-30")).rows["9030"]).toEqual(["0", "7000", "-700007000"]);
    await f.payments.delete(ctx, payment.id);
    const april = await trial("2026-04-01", "2026-04-30");
    // Nothing was changed in place: the lines of the deletion are the opposite of the ones posted.
    expect(april.rows["9030"]).toEqual(["7000", "7000", "-700000000"]);
    expect(april.report.balanced).toBe(true);
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
  });

  it("the migration's backfill gives the same lines as the postings", async () => {
    const before = await trial("2026-01-01", "2026-12-31");
    await t.db.withTenant(ctx.tenantId, async (tx) => {
      await tx.$executeRaw`DELETE FROM journal_entries`;
      // The statements of migration 20261210000000_general_ledger, for this tenant's documents.
      await tx.$queryRaw`SELECT gl_sync(tenant_id, 'transaction', id)::text FROM transactions
                          ORDER BY (reversal_of_id IS NOT NULL), created_at, id`;
      await tx.$queryRaw`SELECT gl_sync(tenant_id, 'debt', id)::text FROM debts ORDER BY created_at, id`;
      await tx.$queryRaw`SELECT gl_sync(tenant_id, 'settlement', id)::text FROM debt_settlements ORDER BY created_at, id`;
    });
    const after = await trial("2026-01-01", "2026-12-31");
    // Every balance is the same. The turnover differs by the payment deleted in April: live, it
    // posted its lines and then their opposite; the backfill finds no payment and posts neither.
    const closing = (rows: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(rows).map(([code, [, , balance]]) => [code, balance]));
    expect(closing(after.rows)).toEqual(closing(before.rows));
    expect(after.rows["5110"]).toEqual(["1800000000", "493000000", "1307000000"]);
    expect(after.report.balanced).toBe(true);
    expect((await t.services.finance.reconcile.reconcile(ctx)).ok).toBe(true);
  });
});

describe("the chart of accounts", () => {
  it("refuses to delete an account with lines, lets it be deactivated, keeps only leaves postable", async () => {
    const gl = t.services.finance.generalLedger;
    const chart = await gl.accounts(ctx);
    const byCode = Object.fromEntries(chart.map((account) => [account.code, account]));
    const cashDesk = byCode["5010"];
    if (!cashDesk) throw new Error("5010 missing");
    expect(cashDesk.hasEntries).toBe(true);
    await expect(gl.deleteAccount(ctx, cashDesk.id)).rejects.toMatchObject({
      reason: "finance.gl_account_has_entries",
    });
    await expect(gl.deleteAccount(ctx, byCode["5110"]?.id ?? "")).rejects.toMatchObject({
      reason: "finance.gl_account_has_entries",
    });
    await expect(gl.updateAccount(ctx, byCode["5110"]?.id ?? "", { isActive: false })).rejects.toMatchObject({
      reason: "finance.gl_account_has_role",
    });
    expect((await gl.updateAccount(ctx, cashDesk.id, { isActive: false })).isActive).toBe(false);
    // A sub-account under an account with lines is refused; under a group it is taken, and deleted.
    await expect(
      gl.createAccount(ctx, {
        code: "5011",
        nameEn: "Petty",
        nameRu: "Мелкая",
        nameUz: "Mayda",
        type: "asset",
        parentId: cashDesk.id,
      }),
    ).rejects.toMatchObject({ reason: "finance.gl_parent_has_entries" });
    const petty = await gl.createAccount(ctx, {
      code: "5030",
      nameEn: "Petty cash",
      nameRu: "Мелкая касса",
      nameUz: "Mayda kassa",
      type: "asset",
      parentId: byCode["5000"]?.id ?? null,
    });
    await expect(
      gl.createAccount(ctx, { code: "5030", nameEn: "x", nameRu: "x", nameUz: "x", type: "asset" }),
    ).rejects.toMatchObject({ reason: "finance.gl_code_taken" });
    await expect(
      gl.setMapping(ctx, { kind: "paymentCategory", id: petty.id, glAccountId: petty.id }),
    ).rejects.toMatchObject({ reason: "finance.unknown_mapped_row" });
    await gl.deleteAccount(ctx, petty.id);
    // Replacing the chart once something is posted is refused.
    await expect(gl.installChart(ctx, { template: "ifrs" })).rejects.toMatchObject({
      reason: "finance.gl_chart_in_use",
    });
  });

  it("a new organization gets the generic chart when it asks for it, before posting", async () => {
    const tenant = await t.createTenant();
    const other = await t.contextOf(await t.createUser(tenant.id, "admin"), "ifrs");
    const chart = await t.services.finance.generalLedger.installChart(other, { template: "ifrs" });
    expect(chart.find((account) => account.role === "money")?.code).toBe("1110");
    const account = await t.services.finance.accounts.create(other, { name: "Main", currency: "UZS" });
    on("2026-05-01");
    await t.services.finance.payments.create(other, {
      accountId: account.id,
      amount: "100",
      date: "2026-05-01",
    });
    const { rows } = await t.services.finance.generalLedger.trialBalance(other, {
      startDate: "2026-05-01",
      endDate: "2026-05-31",
    });
    expect(rows.map((row) => [row.code, row.closing])).toEqual([
      ["1110", "100"],
      ["4100", "-100"],
    ]);
  });

  it("lists where each money account and category posts: its mapping, else the chart's default for its role", async () => {
    const tenant = await t.createTenant();
    const own = await t.contextOf(await t.createUser(tenant.id, "admin"), "mappings");
    const f = t.services.finance;
    const main = await f.accounts.create(own, { name: "Main", currency: "UZS" });
    const sales = await f.paymentCategories.create(own, { name: "Sales" });
    const rent = await f.expenseCategories.create(own, { name: "Rent" });
    // No chart yet: nothing to post to, and reading installs none.
    expect((await f.generalLedger.mappings(own)).map((row) => [row.kind, row.name, row.postsTo])).toEqual([
      ["moneyAccount", "Main", null],
      ["paymentCategory", "Sales", null],
      ["expenseCategory", "Rent", null],
    ]);
    expect(await f.generalLedger.accounts(own)).toEqual([]);

    const chart = await f.generalLedger.installChart(own, { template: "nas21" });
    const code = (id: string | null) => chart.find((account) => account.id === id)?.code;
    const byCode = Object.fromEntries(chart.map((account) => [account.code, account.id]));
    await f.generalLedger.setMapping(own, {
      kind: "expenseCategory",
      id: rent.id,
      glAccountId: byCode["9410"] ?? "",
    });
    const rows = await f.generalLedger.mappings(own);
    expect(
      rows.map((row) => [
        row.name,
        row.currency,
        code(row.glAccountId),
        code(row.defaultGlAccountId),
        code(row.postsTo),
      ]),
    ).toEqual([
      ["Main", "UZS", undefined, "5110", "5110"],
      ["Sales", null, undefined, "9030", "9030"],
      ["Rent", null, "9410", "9420", "9410"],
    ]);
    expect(rows.map((row) => row.id)).toEqual([main.id, sales.id, rent.id]);
    // Another organization's rows are not listed.
    expect((await f.generalLedger.mappings(ctx)).some((row) => row.id === main.id)).toBe(false);
  });

  it("a reversed transfer keeps its date: the pair stays even; its comment may still change", async () => {
    const f = t.services.finance;
    on("2026-04-03");
    const from = await f.accounts.create(ctx, { name: "From", currency: "UZS" });
    const to = await f.accounts.create(ctx, { name: "To", currency: "UZS" });
    await f.payments.create(ctx, { accountId: from.id, amount: "900", date: "2026-04-03" });
    const moved = await f.transfers.transfer(ctx, {
      fromAccountId: from.id,
      toAccountId: to.id,
      amount: "300",
      date: "2026-04-03",
    });
    await f.transfers.reverseTransfer(ctx, moved.id, { reason: "Twice", date: "2026-04-03" });
    const before = await lineCount();
    await expect(f.transfers.updateTransfer(ctx, moved.id, { date: "2026-04-01" })).rejects.toMatchObject({
      reason: "finance.already_reversed",
    });
    expect(await lineCount()).toBe(before);
    const commented = await f.transfers.updateTransfer(ctx, moved.id, { comment: "Posted twice by mistake" });
    expect(commented.comment).toBe("Posted twice by mistake");
    expect((await f.reconcile.reconcile(ctx)).ok).toBe(true);
  });
});

describe("a closed day stays closed", () => {
  it("settling a debt later does not re-price its creation with an exchange recorded after it the same day", async () => {
    const tenant = await t.createTenant();
    const own = await t.contextOf(await t.createUser(tenant.id, "admin"), "closed-day");
    await t.db.withTenant(tenant.id, async (tx) => {
      await tx.tenantCurrency.create({ data: { tenantId: tenant.id, currencyCode: "USD" } });
      await tx.tenantSetting.create({ data: { tenantId: tenant.id, baseCurrencyCode: "UZS" } });
    });
    const f = t.services.finance;
    on("2026-05-04");
    const bank = await f.accounts.create(own, { name: "Bank", currency: "UZS" });
    const usd = await f.accounts.create(own, { name: "USD", currency: "USD" });
    await f.openingBalances.set(own, bank.id, { amount: "500000000", date: "2026-05-04" });
    const customer = await f.counterparties.create(own, { name: "Customer", type: "customer" });
    const debt = await f.debts.create(own, {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "10000",
      currency: "USD",
    });
    // The day's first exchange comes after the debt: the debt was valued without it.
    await f.transfers.exchange(own, {
      fromAccountId: bank.id,
      toAccountId: usd.id,
      amount: "125000000",
      amountReceived: "10000",
      date: "2026-05-04",
    });
    on("2026-05-10");
    await f.periods.set(own, { lockDate: "2026-05-04" });
    const closedEntries = () =>
      t.db.withTenant(tenant.id, async (tx) => {
        const [row] = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM journal_entries WHERE date <= '2026-05-04'::date`;
        return row?.n ?? 0;
      });
    const before = await closedEntries();
    await f.debts.settle(own, debt.id, { amount: "10000", accountId: usd.id, date: "2026-05-10" });
    expect(await closedEntries()).toBe(before);
    expect((await f.reconcile.reconcile(own)).ok).toBe(true);
  });
});
