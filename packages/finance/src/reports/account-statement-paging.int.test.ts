import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinanceTestKit, type FinanceTestKit } from "../finance-test-kit";

/*
 * The account statement pages from balance checkpoints (account_day_totals, kept by triggers on
 * transactions): every page at every offset, either order, must be exactly the matching slice of the
 * whole statement read in one page, with the same running balances — after postings on several days,
 * several a day, an opening balance, transfers both ways, an exchange, a reversal, a payment moved to
 * another day with another amount, a transfer's date corrected and a payment deleted. And the
 * checkpoints must equal the sums recomputed from the ledger itself. Through the finance services
 * (docs/decisions/0114-a-codebase-a-newcomer-can-carry-on-continued.md: moved here from the server's REST tests).
 */

let t: FinanceTestKit;
let tenantId: string;
let admin: TenantContext;
const ids = { cash: "", bank: "", usd: "" };
const finance = () => t.services.finance;

type Entry = {
  id: string;
  date: string;
  change: string;
  runningBalance: string;
  reversalReason: string | null;
};
type Statement = { entries: Entry[]; total: number; openingBalance: string; closingBalance: string };
/** A query string as the list's query object (the schemas coerce its text as REST's query does). */
const queryOf = (query: string): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(query.replace(/^&/, "")));
const statement = async (accountId: string, query: string): Promise<Statement> =>
  (await finance().reports.accountStatement(
    admin,
    accountId,
    queryOf(query) as never,
  )) as unknown as Statement;
type Row = Record<string, string | null>;
const transactionsOf = async (accountId: string, query: string): Promise<{ items: Row[]; total: number }> =>
  (await finance().accounts.transactions(admin, accountId, queryOf(query) as never)) as unknown as {
    items: Row[];
    total: number;
  };

beforeAll(async () => {
  t = await createFinanceTestKit();
  const tenant = await t.createTenant();
  tenantId = tenant.id;
  admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
  await t.services.currencies.setSelected(admin, { codes: ["UZS", "USD"] });
  const account = (input: Record<string, unknown>) => finance().accounts.create(admin, input as never);
  ids.cash = (await account({ name: "Cash", currency: "UZS" })).id;
  ids.bank = (await account({ name: "Bank", currency: "UZS" })).id;
  ids.usd = (await account({ name: "Dollars", currency: "USD", allowOverdraft: true })).id;
  await finance().openingBalances.set(admin, ids.cash, { amount: "700000", date: "2026-01-03" });
  const pay = (accountId: string, amount: string, date: string) =>
    finance().payments.create(admin, { accountId, amount, date } as never);
  const days = ["2026-01-02", "2026-01-03", "2026-01-05", "2026-01-09", "2026-01-10", "2026-01-20"];
  let n = 0;
  for (const date of days) {
    for (let i = 0; i <= n % 3; i += 1) await pay(ids.cash, String(10000 + n * 137 + i), date);
    await finance().expenses.create(admin, { accountId: ids.cash, amount: String(3000 + n), date } as never);
    n += 1;
  }
  await pay(ids.bank, "900000", "2026-01-04");
  const transfer = (input: Record<string, unknown>) => finance().transfers.transfer(admin, input as never);
  const out = await transfer({
    fromAccountId: ids.cash,
    toAccountId: ids.bank,
    amount: "25000",
    date: "2026-01-05",
  });
  await transfer({ fromAccountId: ids.bank, toAccountId: ids.cash, amount: "41000", date: "2026-01-09" });
  await pay(ids.usd, "10000", "2026-01-02");
  await finance().transfers.exchange(admin, {
    fromAccountId: ids.usd,
    toAccountId: ids.cash,
    amount: "500",
    rate: "126.5057",
    confirmRate: true,
    date: "2026-01-10",
  } as never);
  const reversed = await transfer({
    fromAccountId: ids.cash,
    toAccountId: ids.bank,
    amount: "1500",
    date: "2026-01-10",
  });
  await finance().transfers.reverseTransfer(admin, reversed.id, { reason: "Wrong till" } as never);
  // Corrections that move entries between days, and a deletion.
  await finance().transfers.updateTransfer(admin, out.id, { date: "2026-01-20" } as never);
  const moved = await pay(ids.cash, "5555", "2026-01-02");
  await finance().payments.update(admin, moved.id, { amount: "6666", date: "2026-01-09" } as never);
  const gone = await pay(ids.cash, "7777", "2026-01-05");
  await finance().payments.delete(admin, gone.id);
  await pay(ids.cash, "8888", "2026-02-01"); // after the period
});

afterAll(async () => {
  await t?.close();
});

const PERIODS = ["startDate=2026-01-01&endDate=2026-01-31", "startDate=2026-01-04&endDate=2026-01-10"];

describe("account statement pages from balance checkpoints", () => {
  it("every page at every offset, oldest or newest first, is the slice of the whole statement", async () => {
    for (const period of PERIODS) {
      const whole = await statement(ids.cash, `${period}&limit=1000`);
      expect(whole.entries.length).toBe(whole.total);
      expect(whole.total).toBeGreaterThan(10);
      // The running balances chain from the opening to the closing balance.
      let running = BigInt(whole.openingBalance);
      for (const entry of whole.entries) {
        running += BigInt(entry.change);
        expect(entry.runningBalance).toBe(running.toString());
      }
      expect(running.toString()).toBe(whole.closingBalance);
      const newest = [...whole.entries].reverse();
      for (const limit of [1, 2, 5]) {
        for (let offset = 0; offset <= whole.total; offset += 1) {
          const asc = await statement(ids.cash, `${period}&limit=${limit}&offset=${offset}`);
          expect(asc.entries, `asc ${period} ${limit}@${offset}`).toEqual(
            whole.entries.slice(offset, offset + limit),
          );
          expect(asc.total).toBe(whole.total);
          const desc = await statement(ids.cash, `${period}&limit=${limit}&offset=${offset}&order=desc`);
          expect(desc.entries, `desc ${period} ${limit}@${offset}`).toEqual(
            newest.slice(offset, offset + limit),
          );
        }
      }
    }
  }, 240_000);

  it("shows why a transfer was reversed, on the reversal and on the entry it undid", async () => {
    const whole = await statement(ids.cash, "startDate=2026-01-10&endDate=2026-01-10&limit=100");
    expect(whole.entries.filter((entry) => entry.reversalReason === "Wrong till")).toHaveLength(2);
  });

  it("links each entry to its document, its counter account and its reversal as the account's ledger does", async () => {
    const LINKS = [
      "type",
      "counterpartyId",
      "paymentId",
      "expenseId",
      "reversalOfId",
      "reversedById",
      "reversalReason",
    ];
    const whole = (await statement(ids.cash, "startDate=2026-01-01&endDate=2026-01-31&limit=1000"))
      .entries as unknown as Row[];
    const ledger = (await transactionsOf(ids.cash, "limit=100")).items;
    expect(ledger.length).toBeLessThan(100); // all of it
    const byId = new Map(ledger.map((item) => [item.id, item]));
    for (const entry of whole) {
      const item = byId.get(entry.id as string) ?? {};
      const counter = item.originAccountId === ids.cash ? item.destinationAccountId : item.originAccountId;
      // The statement also shows why an entry was undone: its reversal's reason.
      const undoneBecause = item.reversedById ? byId.get(item.reversedById)?.reversalReason : null;
      expect(entry, entry.id as string).toMatchObject({
        ...Object.fromEntries(LINKS.map((key) => [key, item[key]])),
        counterAccountId: counter,
        reversalReason: item.reversalReason ?? undoneBecause,
      });
    }
    // The documents' own side (each document's transactionId) names the same documents as the
    // entries do (the id the posting wrote on the entry).
    for (const kind of ["payments", "expenses"] as const) {
      const documents = (await finance()[kind].list(admin, { accountId: ids.cash, limit: 100 } as never))
        .items as unknown as Row[];
      expect(documents.length).toBeGreaterThan(0);
      expect(documents.length).toBeLessThan(100); // all of them
      const key = kind === "payments" ? "paymentId" : "expenseId";
      const fromDocuments = new Map(documents.map((document) => [document.transactionId, document.id]));
      for (const item of ledger)
        expect(item[key] ?? undefined, item.id as string).toBe(fromDocuments.get(item.id));
    }
    // Every kind of link is there at least once.
    for (const key of ["paymentId", "expenseId", "reversalOfId", "reversedById"])
      expect(
        whole.some((entry) => entry[key] !== null),
        key,
      ).toBe(true);
  });

  it("the checkpoints equal the sums of the ledger they follow", async () => {
    const [kept, recomputed] = await t.db.withTenant(tenantId, (tx) =>
      Promise.all([
        tx.$queryRaw<{ account_id: string; date: Date; entries: number; change: string; opening: string }[]>`
          SELECT account_id::text, date, entries, change::text, opening::text FROM account_day_totals
           WHERE entries <> 0 OR change <> 0 OR opening <> 0 ORDER BY account_id, date`,
        tx.$queryRaw<{ account_id: string; date: Date; entries: number; change: string; opening: string }[]>`
          SELECT account_id::text, date,
                 (count(*) FILTER (WHERE type <> 'opening_balance'))::int AS entries,
                 COALESCE(sum(moved) FILTER (WHERE type <> 'opening_balance'), 0)::text AS change,
                 COALESCE(sum(moved) FILTER (WHERE type = 'opening_balance'), 0)::text AS opening
            FROM (SELECT origin_account_id AS account_id, date, type, -amount AS moved
                    FROM transactions WHERE origin_account_id IS NOT NULL
                  UNION ALL
                  SELECT destination_account_id, date, type, COALESCE(destination_amount, amount)
                    FROM transactions WHERE destination_account_id IS NOT NULL) legs
           GROUP BY account_id, date ORDER BY account_id, date`,
      ]),
    );
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(recomputed);
  });

  it("the account's transaction list counts its entries from the checkpoints exactly as it lists them", async () => {
    const bounds = [
      "",
      "&from=2026-01-03",
      "&to=2026-01-09",
      "&from=2026-01-04&to=2026-01-10",
      "&from=2026-03-01",
    ];
    const types = ["", "&type=opening_balance", "&type=transfer", "&type=income"];
    for (const accountId of Object.values(ids)) {
      for (const query of [...bounds, ...types.slice(1).map((type) => `${type}&from=2026-01-03`)]) {
        const page = await transactionsOf(accountId, `limit=100${query}`);
        expect(page.items.length, `${accountId}${query}`).toBeLessThan(100);
        expect(page.total, `${accountId}${query}`).toBe(page.items.length);
      }
    }
    // The opening balance (2026-01-03) counts once, on its own day and only there.
    const cash = (query: string) => transactionsOf(ids.cash, `limit=1${query}`);
    const withOpening = (await cash("&from=2026-01-03&to=2026-01-03")).total;
    const opening = (await cash("&from=2026-01-03&to=2026-01-03&type=opening_balance")).total;
    expect(opening).toBe(1);
    expect(withOpening).toBeGreaterThan(opening);
    expect((await cash("&from=2026-01-04&to=2026-01-04&type=opening_balance")).total).toBe(0);
  });
});
