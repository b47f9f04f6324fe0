import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";

// Sweeps over the whole REST surface, read from the published OpenAPI document, so a route added
// later is covered without anyone remembering to: documented, guarded, and walled per tenant.

type Operation = { method: string; path: string; url: (ids: Record<string, string>) => string };

const PUBLIC = new Set([
  "GET /healthz",
  "GET /readyz",
  "POST /auth/login",
  "GET /login",
  "POST /login",
  "POST /logout",
]);
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

let t: TestApp;
let spec: { openapi: string; paths: Record<string, Record<string, unknown>> };
let operations: Operation[];

beforeAll(async () => {
  t = await createTestApp();
  spec = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
  operations = Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map((method) => ({
      method: method.toUpperCase(),
      path,
      url: (ids: Record<string, string>) =>
        path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? "missing"),
    })),
  );
});

afterAll(async () => {
  await t?.close();
});

describe("the REST surface", () => {
  it("is a valid OpenAPI 3.1 document with shared component schemas", async () => {
    const result = await new Validator().validate(spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(spec.openapi).toBe("3.1.0");
    expect(operations.length).toBeGreaterThan(30);
  });

  it("documents the Idempotency-Key header on every operation that posts money or a journal entry, closes a debt or creates an account or a stock movement, and only there", () => {
    type Parameter = { in: string; name: string };
    const withKey = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) =>
          ((operation as { parameters?: Parameter[] }).parameters ?? []).some(
            (parameter) => parameter.in === "header" && parameter.name === "idempotency-key",
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withKey.sort()).toEqual(
      [
        "POST /finance/payments",
        "POST /finance/expenses",
        "POST /finance/transfers",
        "POST /finance/exchanges",
        "POST /finance/transfers/{id}/reversal",
        "POST /finance/exchanges/{id}/reversal",
        "POST /finance/debts",
        "POST /finance/debts/{id}/settle",
        "DELETE /finance/debts/{id}/settlements/{settlementId}",
        "POST /finance/debts/{id}/write-off",
        "POST /finance/accounts",
        "POST /finance/inventory/{id}/movements",
        "POST /finance/journal-entries",
        "POST /finance/journal-entries/{id}/post",
        "POST /finance/journal-entries/{id}/reverse",
        "POST /finance/revaluation",
      ].sort(),
    );
  });

  it('reads as English: no summary says "a" before a vowel ("Create a expense")', () => {
    const summaries = Object.values(spec.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => (operation as { summary?: string }).summary ?? ""),
    );
    expect(summaries.some((summary) => summary.startsWith("Create an expense"))).toBe(true);
    // "a user" is right ("you"); "a expense", "a opening", "a item" are not.
    expect(summaries.filter((summary) => /\ba [aeio]/i.test(summary))).toEqual([]);
  });

  it("answers 401 on every non-public route without credentials", async () => {
    const placeholder = {
      id: "01900000-0000-7000-8000-000000000000",
      roleId: "01900000-0000-7000-8000-000000000000",
      uid: "01900000-0000-7000-8000-000000000000",
      permission: "users:read:all",
      code: "UZS",
    };
    const unguarded: string[] = [];
    for (const op of operations) {
      const key = `${op.method} ${op.path}`;
      // The OpenID provider's endpoints authenticate clients and tokens themselves (their own suites).
      if (
        PUBLIC.has(key) ||
        op.path.startsWith("/docs") ||
        op.path.startsWith("/oidc/") ||
        op.path.startsWith("/.well-known/")
      ) {
        continue;
      }
      const res = await t.app.inject({
        method: op.method as "GET",
        url: op.url(placeholder),
        payload: op.method === "GET" || op.method === "DELETE" ? undefined : {},
      });
      if (res.statusCode !== 401) unguarded.push(`${key} → ${res.statusCode}`);
    }
    expect(unguarded).toEqual([]);
  });

  it("a tenant's admin gets 404 for every id-addressed route given another tenant's ids", async () => {
    const a = await t.createTenant("Tenant A");
    const b = await t.createTenant("Tenant B");
    const adminA = await t.createUser(a.id, "admin");
    const adminB: SeededUser = await t.createUser(b.id, "admin");
    const group = (
      await t.app.inject({
        method: "POST",
        url: "/groups",
        headers: adminA.headers,
        payload: { name: "A group", userIds: [adminA.id] },
      })
    ).json();
    const boundary = "----sweep";
    const upload = (
      await t.app.inject({
        method: "POST",
        url: "/uploads",
        headers: { ...adminA.headers, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nA's secret\r\n--${boundary}--\r\n`,
      })
    ).json().items[0];
    const post = async (url: string, payload: object) =>
      (await t.app.inject({ method: "POST", url, headers: adminA.headers, payload })).json();
    const account = await post("/finance/accounts", { name: "A's cash", currency: "UZS" });
    const payment = await post("/finance/payments", {
      accountId: account.id,
      amount: "500",
      date: "2026-11-22",
    });
    const expense = await post("/finance/expenses", {
      accountId: account.id,
      amount: "100",
      date: "2026-11-22",
    });
    const counterparty = await post("/finance/counterparties", { name: "A's customer" });
    const paymentCategory = await post("/finance/payment-categories", { name: "A's sales" });
    const expenseCategory = await post("/finance/expense-categories", { name: "A's rent" });
    const bank = await post("/finance/accounts", { name: "A's bank", currency: "UZS" });
    const debt = await post("/finance/debts", {
      kind: "receivable",
      counterpartyId: counterparty.id,
      amount: "300",
      currency: "UZS",
    });
    const { settlement } = await post(`/finance/debts/${debt.id}/settle`, {
      amount: "100",
      accountId: bank.id,
      date: "2026-11-22",
    });
    const item = await post("/finance/inventory", {
      name: "A's paper",
      sku: "A-PAPER",
      quantity: "5",
      currency: "UZS",
    });
    const financeIds = [
      account.id,
      payment.id,
      expense.id,
      counterparty.id,
      paymentCategory.id,
      expenseCategory.id,
      bank.id,
      debt.id,
      settlement.id,
      settlement.paymentId,
      item.id,
    ];
    const idsByPrefix: Record<string, Record<string, string>> = {
      "/finance/accounts": { id: account.id },
      "/finance/payments": { id: payment.id },
      "/finance/expenses": { id: expense.id },
      "/finance/counterparties": { id: counterparty.id },
      "/finance/payment-categories": { id: paymentCategory.id },
      "/finance/expense-categories": { id: expenseCategory.id },
      "/finance/debts": { id: debt.id, settlementId: settlement.id },
      "/finance/inventory": { id: item.id },
      "/users": { id: adminA.id, roleId: a.adminRoleId },
      "/roles": { id: a.adminRoleId, permission: "users:read:all" },
      "/groups": { id: group.id, uid: adminA.id },
      "/uploads": { id: upload.id },
    };
    const leaks: string[] = [];
    for (const op of operations) {
      const prefix = Object.keys(idsByPrefix).find((p) => op.path.startsWith(`${p}/{`));
      if (!prefix) continue;
      const ids = idsByPrefix[prefix] ?? {};
      // A valid body per changing route, so the answer is about the id, not the input.
      const bodies: Record<string, object> = {
        "PUT /users/{id}": { firstName: "Hijacked" },
        "POST /users/{id}/roles": { roleIds: [b.adminRoleId] },
        "PUT /roles/{id}": { name: "Hijacked" },
        "POST /roles/{id}/permissions": { permissions: ["users:read:all"] },
        "PUT /groups/{id}": { name: "Hijacked" },
        "POST /groups/{id}/users": { userIds: [adminB.id] },
        "PUT /users/{id}/groups": { groupIds: [] },
        "PUT /finance/accounts/{id}": { name: "Hijacked" },
        "PUT /finance/accounts/{id}/opening-balance": { amount: "1", date: "2026-11-22" },
        "PUT /finance/payments/{id}": { amount: "1" },
        "PUT /finance/expenses/{id}": { amount: "1" },
        "PUT /finance/counterparties/{id}": { name: "Hijacked" },
        "PUT /finance/payment-categories/{id}": { name: "Hijacked" },
        "PUT /finance/expense-categories/{id}": { name: "Hijacked" },
        "PUT /finance/debts/{id}": { description: "Hijacked" },
        "POST /finance/debts/{id}/settle": { amount: "1", accountId: bank.id, date: "2026-11-22" },
        "POST /finance/debts/{id}/write-off": { reason: "Hijacked" },
        "PUT /finance/inventory/{id}": { name: "Hijacked" },
        "POST /finance/inventory/{id}/movements": { type: "issue", quantity: "5", date: "2026-11-22" },
      };
      const key = `${op.method} ${op.path}`;
      const needsBody = op.method === "PUT" || op.method === "POST";
      if (needsBody && !bodies[key]) leaks.push(`${key}: add a valid body to this sweep`);
      const payload = needsBody ? bodies[key] : undefined;
      const res = await t.app.inject({
        method: op.method as "GET",
        url: op.url(ids),
        headers: adminB.headers,
        ...(payload ? { payload } : {}),
      });
      if (res.statusCode !== 404)
        leaks.push(`${op.method} ${op.path} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(leaks).toEqual([]);
    // And nothing of A changed.
    const stillA = await t.app.inject({ method: "GET", url: `/users/${adminA.id}`, headers: adminA.headers });
    expect(stillA.json().firstName).not.toBe("Hijacked");
    const lists = [
      "/users?limit=100",
      "/roles?limit=100",
      "/groups?limit=100",
      "/uploads?limit=100",
      "/finance/accounts?limit=100",
      "/finance/payments?limit=100",
      "/finance/expenses?limit=100",
      "/finance/counterparties?limit=100",
      "/finance/payment-categories?limit=100",
      "/finance/expense-categories?limit=100",
      "/finance/debts?limit=100",
      "/finance/inventory?limit=100",
      "/finance/reconcile",
    ];
    for (const url of lists) {
      const body = (await t.app.inject({ method: "GET", url, headers: adminB.headers })).body;
      for (const id of [adminA.id, group.id, upload.id, ...financeIds]) expect(body, url).not.toContain(id);
    }
    const stillAccount = await t.app.inject({
      method: "GET",
      url: `/finance/accounts/${account.id}`,
      headers: adminA.headers,
    });
    expect(stillAccount.json()).toMatchObject({ name: "A's cash", balance: "400" });
    const stillDebt = await t.app.inject({
      method: "GET",
      url: `/finance/debts/${debt.id}`,
      headers: adminA.headers,
    });
    expect(stillDebt.json()).toMatchObject({ status: "partial", outstanding: "200", description: "" });
    const stillItem = await t.app.inject({
      method: "GET",
      url: `/finance/inventory/${item.id}`,
      headers: adminA.headers,
    });
    expect(stillItem.json()).toMatchObject({ name: "A's paper", quantity: "5" });
  });
});
