import type { Db } from "@hisob/db";
import { createTestDb, insertTenant } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsRepository } from "./accounts.repository";
import { ZListMoneyAccountsQuery } from "./accounts.schema";

// The list page's typed read path (`listPage`, no ORM, page and total in one statement) must answer
// exactly as the Prisma path (`list`) for every filter, order and page — and see only its tenant.

let db: Db;
let tenantId: string;
let otherTenantId: string;

const addAccounts = (
  tenant: string,
  accounts: Array<{ name: string; number?: string; currency: string; balance: bigint }>,
) =>
  db.withTenant(tenant, async (tx) => {
    await tx.tenantCurrency.createMany({
      data: ["UZS", "USD"].map((currencyCode) => ({ tenantId: tenant, currencyCode })),
    });
    for (const account of accounts) {
      await tx.moneyAccount.create({
        data: {
          tenantId: tenant,
          name: account.name,
          number: account.number ?? "",
          currencyCode: account.currency,
          balance: account.balance,
          allowOverdraft: account.balance < 0n,
        },
      });
    }
  });

beforeAll(async () => {
  db = await createTestDb();
  tenantId = (await insertTenant(db, "Accounts A")).id;
  otherTenantId = (await insertTenant(db, "Accounts B")).id;
  await addAccounts(tenantId, [
    { name: "Cash desk", currency: "UZS", balance: 1_500_00n },
    { name: "cash reserve", number: "40702-CASH", currency: "USD", balance: 9_007_199_254_740_993n },
    { name: "Bank Kapital", number: "20208000900", currency: "UZS", balance: -250n },
    { name: "Bank Ipak", currency: "USD", balance: 0n },
    { name: "Zeta", currency: "UZS", balance: 1_500_00n },
  ]);
  await addAccounts(otherTenantId, [{ name: "Cash of another tenant", currency: "UZS", balance: 1n }]);
});

afterAll(async () => {
  await db?.close();
});

const both = async (input: Record<string, unknown>) => {
  const query = ZListMoneyAccountsQuery.parse(input);
  const viaPrisma = await db.withTenant(tenantId, (tx) => accountsRepository.list(tx, tenantId, query));
  const viaSql = await db.rawTx.withTenant(
    tenantId,
    (tx) => accountsRepository.listPage(tx, tenantId, query),
    {
      readOnly: true,
    },
  );
  return { viaPrisma, viaSql };
};

describe("accounts list page without the ORM", () => {
  it.each([
    {},
    { sortBy: "name", order: "desc" },
    { sortBy: "balance" },
    { sortBy: "balance", order: "desc" },
    { sortBy: "createdAt", order: "desc" },
    { currency: "USD" },
    { search: "cash" },
    { search: "CASH", currency: "USD" },
    { search: "0209" },
    { limit: 2 },
    { limit: 2, offset: 2 },
    { limit: 2, offset: 4 },
    { offset: 5 },
    { offset: 50 },
    { search: "nothing like it" },
  ])("answers as the Prisma path for %o", async (input) => {
    const { viaPrisma, viaSql } = await both(input);
    expect(viaSql).toEqual(viaPrisma);
  });

  it("keeps to its tenant, carries the total on the page and counts again only past the end", async () => {
    const { viaSql } = await both({ limit: 2 });
    expect(viaSql.total).toBe(5);
    expect(viaSql.items.map((item) => item.name)).toEqual(["Bank Ipak", "Bank Kapital"]);
    expect(viaSql.items[0]).not.toHaveProperty("total");
    const past = await both({ offset: 50 });
    expect(past.viaSql).toEqual({ items: [], total: 5 });
    const large = await both({ sortBy: "balance", order: "desc", limit: 1 });
    expect(large.viaSql.items[0]?.balance).toBe("9007199254740993");
  });
});

describe("search is for the text typed, wildcards included", () => {
  it("finds `%`, `_` and `\\` as themselves on both paths", async () => {
    const literalTenant = (await insertTenant(db, "Accounts C")).id;
    await addAccounts(literalTenant, [
      { name: "Discount 50% off", currency: "UZS", balance: 0n },
      { name: "Reserve 500", currency: "UZS", balance: 0n },
      { name: "petty_cash", currency: "UZS", balance: 0n },
      { name: "petty-cash", currency: "UZS", balance: 0n },
      { name: "Share C:\\box", currency: "UZS", balance: 0n },
    ]);
    const names = async (search: string) => {
      const query = ZListMoneyAccountsQuery.parse({ search });
      const viaPrisma = await db.withTenant(literalTenant, (tx) =>
        accountsRepository.list(tx, literalTenant, query),
      );
      const viaSql = await db.rawTx.withTenant(
        literalTenant,
        (tx) => accountsRepository.listPage(tx, literalTenant, query),
        { readOnly: true },
      );
      expect(viaSql).toEqual(viaPrisma);
      return viaSql.items.map((item) => item.name);
    };
    expect(await names("50%")).toEqual(["Discount 50% off"]);
    expect(await names("%")).toEqual(["Discount 50% off"]);
    expect(await names("_")).toEqual(["petty_cash"]);
    expect(await names("Y_C")).toEqual(["petty_cash"]);
    expect(await names("\\")).toEqual(["Share C:\\box"]);
    expect(await names("50")).toEqual(["Discount 50% off", "Reserve 500"]);
  });
});
