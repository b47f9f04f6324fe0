import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, gql, listen } from "./graphql-test-kit";

let t: TestApp;
let url: string;
let tenantId: string;
let admin: SeededUser;
let ctx: TenantContext;
const accounts: string[] = [];
const counterparties: string[] = [];
const categories: string[] = [];
let statements = 0;

beforeAll(async () => {
  t = await createTestApp({
    onQuery: () => {
      statements += 1;
    },
  });
  ({ httpUrl: url } = await listen(t));
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  ctx = (await t.services.context.resolveContext({
    bearerToken: admin.token,
    requestId: "seed",
  })) as TenantContext;
  const finance = t.services.finance;
  for (let index = 0; index < 5; index += 1) {
    accounts.push((await finance.accounts.create(ctx, { name: `Cash ${index}`, currency: "UZS" })).id);
    counterparties.push((await finance.counterparties.create(ctx, { name: `Client ${index}` })).id);
    categories.push((await finance.paymentCategories.create(ctx, { name: `Sales ${index}` })).id);
  }
  // The five seeded records in turn (the lists are full, so there is always one).
  const nth = (list: readonly string[], index: number): string => {
    const id = list[index % list.length];
    if (id === undefined) throw new Error(`seeding: no record for payment ${index}`);
    return id;
  };
  for (let index = 0; index < 50; index += 1) {
    await finance.payments.create(ctx, {
      accountId: nth(accounts, index),
      amount: String(1000 + index),
      date: `2026-11-${String(1 + (index % 20)).padStart(2, "0")}`,
      counterpartyId: nth(counterparties, index),
      categoryId: nth(categories, index),
    });
  }
});
afterAll(async () => t?.close());

const PAYMENTS = /* GraphQL */ `
  query($limit: Int!) {
    payments(limit: $limit) {
      total
      data { id amount date account { id name balance } counterparty { name } category { name } }
    }
  }
`;

const countStatements = async (query: string, variables: Record<string, unknown>, who = admin) => {
  // Events of the seeding are dispatched first, so only this request's statements are counted.
  await t.outbox.drain();
  statements = 0;
  const res = await gql(url, query, { variables, headers: who.headers });
  const counted = statements;
  return { res, counted };
};

describe("finance reads", () => {
  it("loads a page of 50 payments with nested account, counterparty and category without N+1", async () => {
    const flat = await countStatements(
      "query($limit: Int!) { payments(limit: $limit) { total data { id } } }",
      {
        limit: 50,
      },
    );
    const five = await countStatements(PAYMENTS, { limit: 5 });
    const fifty = await countStatements(PAYMENTS, { limit: 50 });
    expect(fifty.res.body.errors).toBeUndefined();
    const page = fifty.res.body.data?.payments as {
      total: string;
      data: { account: { name: string }; counterparty: { name: string }; category: { name: string } }[];
    };
    expect(page.total).toBe("50");
    expect(page.data).toHaveLength(50);
    expect(page.data.every((payment) => payment.account && payment.counterparty && payment.category)).toBe(
      true,
    );
    // The nested fields cost one batch per kind, whatever the page size: 50 rows take what 5 take.
    expect(fifty.counted).toBe(five.counted);
    // Each nested kind adds one batched read (its own short transaction), not one per row.
    expect(fifty.counted - flat.counted).toBeLessThanOrEqual(3 * 6);
    console.info(
      `SQL statements: flat page ${flat.counted}, nested 5 rows ${five.counted}, nested 50 rows ${fifty.counted}`,
    );
  });

  it("filters payments (accountId eq, date range) and names a bad filter", async () => {
    const res = await gql(
      url,
      `query($f: [Filter!]) { payments(limit: 100, filters: $f) { total data { accountId date } } }`,
      {
        headers: admin.headers,
        variables: {
          f: [
            { field: "accountId", operator: "eq", value: accounts[0] },
            { field: "date", operator: "gte", value: "2026-11-05" },
            { field: "date", operator: "lte", value: "2026-11-15" },
          ],
        },
      },
    );
    const page = res.body.data?.payments as { total: string; data: { accountId: string; date: string }[] };
    expect(page.data.length).toBeGreaterThan(0);
    expect(
      page.data.every((p) => p.accountId === accounts[0] && p.date >= "2026-11-05" && p.date <= "2026-11-15"),
    ).toBe(true);
    const bad = await gql(
      url,
      `{ payments(filters: [{ field: "amount", operator: eq, value: "1" }]) { total } }`,
      {
        headers: admin.headers,
      },
    );
    expect(bad.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining("filters.0.field"),
      extensions: { code: "VALIDATION_ERROR" },
    });
    const op = await gql(
      url,
      `{ payments(filters: [{ field: "date", operator: like, value: "2026" }]) { total } }`,
      {
        headers: admin.headers,
      },
    );
    expect(op.body.errors?.[0]?.message).toContain("filters.0.operator");
  });

  it("sorts payments by up to five fields in order, as users; more, or an unknown one, is refused", async () => {
    const res = await gql(
      url,
      `{ payments(limit: 100, sortBy: ["date", "amount"], ascending: true) { data { date amount } } }`,
      { headers: admin.headers },
    );
    expect(res.body.errors).toBeUndefined();
    const rows = (res.body.data?.payments as { data: { date: string; amount: string }[] }).data;
    expect(rows).toHaveLength(50);
    const key = (row: { date: string; amount: string }) => `${row.date}:${row.amount.padStart(12, "0")}`;
    expect(rows.map(key)).toEqual(rows.map(key).sort());
    // One field alone is still a list of one (GraphQL coerces it).
    const one = await gql(url, `{ expenses(sortBy: "amount") { total } }`, { headers: admin.headers });
    expect(one.body.errors).toBeUndefined();
    const six = await gql(
      url,
      `{ payments(sortBy: ["date", "amount", "createdAt", "date", "amount", "createdAt"]) { total } }`,
      { headers: { ...admin.headers, "accept-language": "ru" } },
    );
    expect(six.body.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(six.body.errors?.[0]?.message).toContain("sortBy");
    const unknown = await gql(url, `{ payments(sortBy: ["comment"]) { total } }`, { headers: admin.headers });
    expect(unknown.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining("sortBy.0"),
      extensions: { code: "VALIDATION_ERROR" },
    });
  });

  it("lists an account's transactions with the account nested; another tenant's account is NOT_FOUND", async () => {
    const res = await gql(
      url,
      `query($a: ID!) { transactions(accountId: $a, limit: 3) { total data { type amount change destinationAccount { id } } } }`,
      { headers: admin.headers, variables: { a: accounts[1] } },
    );
    const page = res.body.data?.transactions as {
      total: string;
      data: { type: string; destinationAccount: { id: string } }[];
    };
    expect(page.total).toBe("10");
    expect(page.data[0]).toMatchObject({ type: "income", destinationAccount: { id: accounts[1] } });
    const strangerTenant = await t.createTenant();
    const stranger = await t.createUser(strangerTenant.id, "admin");
    const theirs = await gql(url, `query($a: ID!) { transactions(accountId: $a) { total } }`, {
      headers: stranger.headers,
      variables: { a: accounts[1] },
    });
    expect(codeOf(theirs)).toBe("NOT_FOUND");
  });

  it("is FORBIDDEN without payments:read, and hides nested records the caller may not read", async () => {
    const nobody = await t.createUser(tenantId, []);
    expect(codeOf(await gql(url, "{ payments { total } }", { headers: nobody.headers }))).toBe("FORBIDDEN");
    const clerk = await t.createUser(tenantId, ["payments:read:all"]);
    const res = await gql(url, "{ payments(limit: 2) { data { id account { name } } } }", {
      headers: clerk.headers,
    });
    const data = res.body.data?.payments as { data: { id: string; account: unknown }[] };
    expect(data.data).toHaveLength(2);
    expect(data.data[0]?.account).toBeNull();
    expect(res.body.errors?.[0]).toMatchObject({
      path: ["payments", "data", 0, "account"],
      extensions: { code: "FORBIDDEN" },
    });
    expect(codeOf(await gql(url, "{ payments { total } }"))).toBe("UNAUTHENTICATED");
  });
});

describe("finance writes", () => {
  const CREATE = /* GraphQL */ `
    mutation($input: DocumentInput!) { createPayment(input: $input) { id amount currency account { balance } } }
  `;
  const EXPENSE = /* GraphQL */ `
    mutation($input: DocumentInput!) { recordExpense(input: $input) { id amount } }
  `;

  it("creates a payment and keeps int64 amounts exact above 2^53", async () => {
    const account = (await t.services.finance.accounts.create(ctx, { name: "Big", currency: "UZS" })).id;
    const amount = "9007199254740993";
    const res = await gql(url, CREATE, {
      headers: admin.headers,
      variables: { input: { accountId: account, amount, date: "2026-11-20", comment: "big one" } },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.createPayment).toMatchObject({
      amount,
      currency: "UZS",
      account: { balance: amount },
    });
  });

  it("records an expense; more than the balance is BUSINESS_RULE", async () => {
    const account = (await t.services.finance.accounts.create(ctx, { name: "Small", currency: "UZS" })).id;
    await gql(url, CREATE, {
      headers: admin.headers,
      variables: { input: { accountId: account, amount: "500", date: "2026-11-20" } },
    });
    const ok = await gql(url, EXPENSE, {
      headers: admin.headers,
      variables: { input: { accountId: account, amount: "200", date: "2026-11-21", counterpartyId: null } },
    });
    expect(ok.body.data?.recordExpense).toMatchObject({ amount: "200" });
    const over = await gql(url, EXPENSE, {
      headers: admin.headers,
      variables: { input: { accountId: account, amount: "301", date: "2026-11-21" } },
    });
    expect(over.body.errors?.[0]?.extensions).toMatchObject({
      code: "BUSINESS_RULE",
      reason: "finance.insufficient_balance",
    });
  });

  it("refuses bad input, missing permission and other tenants' accounts", async () => {
    const zero = await gql(url, CREATE, {
      headers: admin.headers,
      variables: { input: { accountId: accounts[0], amount: "0", date: "2026-11-20" } },
    });
    expect(zero.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^validation error: amount/),
      extensions: { code: "VALIDATION_ERROR" },
    });
    const notInt = await gql(url, CREATE, {
      headers: admin.headers,
      variables: { input: { accountId: accounts[0], amount: "1.5", date: "2026-11-20" } },
    });
    expect(codeOf(notInt)).toBe("VALIDATION_ERROR");
    const reader = await t.createUser(tenantId, ["payments:read:all"]);
    const refused = await gql(url, CREATE, {
      headers: reader.headers,
      variables: { input: { accountId: accounts[0], amount: "10", date: "2026-11-20" } },
    });
    expect(codeOf(refused)).toBe("FORBIDDEN");
    const stranger = await t.createUser((await t.createTenant()).id, "admin");
    const cross = await gql(url, CREATE, {
      headers: stranger.headers,
      variables: { input: { accountId: accounts[0], amount: "10", date: "2026-11-20" } },
    });
    expect(codeOf(cross)).toMatch(/NOT_FOUND|VALIDATION_ERROR/);
  });
});
