import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The books' reports over HTTP (docs/decisions/0101-books-reports.md): REST and GraphQL answer the
 * same figures, computed by hand for a small January; the downloads stream .xlsx; wrong, hostile and
 * huge inputs are 400 naming the field, another organization's account is 404, a caller without
 * reports:read:all is 403. The figures themselves are checked at length beside the service
 * (packages/finance/src/general-ledger/general-ledger.int.test.ts).
 */

let t: TestApp;
let admin: SeededUser;
let other: SeededUser;
let tenantId: string;
const chart: Record<string, string> = {};

const get = (caller: SeededUser | null, url: string) =>
  t.app.inject({ method: "GET", url, ...(caller ? { headers: caller.headers } : {}) });
const post = async (url: string, payload: Record<string, unknown>, caller: SeededUser = admin) => {
  const res = await t.app.inject({ method: "POST", url, headers: caller.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/graphql",
    headers: { ...admin.headers, "content-type": "application/json" },
    payload: { query, variables },
  });
  return res.json() as { data?: Record<string, never>; errors?: unknown[] };
};

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  tenantId = tenant.id;
  admin = await t.createUser(tenant.id, "admin");
  await t.app.inject({
    method: "PUT",
    url: "/tenant/currencies",
    headers: admin.headers,
    payload: { codes: ["UZS"] },
  });
  const cash = (await post("/finance/accounts", { name: "Cash", currency: "UZS" })).id;
  // January: 1 000 000 received, 200 000 spent; the first posting installs NAS 21.
  await post("/finance/payments", { accountId: cash, amount: "1000000", date: "2026-01-05" });
  await post("/finance/expenses", { accountId: cash, amount: "200000", date: "2026-01-25" });
  const accounts = (await get(admin, "/finance/ledger/accounts")).json() as Array<{
    id: string;
    code: string;
  }>;
  for (const account of accounts) chart[account.code] = account.id;
  const otherTenant = await t.createTenant();
  other = await t.createUser(otherTenant.id, "admin");
});

afterAll(async () => {
  await t?.close();
});

describe("the books' reports over REST and GraphQL", () => {
  it("answer the same figures, computed by hand", async () => {
    // 5110 Dr 1 000 000, Cr 200 000; 9030 Cr 1 000 000; 9420 Dr 200 000. Nothing closed: the
    // 800 000 result is the balance sheet's retained earnings.
    const sheet = await get(admin, "/finance/ledger/balance-sheet?date=2026-01-31&compareDate=2026-01-10");
    expect(sheet.statusCode, sheet.body).toBe(200);
    expect(sheet.json()).toMatchObject({
      assets: { total: "800000", comparedTotal: "1000000" },
      liabilities: { total: "0" },
      equity: { total: "800000" },
      retainedEarnings: { amount: "800000", compared: "1000000" },
      liabilitiesAndEquity: { amount: "800000", compared: "1000000" },
      balanced: true,
    });
    const pl = await get(admin, "/finance/ledger/profit-and-loss?startDate=2026-01-01&endDate=2026-01-31");
    expect(pl.json()).toMatchObject({ income: "1000000", expenses: "200000", netResult: "800000" });
    const ledger = await get(
      admin,
      `/finance/ledger/general-ledger/${chart["5110"]}?startDate=2026-01-01&endDate=2026-01-31`,
    );
    expect(ledger.statusCode, ledger.body).toBe(200);
    expect(
      ledger
        .json()
        .lines.map((line: { debit: string; credit: string; balance: string }) => [
          line.debit,
          line.credit,
          line.balance,
        ]),
    ).toEqual([
      ["1000000", "0", "1000000"],
      ["0", "200000", "800000"],
    ]);
    const trial = await get(admin, "/finance/ledger/trial-balance?startDate=2026-01-01&endDate=2026-01-31");
    expect(trial.json().tree.find((row: { code: string }) => row.code === "9400")).toMatchObject({
      isGroup: true,
      closing: "200000",
    });

    // A page of 20 lines: the default 500 costs more than one query may (the cost model counts limits).
    const { data, errors } = await graphql(
      `query($id: ID!) {
        trialBalance(startDate: "2026-01-01", endDate: "2026-01-31") { balanced totals { debit credit } tree { code isGroup closing } }
        generalLedger(accountId: $id, startDate: "2026-01-01", endDate: "2026-01-31", limit: 20) {
          opening closing account { code type } lines { balance document { kind } }
        }
        balanceSheet(date: "2026-01-31") { balanced difference retainedEarnings { amount } }
        profitAndLoss(startDate: "2026-01-01", endDate: "2026-01-31", compare: [previousPeriod]) {
          netResult compared { compare netResult { value change changePercent } }
        }
      }`,
      { id: chart["5110"] },
    );
    expect(errors).toBeUndefined();
    expect(data).toMatchObject({
      trialBalance: { balanced: true, totals: { debit: "1200000", credit: "1200000" } },
      generalLedger: {
        opening: "0",
        closing: "800000",
        account: { code: "5110", type: "asset" },
        lines: [
          { balance: "1000000", document: { kind: "payment" } },
          { balance: "800000", document: { kind: "expense" } },
        ],
      },
      balanceSheet: { balanced: true, difference: "0", retainedEarnings: { amount: "800000" } },
      profitAndLoss: {
        netResult: "800000",
        compared: [
          { compare: "previousPeriod", netResult: { value: "0", change: "800000", changePercent: null } },
        ],
      },
    });
    expect((await get(admin, "/finance/reconcile")).json().ledger.balanceSheet).toEqual({
      assets: "800000",
      liabilities: "0",
      equity: "0",
      retainedEarnings: "800000",
      difference: "0",
    });
  });

  it("stream each report as .xlsx", async () => {
    for (const url of [
      "/finance/ledger/trial-balance/export?startDate=2026-01-01&endDate=2026-01-31",
      `/finance/ledger/general-ledger/${chart["5110"]}/export?startDate=2026-01-01&endDate=2026-01-31`,
      "/finance/ledger/balance-sheet/export?date=2026-01-31",
      "/finance/ledger/profit-and-loss/export?startDate=2026-01-01&endDate=2026-01-31&compare=previousYear",
    ]) {
      const res = await get(admin, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toContain("spreadsheetml");
      // A zip: an .xlsx starts with "PK".
      expect(res.rawPayload.subarray(0, 2).toString(), url).toBe("PK");
    }
  });

  it("refuse bad, hostile and huge input with 400 naming the field", async () => {
    const gl = `/finance/ledger/general-ledger/${chart["5110"]}`;
    const cases: Array<[string, string]> = [
      ["/finance/ledger/trial-balance?startDate=2026-02-01&endDate=2026-01-01", "endDate"],
      ["/finance/ledger/trial-balance?startDate=2000-01-01&endDate=2026-01-01", "endDate"],
      [`${gl}?startDate=2026-02-30&endDate=2026-03-01`, "startDate"],
      [`${gl}?startDate=2026-01-01&endDate=2026-01-31&limit=100000`, "limit"],
      [`${gl}?startDate=${"9".repeat(5000)}&endDate=2026-01-31`, "startDate"],
      ["/finance/ledger/general-ledger/%3Cscript%3E?startDate=2026-01-01&endDate=2026-01-31", "id"],
      ["/finance/ledger/balance-sheet", "date"],
      ["/finance/ledger/balance-sheet?date=2026-01-31&compareDate=1%27%20OR%201%3D1", "compareDate"],
      ["/finance/ledger/profit-and-loss?startDate=2026-01-01&endDate=2026-01-31&compare=lastWeek", "compare"],
      ["/finance/ledger/profit-and-loss/export?startDate=2026-01-31&endDate=2026-01-01", "endDate"],
    ];
    for (const [url, field] of cases) {
      const res = await get(admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(
        res.json().error.issues.map((issue: { path: string }) => issue.path),
        url,
      ).toContain(field);
    }
  });

  it("another organization's account is 404; without reports:read:all, 403", async () => {
    for (const url of [
      `/finance/ledger/general-ledger/${chart["5110"]}?startDate=2026-01-01&endDate=2026-01-31`,
      `/finance/ledger/general-ledger/${chart["5110"]}/export?startDate=2026-01-01&endDate=2026-01-31`,
    ]) {
      const res = await get(other, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.reason, url).toBe("finance.gl_account_not_found");
    }
    const clerk = await t.createUser(tenantId, ["payments:create:all", "accounts:read:all"]);
    for (const url of [
      "/finance/ledger/balance-sheet?date=2026-01-31",
      "/finance/ledger/profit-and-loss?startDate=2026-01-01&endDate=2026-01-31",
      "/finance/ledger/balance-sheet/export?date=2026-01-31",
    ]) {
      expect((await get(clerk, url)).statusCode, url).toBe(403);
      expect((await get(null, url)).statusCode, url).toBe(401);
    }
  });
});

describe("moving an account of the chart over REST and GraphQL (docs/decisions/0111-books-features.md)", () => {
  it("moves it, refuses a cycle naming parentId, hostile input with 400, another organization's account with 404", async () => {
    const put = (id: string, payload: unknown, caller: SeededUser = admin) =>
      t.app.inject({
        method: "PUT",
        url: `/finance/ledger/accounts/${id}/parent`,
        headers: caller.headers,
        payload: payload as Record<string, unknown>,
      });
    const names = { nameEn: "Office", nameRu: "Офис", nameUz: "Ofis", type: "expense" };
    const group = await post("/finance/ledger/accounts", { code: "9490", ...names, parentId: chart["9400"] });
    const leaf = await post("/finance/ledger/accounts", { code: "9491", ...names, parentId: group.id });

    const top = await put(leaf.id, { parentId: null });
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json()).toMatchObject({ id: leaf.id, parentId: null });
    const { data, errors } = await graphql(
      "mutation ($id: ID!, $parentId: ID) { moveGlAccount(id: $id, parentId: $parentId) { id parentId type } }",
      { id: leaf.id, parentId: group.id },
    );
    expect(errors).toBeUndefined();
    expect(data?.moveGlAccount).toEqual({ id: leaf.id, parentId: group.id, type: "expense" });

    const cycle = await put(group.id, { parentId: leaf.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().error).toMatchObject({
      reason: "finance.gl_move_cycle",
      issues: [{ path: "parentId", message: "is the account itself or one of its sub-accounts" }],
    });
    // Under a leaf with lines (9420 holds January's expense): refused, the leaf would stop being one.
    expect((await put(leaf.id, { parentId: chart["9420"] })).json().error.reason).toBe(
      "finance.gl_parent_has_entries",
    );
    for (const payload of [
      {},
      { parentId: "x" },
      { parentId: null, extra: 1 },
      { parentId: "1".repeat(10_000) },
    ]) {
      expect((await put(leaf.id, payload)).statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    expect((await put("not-an-id", { parentId: null })).statusCode).toBe(400);
    const theirs = await put(leaf.id, { parentId: null }, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.reason).toBe("finance.gl_account_not_found");
    const absent = await graphql("mutation ($id: ID!) { moveGlAccount(id: $id) { id } }", { id: leaf.id });
    expect(JSON.stringify(absent.errors)).toContain("VALIDATION_ERROR");
    const accounts = (await get(admin, "/finance/ledger/accounts")).json() as Array<{
      id: string;
      parentId: string;
    }>;
    expect(accounts.find((account) => account.id === leaf.id)?.parentId).toBe(group.id);
  });
});
