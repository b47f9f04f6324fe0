import { createManualClock, type TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyRows, minorOf, workbookOf } from "../exports/xlsx-test-reading";
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
/** The month's documents, for the reports' tests (ledger-reports.int.test.ts reads the same month). */
const month: Record<string, string> = {};

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
    const sale = await f.payments.create(ctx, {
      accountId: bank.id,
      amount: "500000000",
      date: "2026-03-05",
    });
    on("2026-03-10");
    const bought = await f.expenses.create(ctx, {
      accountId: bank.id,
      amount: "120000000",
      date: "2026-03-10",
    });
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

    Object.assign(month, {
      bank: bank.id,
      sale: sale.id,
      bought: bought.id,
      payable: payable.id,
      receivable: receivable.id,
      transfer: transfer.id,
    });

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
      // The balance sheet over every line (docs/decisions/0101-books-reports.md): 5110 + 5210 against
      // 6010, 8720 and the month's income less expenses (703,500,000 − 470,000,000).
      balanceSheet: {
        assets: "1433500000",
        liabilities: "200000000",
        equity: "1000000000",
        retainedEarnings: "233500000",
        difference: "0",
      },
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

describe("the books' reports on that month (docs/decisions/0101-books-reports.md)", () => {
  const codeOf = (rows: Array<{ code: string; amount: string }>) =>
    Object.fromEntries(rows.map((row) => [row.code, row.amount]));

  it("general ledger of the settlement account and of the receivable, by hand, with their documents", async () => {
    const gl = t.services.finance.generalLedger;
    const chart = Object.fromEntries((await gl.accounts(ctx)).map((account) => [account.code, account.id]));
    const bank = await gl.generalLedger(ctx, chart["5110"] ?? "", {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
    });
    // By hand, 5110 in March: each document's line and the balance after it.
    expect(
      bank.lines.map((line) => [line.date, line.debit, line.credit, line.balance, line.document.kind]),
    ).toEqual([
      ["2026-03-01", "1000000000", "0", "1000000000", "opening_balance"],
      ["2026-03-02", "0", "253000000", "747000000", "exchange"],
      ["2026-03-05", "500000000", "0", "1247000000", "payment"],
      ["2026-03-10", "0", "120000000", "1127000000", "expense"],
      ["2026-03-18", "0", "100000000", "1027000000", "expense"],
      ["2026-03-20", "150000000", "0", "1177000000", "payment"],
      ["2026-03-22", "130000000", "0", "1307000000", "exchange"],
      ["2026-03-28", "0", "20000000", "1287000000", "transfer"],
      ["2026-03-30", "20000000", "0", "1307000000", "transfer"],
    ]);
    expect(bank).toMatchObject({
      opening: "0",
      debit: "1800000000",
      credit: "493000000",
      closing: "1307000000",
      total: 9,
      baseCurrency: "UZS",
      account: { code: "5110", nameRu: "Расчётный счёт", isGroup: false, depth: 1 },
    });
    expect(bank.lines[2]?.document.id).toBe(month.sale);
    expect(bank.lines[3]?.document.id).toBe(month.bought);
    expect(bank.lines[7]?.document.id).toBe(month.transfer);

    // 4010: the credit sale, the customer's settlement (its document: the debt), the write-off.
    const receivable = await gl.generalLedger(ctx, chart["4010"] ?? "", {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
    });
    expect(
      receivable.lines.map((line) => [
        line.date,
        line.debit,
        line.credit,
        line.balance,
        line.document,
        line.counterpartyName,
      ]),
    ).toEqual([
      ["2026-03-15", "200000000", "0", "200000000", { kind: "debt", id: month.receivable }, "Customer"],
      ["2026-03-20", "0", "150000000", "50000000", { kind: "settlement", id: month.receivable }, "Customer"],
      ["2026-03-25", "0", "50000000", "0", { kind: "debt", id: month.receivable }, "Customer"],
    ]);
    expect(receivable).toMatchObject({ opening: "0", debit: "200000000", credit: "200000000", closing: "0" });

    // A page from the middle keeps the balances of the whole period; April opens with March's close.
    const page = await gl.generalLedger(ctx, chart["5110"] ?? "", {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
      limit: 3,
      offset: 3,
    });
    expect(page.lines.map((line) => line.balance)).toEqual(["1127000000", "1027000000", "1177000000"]);
    expect(page).toMatchObject({ total: 9, debit: "1800000000", closing: "1307000000" });
    // A group's ledger is its leaves': 5000, 5100 and 5200 are three groups; 5100's is 5110's.
    const group = await gl.generalLedger(ctx, chart["5100"] ?? "", {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
    });
    expect(group).toMatchObject({ account: { isGroup: true }, closing: "1307000000", total: 9 });
  });

  it("trial balance tree: each group is the sum of its leaves", async () => {
    const { tree } = await t.services.finance.generalLedger.trialBalance(ctx, {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
    });
    const byCode = Object.fromEntries(
      tree.map((row) => [row.code, [row.isGroup, row.depth, row.debit, row.credit, row.closing]]),
    );
    expect(byCode["9400"]).toEqual([true, 0, "570000000", "100000000", "470000000"]);
    expect(byCode["9420"]).toEqual([false, 1, "520000000", "100000000", "420000000"]);
    expect(byCode["5100"]).toEqual([true, 0, "1800000000", "493000000", "1307000000"]);
    // Tree order: a group, then its sub-accounts.
    expect(tree.map((row) => row.code).slice(0, 4)).toEqual(["4000", "4010", "5000", "5010"]);
  });

  it("balance sheet at the month's end and at its middle, by hand; it balances", async () => {
    const sheet = await t.services.finance.generalLedger.balanceSheet(ctx, {
      date: "2026-03-31",
      compareDate: "2026-03-15",
    });
    // 31 March: assets 5110 1,307,000,000 + 5210 126,500,000; liabilities 6010 200,000,000; equity
    // 8720 1,000,000,000 + retained earnings (703,500,000 income − 470,000,000 expenses) 233,500,000.
    // 15 March: 5110 1,000,000,000 − 253,000,000 + 500,000,000 − 120,000,000 = 1,127,000,000,
    // 5210 253,000,000, 4010 200,000,000; 6010 300,000,000; 8720 1,000,000,000 and retained earnings
    // 700,000,000 − 420,000,000 = 280,000,000.
    const leaves = (lines: typeof sheet.assets.lines) =>
      Object.fromEntries(
        lines.filter((line) => !line.isGroup).map((line) => [line.code, [line.amount, line.compared]]),
      );
    expect(leaves(sheet.assets.lines)).toEqual({
      "4010": ["0", "200000000"],
      "5110": ["1307000000", "1127000000"],
      "5210": ["126500000", "253000000"],
    });
    expect(leaves(sheet.liabilities.lines)).toEqual({ "6010": ["200000000", "300000000"] });
    expect(leaves(sheet.equity.lines)).toEqual({ "8720": ["1000000000", "1000000000"] });
    expect(sheet).toMatchObject({
      assets: { total: "1433500000", comparedTotal: "1580000000" },
      liabilities: { total: "200000000", comparedTotal: "300000000" },
      equity: { total: "1233500000", comparedTotal: "1280000000" },
      retainedEarnings: { amount: "233500000", compared: "280000000" },
      liabilitiesAndEquity: { amount: "1433500000", compared: "1580000000" },
      difference: "0",
      comparedDifference: "0",
      balanced: true,
    });
    expect(sheet.assets.lines.find((line) => line.code === "5100")).toMatchObject({
      isGroup: true,
      amount: "1307000000",
    });
    const reconcile = await t.services.finance.reconcile.reconcile(ctx);
    expect(reconcile.ledger.balanceSheet.difference).toBe("0");
  });

  it("profit and loss of the month's second half against its first, by hand", async () => {
    const pl = await t.services.finance.generalLedger.profitAndLoss(ctx, {
      startDate: "2026-03-16",
      endDate: "2026-03-31",
      compare: "previousPeriod",
    });
    // 16–31 March: the settlements move revenue and expense to the receivable and payable (9030 and
    // 9420 net 0), the USD sale's gain 3,500,000, the write-off 50,000,000. 28 Feb – 15 March (16
    // days): revenue 500,000,000 + 200,000,000 on credit; expenses 120,000,000 + 300,000,000 on credit.
    expect(pl.comparedPeriods).toEqual([
      { compare: "previousPeriod", startDate: "2026-02-28", endDate: "2026-03-15" },
    ]);
    expect(
      Object.fromEntries(pl.incomeLines.map((line) => [line.code, [line.amount, ...line.compared]])),
    ).toEqual({
      "9000": ["0", "700000000"],
      "9030": ["0", "700000000"],
      "9500": ["3500000", "0"],
      "9540": ["3500000", "0"],
    });
    expect(codeOf(pl.expenseLines)).toEqual({ "9400": "50000000", "9420": "0", "9430": "50000000" });
    expect(pl).toMatchObject({ income: "3500000", expenses: "50000000", netResult: "-46500000" });
    expect(pl.compared).toEqual([
      {
        compare: "previousPeriod",
        income: { value: "700000000", change: "-696500000", changePercent: "-99.50" },
        expenses: { value: "420000000", change: "-370000000", changePercent: "-88.10" },
        netResult: { value: "280000000", change: "-326500000", changePercent: "-116.61" },
      },
    ]);
    // The whole month: the net result is the balance sheet's retained earnings.
    const march = await t.services.finance.generalLedger.profitAndLoss(ctx, {
      startDate: "2026-03-01",
      endDate: "2026-03-31",
    });
    expect(march).toMatchObject({
      income: "703500000",
      expenses: "470000000",
      netResult: "233500000",
      compared: [],
    });
  });

  it("each download's totals are the JSON's, in the caller's language", async () => {
    const gl = t.services.finance.generalLedger;
    const exports = t.services.finance.exports;
    const period = { startDate: "2026-03-01", endDate: "2026-03-31" };
    const trialJson = await gl.trialBalance(ctx, period);
    const trialBook = await workbookOf(await exports.trialBalance({ ...ctx, locale: "ru" }, period));
    expect(trialBook.worksheets.map((sheet) => sheet.name)).toEqual([
      "Оборотно-сальдовая ведомость",
      "По группам",
    ]);
    const trialRows = bodyRows(trialBook.worksheets[0]);
    const total = trialRows.at(-1) ?? [];
    expect([total[1], ...total.slice(2, 6).map(minorOf)]).toEqual([
      "Итого",
      ...[
        trialJson.totals.opening,
        trialJson.totals.debit,
        trialJson.totals.credit,
        trialJson.totals.closing,
      ].map(BigInt),
    ]);
    expect(trialRows.find((row) => row[0] === "5110")?.[1]).toBe("Расчётный счёт");

    const chart = Object.fromEntries((await gl.accounts(ctx)).map((account) => [account.code, account.id]));
    const ledgerJson = await gl.generalLedger(ctx, chart["5110"] ?? "", period);
    const ledgerRows = bodyRows(
      (await workbookOf(await exports.generalLedger({ ...ctx, locale: "uz" }, chart["5110"] ?? "", period)))
        .worksheets[0],
    );
    expect(ledgerRows).toHaveLength(ledgerJson.total + 2);
    const closing = ledgerRows.at(-1) ?? [];
    expect([closing[2], minorOf(closing[4]), minorOf(closing[5]), minorOf(closing[6])]).toEqual([
      "Yakuniy qoldiq",
      BigInt(ledgerJson.debit),
      BigInt(ledgerJson.credit),
      BigInt(ledgerJson.closing),
    ]);

    const sheetJson = await gl.balanceSheet(ctx, { date: "2026-03-31" });
    const sheetRows = bodyRows(
      (await workbookOf(await exports.balanceSheet(ctx, { date: "2026-03-31" }))).worksheets[0],
    );
    const labelled = Object.fromEntries(sheetRows.map((row) => [row[1], minorOf(row[2])]));
    expect(labelled).toMatchObject({
      Assets: BigInt(sheetJson.assets.total),
      Liabilities: BigInt(sheetJson.liabilities.total),
      Equity: BigInt(sheetJson.equity.total),
      "Retained earnings (not yet closed)": BigInt(sheetJson.retainedEarnings.amount),
      "Liabilities and equity": BigInt(sheetJson.liabilitiesAndEquity.amount),
      Difference: 0n,
    });

    const plQuery = { ...period, compare: "previousYear" as const };
    const plJson = await gl.profitAndLoss(ctx, plQuery);
    const plBook = await workbookOf(await exports.profitAndLoss(ctx, plQuery));
    const plRows = Object.fromEntries(bodyRows(plBook.worksheets[0]).map((row) => [row[1], minorOf(row[2])]));
    expect(plRows).toMatchObject({
      Income: BigInt(plJson.income),
      Expenses: BigInt(plJson.expenses),
      "Net result": BigInt(plJson.netResult),
    });
    expect(plBook.worksheets.map((sheet) => sheet.name)).toEqual(["Profit and loss", "Comparison"]);
  });

  it("refuses hostile input with 400 and another organization's account with 404", async () => {
    const gl = t.services.finance.generalLedger;
    const chart = Object.fromEntries((await gl.accounts(ctx)).map((account) => [account.code, account.id]));
    const bank = chart["5110"] ?? "";
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => ({ code: "none" }),
        (error: unknown) => error,
      );
    for (const bad of [
      { startDate: "2026-03-31", endDate: "2026-03-01" },
      { startDate: "2026-02-30", endDate: "2026-03-01" },
      { startDate: "0001-01-01", endDate: "9999-12-31" },
      // A range longer than ten years: several reports, not one.
      { startDate: "2000-01-01", endDate: "2026-03-31" },
      { startDate: "2026-03-01", endDate: "2026-03-31", limit: 100_000 },
      { startDate: "2026-03-01", endDate: "2026-03-31", extra: "x" },
      { startDate: "x".repeat(10_000), endDate: "2026-03-31" },
    ]) {
      expect(await failure(gl.generalLedger(ctx, bank, bad as never))).toMatchObject({
        code: "VALIDATION_ERROR",
      });
      expect(await failure(gl.trialBalance(ctx, bad as never))).toMatchObject({ code: "VALIDATION_ERROR" });
      expect(await failure(gl.profitAndLoss(ctx, bad as never))).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    for (const bad of [{}, { date: "2026-13-01" }, { date: "2026-03-31", compareDate: "yesterday" }]) {
      expect(await failure(gl.balanceSheet(ctx, bad as never))).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect(
      await failure(
        gl.profitAndLoss(ctx, {
          startDate: "2026-03-01",
          endDate: "2026-03-31",
          compare: "nextYear" as never,
        }),
      ),
    ).toMatchObject({ code: "VALIDATION_ERROR" });
    const period = { startDate: "2026-03-01", endDate: "2026-03-31" };
    expect(
      await failure(gl.generalLedger(ctx, "00000000-0000-4000-8000-000000000000", period)),
    ).toMatchObject({
      code: "NOT_FOUND",
      reason: "finance.gl_account_not_found",
    });
    expect(await failure(t.services.finance.exports.generalLedger(ctx, "not-a-uuid", period))).toMatchObject({
      code: "VALIDATION_ERROR",
    });
    // Another organization's account is not found, either way round.
    const tenant = await t.createTenant();
    const other = await t.contextOf(await t.createUser(tenant.id, "admin"), "reports-other");
    const theirs = await gl.installChart(other, { template: "ifrs" });
    expect(await failure(gl.generalLedger(ctx, theirs[0]?.id ?? "", period))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await failure(gl.generalLedger(other, bank, period))).toMatchObject({ code: "NOT_FOUND" });
    const file = await t.services.finance.exports.generalLedger(ctx, theirs[0]?.id ?? "", period);
    await expect(file.open()).rejects.toMatchObject({ code: "NOT_FOUND" });
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

  it("moves an account with its sub-accounts under another parent; refuses cycles, a parent with lines, another type, another organization's account", async () => {
    const gl = t.services.finance.generalLedger;
    const byCode = Object.fromEntries((await gl.accounts(ctx)).map((account) => [account.code, account]));
    const idOf = (code: string) => byCode[code]?.id ?? "";
    const names = { nameEn: "Deposits", nameRu: "Депозиты", nameUz: "Depozitlar" };
    const group = await gl.createAccount(ctx, {
      code: "5090",
      ...names,
      type: "asset",
      parentId: idOf("5000"),
    });
    const leaf = await gl.createAccount(ctx, { code: "5091", ...names, type: "asset", parentId: group.id });
    const refused = (id: string, parentId: string | null, reason: string) =>
      expect(gl.moveAccount(ctx, id, { parentId })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        reason,
        params: { issues: [{ path: "parentId" }] },
      });
    // Under itself, or under one of its own sub-accounts: a cycle.
    await refused(group.id, group.id, "finance.gl_move_cycle");
    await refused(group.id, leaf.id, "finance.gl_move_cycle");
    await refused(idOf("5000"), leaf.id, "finance.gl_move_cycle");
    // Under a leaf with lines (5010, the cash desk's), under another type, under an unknown account.
    await refused(leaf.id, idOf("5010"), "finance.gl_parent_has_entries");
    await refused(leaf.id, idOf("9400"), "finance.gl_type_differs");
    await refused(leaf.id, "00000000-0000-7000-8000-000000000000", "finance.unknown_gl_account");
    // Another organization's account: as a parent a 400 naming the field, as the account moved a 404.
    const tenant = await t.createTenant();
    const other = await t.contextOf(await t.createUser(tenant.id, "admin"), "move-other");
    const theirs = await t.services.finance.generalLedger.installChart(other, { template: "nas21" });
    const their5000 = theirs.find((account) => account.code === "5000")?.id ?? "";
    await refused(leaf.id, their5000, "finance.unknown_gl_account");
    await expect(gl.moveAccount(ctx, their5000, { parentId: null })).rejects.toMatchObject({
      code: "NOT_FOUND",
      reason: "finance.gl_account_not_found",
    });
    // Hostile or malformed input: a 400, never a database error.
    for (const body of [{}, { parentId: "x" }, { parentId: null, code: "1" }, { parentId: 5 }]) {
      await expect(gl.moveAccount(ctx, leaf.id, body as never)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
    expect((await gl.accounts(ctx)).find((account) => account.id === leaf.id)?.parentId).toBe(group.id);

    // The group with its leaf to the top, then under 5100: the leaf stays under it; a leaf with lines
    // moves too (its lines stay on it, the tree's subtotals follow).
    expect((await gl.moveAccount(ctx, group.id, { parentId: null })).parentId).toBeNull();
    expect((await gl.moveAccount(ctx, group.id, { parentId: idOf("5100") })).parentId).toBe(idOf("5100"));
    const moved = await gl.moveAccount(ctx, idOf("5010"), { parentId: group.id });
    expect(moved).toMatchObject({ parentId: group.id, hasEntries: true });
    const tree = (await gl.trialBalance(ctx, { startDate: "2026-03-01", endDate: "2026-03-31" })).tree;
    const closing = (code: string) => tree.find((row) => row.code === code)?.closing;
    expect(closing("5090")).toBe(closing("5010"));
    expect(tree.find((row) => row.code === "5010")?.depth).toBe(2);
    // A move to where it already is changes nothing and is not audited again.
    await gl.moveAccount(ctx, idOf("5010"), { parentId: group.id });
    const audits = await t.db.withTenant(
      ctx.tenantId,
      (tx) =>
        tx.$queryRaw<{ entity_id: string; before: unknown; after: unknown }[]>`
        SELECT entity_id, before, after FROM audit_log WHERE entity = 'gl_account' AND action = 'reparent' ORDER BY occurred_at, id`,
    );
    expect(audits.map((row) => row.entity_id)).toEqual([group.id, group.id, idOf("5010")]);
    expect(audits[2]).toMatchObject({ before: { parentId: idOf("5000") }, after: { parentId: group.id } });
    // Back where it was, so the tests after this one see the template's tree.
    await gl.moveAccount(ctx, idOf("5010"), { parentId: idOf("5000") });
    await gl.moveAccount(ctx, leaf.id, { parentId: null });
    await gl.deleteAccount(ctx, leaf.id);
    await gl.deleteAccount(ctx, group.id);
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
