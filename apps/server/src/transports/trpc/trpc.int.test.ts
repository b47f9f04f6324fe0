import { type AppRouter, appRouter } from "@hisob/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * The tRPC API the way the accountant app calls it: a typed client over real HTTP, authenticated by
 * a bearer token or the session cookie. Every procedure: a happy path, its permission, and tenancy.
 */

let t: TestApp;
let base: string;
let admin: SeededUser;
let outsider: SeededUser;
let stranger: SeededUser;

const clientFor = (headers: Record<string, string> = {}) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${base}/trpc`, headers })] });
const asBearer = (user: SeededUser) => clientFor({ authorization: user.headers.authorization ?? "" });

type ErrorData = { appCode: string; reason: string; httpStatus: number; issues?: Array<{ path: string }> };
/** The rejection of `call`, as the app sees it. */
const failure = async (call: Promise<unknown>) => {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCClientError);
    const clientError = error as TRPCClientError<AppRouter>;
    return { message: clientError.message, data: clientError.data as unknown as ErrorData };
  }
  throw new Error("expected the call to fail");
};

const DATE = "2026-11-22";

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  base = `http://127.0.0.1:${address.port}`;
  const tenant = await t.createTenant();
  admin = await t.createUser(tenant.id, "admin");
  outsider = await t.createUser(tenant.id, []);
  const other = await t.createTenant();
  stranger = await t.createUser(other.id, "admin");
  await asBearer(admin).currencies.selected.query();
  await t.app.inject({
    method: "PUT",
    url: "/tenant/currencies",
    headers: admin.headers,
    payload: { codes: ["UZS", "USD"] },
  });
});

afterAll(async () => {
  await t?.close();
});

describe("the accountant app's procedures", () => {
  it("runs a day's work: accounts, payments, expenses, transfer, exchange, statement, reports, reconcile", async () => {
    const api = asBearer(admin);
    expect((await api.session.me.query()).email).toBe(admin.email);
    expect((await api.currencies.selected.query()).map((c) => c.code)).toEqual(["USD", "UZS"]);

    const cash = await api.accounts.create.mutate({ name: "Cash", currency: "UZS" });
    const bank = await api.accounts.create.mutate({ name: "Bank", currency: "UZS", number: "2020 8000" });
    const dollars = await api.accounts.create.mutate({ name: "Dollars", currency: "USD" });
    expect(cash).toMatchObject({ balance: "0", currency: "UZS" });
    const renamed = await api.accounts.update.mutate({ id: bank.id, data: { description: "Main bank" } });
    expect(renamed.description).toBe("Main bank");
    expect((await api.accounts.list.query({ sortBy: "name" })).items.map((a) => a.name)).toEqual([
      "Bank",
      "Cash",
      "Dollars",
    ]);
    // Every field of the list's input is optional: the procedure may be called with none at all.
    const firstPage = await api.accounts.list.query();
    expect(firstPage).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(await api.payments.list.query()).toMatchObject({ total: 0 });

    const payment = await api.payments.create.mutate({ accountId: cash.id, amount: "1000000", date: DATE });
    expect(payment).toMatchObject({ amount: "1000000", currency: "UZS" });
    expect((await api.payments.get.query({ id: payment.id })).id).toBe(payment.id);
    const updated = await api.payments.update.mutate({ id: payment.id, data: { amount: "1200000" } });
    expect(updated.amount).toBe("1200000");
    expect((await api.payments.list.query({ accountId: cash.id })).total).toBe(1);

    const expense = await api.expenses.create.mutate({ accountId: cash.id, amount: "200000", date: DATE });
    expect((await api.expenses.list.query({})).items.map((e) => e.id)).toEqual([expense.id]);
    await api.expenses.update.mutate({ id: expense.id, data: { comment: "Paper" } });
    expect((await api.expenses.get.query({ id: expense.id })).comment).toBe("Paper");

    const transfer = await api.transfers.create.mutate({
      fromAccountId: cash.id,
      toAccountId: bank.id,
      amount: "300000",
      date: DATE,
    });
    expect(transfer.type).toBe("transfer");
    await api.payments.create.mutate({ accountId: dollars.id, amount: "10000", date: DATE });
    const exchange = await api.exchanges.create.mutate({
      fromAccountId: dollars.id,
      toAccountId: cash.id,
      amount: "333",
      rate: "126.99",
      confirmRate: true,
      date: DATE,
    });
    expect(exchange.destinationAmount).toBe("42287"); // 333 × 126.99 = 42 287.67

    const entries = await api.transactions.list.query({ accountId: cash.id });
    expect(entries.items.map((e) => e.change)).toEqual(
      expect.arrayContaining(["1200000", "-200000", "-300000", "42287"]),
    );
    expect((await api.accounts.get.query({ id: cash.id })).balance).toBe("742287");

    const period = { startDate: "2026-11-01", endDate: "2026-11-30" };
    const income = await api.reports.incomeStatement.query(period);
    expect(income.currencies.find((c) => c.currency === "UZS")).toMatchObject({
      revenue: "1200000",
      expenses: "200000",
      netIncome: "1000000",
    });
    const flow = await api.reports.cashflow.query({ ...period, granularity: "day" });
    expect(flow.accounts.find((a) => a.accountId === cash.id)?.closingBalance).toBe("742287");
    const statement = await api.reports.accountStatement.query({ accountId: cash.id, query: period });
    expect(statement.entries.at(-1)?.runningBalance).toBe("742287");
    expect(await api.reconcile.run.query()).toMatchObject({ ok: true });
    expect(await api.generalLedger.trialBalance.query(period)).toMatchObject({ balanced: true });
    // The books' reports (docs/decisions/0101-books-reports.md) over the same transport.
    expect(await api.generalLedger.balanceSheet.query({ date: period.endDate })).toMatchObject({
      difference: "0",
      balanced: true,
    });
    expect((await api.generalLedger.profitAndLoss.query(period)).netResult).toMatch(/^-?\d+$/);

    await api.expenses.delete.mutate({ id: expense.id });
    const empty = await api.accounts.create.mutate({ name: "Unused", currency: "UZS" });
    expect(await api.accounts.delete.mutate({ id: empty.id })).toBeNull();
    expect(
      await api.payments.delete
        .mutate({ id: (await api.payments.list.query({ accountId: dollars.id })).items[0]?.id ?? "" })
        .catch((e) => e),
    ).toBeInstanceOf(TRPCClientError);
  });

  it("keeps the records: counterparties, categories, debts with settlement and write-off, inventory", async () => {
    const api = asBearer(admin);
    const customer = await api.counterparties.create.mutate({ name: "Oqtepa LLC", tin: "301234567" });
    expect((await api.counterparties.list.query({ search: "Oqtepa" })).items.map((c) => c.id)).toEqual([
      customer.id,
    ]);
    expect(
      (await api.counterparties.update.mutate({ id: customer.id, data: { phone: "+998 90 123 45 67" } }))
        .phone,
    ).toBe("+998 90 123 45 67");
    const sales = await api.paymentCategories.create.mutate({ name: "Sales" });
    const retail = await api.paymentCategories.create.mutate({ name: "Retail", parentId: sales.id });
    expect((await api.paymentCategories.get.query({ id: retail.id })).parentId).toBe(sales.id);
    const cycle = await failure(
      api.paymentCategories.update.mutate({ id: sales.id, data: { parentId: retail.id } }),
    );
    expect(cycle.data.issues?.map((i) => i.path) ?? [cycle.data.reason]).toBeTruthy();
    const rent = await api.expenseCategories.create.mutate({ name: "Rent" });
    expect((await api.expenseCategories.list.query({})).items.map((c) => c.id)).toContain(rent.id);

    const till = await api.accounts.create.mutate({ name: "Till", currency: "UZS" });
    const debt = await api.debts.create.mutate({
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "500000",
      currency: "UZS",
      dueDate: "2026-12-31",
    });
    expect(debt).toMatchObject({ status: "pending", outstanding: "500000" });
    const partial = await api.debts.settle.mutate({
      id: debt.id,
      data: { amount: "200000", accountId: till.id, date: DATE, categoryId: retail.id },
    });
    expect(partial.debt).toMatchObject({ status: "partial", outstanding: "300000" });
    expect((await api.accounts.get.query({ id: till.id })).balance).toBe("200000");
    const over = await failure(
      api.debts.settle.mutate({ id: debt.id, data: { amount: "300001", accountId: till.id, date: DATE } }),
    );
    expect(over.data.appCode).toMatch(/BUSINESS_RULE|VALIDATION_ERROR/);
    const settlementId = (await api.debts.get.query({ id: debt.id })).settlements[0]?.id ?? "";
    const reversed = await api.debts.reverseSettlement.mutate({ id: debt.id, settlementId });
    expect(reversed).toMatchObject({ status: "pending", outstanding: "500000" });
    expect((await api.accounts.get.query({ id: till.id })).balance).toBe("0");
    const writtenOff = await api.debts.writeOff.mutate({ id: debt.id, data: { reason: "Customer closed" } });
    expect(writtenOff.status).toBe("written_off");
    expect((await api.debts.list.query({ status: "written_off" })).items.map((d) => d.id)).toContain(debt.id);

    const item = await api.inventory.create.mutate({
      name: "Paper A4",
      sku: "PAPER-A4",
      unit: "box",
      currency: "UZS",
    });
    await api.inventory.recordMovement.mutate({
      id: item.id,
      data: { type: "receipt", quantity: "10.5", date: DATE },
    });
    const issued = await api.inventory.recordMovement.mutate({
      id: item.id,
      data: { type: "issue", quantity: "2.25", date: DATE },
    });
    expect(issued.item.quantity).toBe("8.25");
    const negative = await failure(
      api.inventory.recordMovement.mutate({
        id: item.id,
        data: { type: "issue", quantity: "9", date: DATE },
      }),
    );
    expect(negative.data.appCode).toBe("BUSINESS_RULE");
    expect((await api.inventory.movements.query({ id: item.id })).total).toBe(2);
    expect((await api.inventory.get.query({ id: item.id })).quantity).toBe("8.25");
    expect((await api.inventory.update.mutate({ id: item.id, data: { name: "Paper A4, 80 g" } })).name).toBe(
      "Paper A4, 80 g",
    );
    expect((await api.inventory.list.query({ search: "80 g" })).total).toBe(1);
    const empty = await api.inventory.create.mutate({ name: "Toner", sku: "TONER-1", currency: "UZS" });
    expect(await api.inventory.delete.mutate({ id: empty.id })).toBeNull();

    // The rest of the records' procedures, each once.
    expect((await api.counterparties.get.query({ id: customer.id })).tin).toBe("301234567");
    const oneOff = await api.counterparties.create.mutate({ name: "One-off" });
    expect(await api.counterparties.delete.mutate({ id: oneOff.id })).toBeNull();
    expect((await api.paymentCategories.list.query({})).items.map((c) => c.id)).toEqual(
      expect.arrayContaining([sales.id, retail.id]),
    );
    const spare = await api.paymentCategories.create.mutate({ name: "Spare" });
    expect(await api.paymentCategories.delete.mutate({ id: spare.id })).toBeNull();
    expect((await api.expenseCategories.get.query({ id: rent.id })).name).toBe("Rent");
    expect(
      (await api.expenseCategories.update.mutate({ id: rent.id, data: { name: "Office rent" } })).name,
    ).toBe("Office rent");
    expect(await api.expenseCategories.delete.mutate({ id: rent.id })).toBeNull();
    const loan = await api.debts.create.mutate({
      kind: "payable",
      counterpartyId: customer.id,
      amount: "900",
      currency: "UZS",
    });
    expect(
      (await api.debts.update.mutate({ id: loan.id, data: { description: "Supplier credit" } })).description,
    ).toBe("Supplier credit");
    expect(await api.debts.delete.mutate({ id: loan.id })).toBeNull();
  });

  it("gives download links that the app fetches with the same token", async () => {
    const api = asBearer(admin);
    const account = await api.accounts.create.mutate({ name: "Downloads", currency: "UZS" });
    await api.payments.create.mutate({ accountId: account.id, amount: "150", date: DATE });
    await api.payments.create.mutate({ accountId: account.id, amount: "250", date: DATE });
    const link = await api.exports.payments.query({ accountId: account.id, sortBy: "amount", order: "asc" });
    expect(link.url).toMatch(/^\/finance\/payments\/export\?/);
    expect(link.url).toContain(`accountId=${account.id}`);
    expect(link.fileName).toMatch(/\.xlsx$/);
    const file = await fetch(`${base}${link.url}`, {
      headers: { authorization: admin.headers.authorization ?? "" },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe(link.contentType);
    const statement = await api.exports.accountStatement.query({
      accountId: account.id,
      query: { startDate: "2026-01-01", endDate: "2026-12-31" },
    });
    expect(statement.url).toBe(
      `/finance/reports/account-statement/${account.id}/export?startDate=2026-01-01&endDate=2026-12-31`,
    );
    expect(
      (
        await fetch(`${base}${statement.url}`, {
          headers: { authorization: admin.headers.authorization ?? "" },
        })
      ).status,
    ).toBe(200);
    const bad = await failure(
      api.exports.incomeStatement.query({ startDate: "2026-02-01", endDate: "2026-01-01" }),
    );
    expect(bad.data.issues?.map((i) => i.path)).toContain("endDate");
    const foreign = await failure(
      asBearer(stranger).exports.transactions.query({ accountId: account.id, query: {} }),
    );
    expect(foreign.data.appCode).toBe("NOT_FOUND");
  });

  it("works over the session cookie too; a cross-site form cannot change anything (CSRF)", async () => {
    const api = clientFor({ cookie: admin.cookie });
    const account = await api.accounts.create.mutate({ name: "Cookie desk", currency: "UZS" });
    expect(account.name).toBe("Cookie desk");
    // What a cross-site form can send: a simple content type and no custom header.
    const forged = JSON.stringify({ name: "Forged", currency: "UZS" });
    for (const [type, body] of [
      ["text/plain", forged],
      ["application/x-www-form-urlencoded", `name=Forged&currency=UZS`],
      [
        "multipart/form-data; boundary=x",
        `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nForged\r\n--x--\r\n`,
      ],
    ] as const) {
      const res = await fetch(`${base}/trpc/accounts.create`, {
        method: "POST",
        headers: { cookie: admin.cookie, "content-type": type },
        body,
      });
      const answer = await res.json();
      expect(res.status, `${type}: ${JSON.stringify(answer)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, type).toBeLessThan(500);
    }
    expect((await api.accounts.list.query({ search: "Forged" })).total).toBe(0);
  });
});

describe("session.update", () => {
  it("saves one's own language (no permission needed) and later errors come in it", async () => {
    const api = asBearer(outsider);
    expect((await api.session.update.mutate({ uiLanguage: "ru" })).uiLanguage).toBe("ru");
    expect((await api.session.me.query()).uiLanguage).toBe("ru");
    const refused = await failure(api.accounts.list.query({}));
    expect(refused.data.appCode).toBe("FORBIDDEN");
    expect(refused.message).toMatch(/[а-я]/i);
    const invalid = await failure(api.session.update.mutate({ uiLanguage: "fr" as "en" }));
    expect(invalid.data.appCode).toBe("VALIDATION_ERROR");
    await api.session.update.mutate({ uiLanguage: "en" });
  });
});

describe("errors are mapped once, as in REST", () => {
  it("validation names the field; business rules, not found and conflicts keep their codes", async () => {
    const api = asBearer(admin);
    const account = await api.accounts.create.mutate({ name: "Errors", currency: "UZS" });
    const invalid = await failure(
      api.payments.create.mutate({ accountId: account.id, amount: "-5", date: DATE }),
    );
    expect(invalid.data).toMatchObject({ appCode: "VALIDATION_ERROR", httpStatus: 400 });
    expect(invalid.data.issues?.map((i) => i.path)).toContain("amount");
    const badDate = await failure(
      api.payments.create.mutate({ accountId: account.id, amount: "5", date: "2026-02-30" }),
    );
    expect(badDate.data.issues?.map((i) => i.path)).toContain("date");

    const short = await failure(
      api.expenses.create.mutate({ accountId: account.id, amount: "1", date: DATE }),
    );
    expect(short.data).toMatchObject({
      appCode: "BUSINESS_RULE",
      reason: "finance.insufficient_balance",
      httpStatus: 422,
    });
    const missing = await failure(api.accounts.get.query({ id: "01900000-0000-7000-8000-000000000000" }));
    expect(missing.data).toMatchObject({
      appCode: "NOT_FOUND",
      reason: "finance.account_not_found",
      httpStatus: 404,
    });
    const taken = await failure(api.accounts.create.mutate({ name: "Errors", currency: "UZS" }));
    expect(taken.data).toMatchObject({ appCode: "CONFLICT", reason: "finance.account_name_taken" });
    const notSelected = await failure(api.accounts.create.mutate({ name: "Euro", currency: "EUR" }));
    expect(notSelected.data.issues?.map((i) => i.path)).toEqual(["currency"]);
  });

  it("speaks the caller's language", async () => {
    const russian = await t.createUser((await t.createTenant()).id, "admin");
    await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: russian.headers,
      payload: { uiLanguage: "ru" },
    });
    const api = asBearer(russian);
    const account = await api.accounts.create.mutate({ name: "Касса", currency: "UZS" });
    const short = await failure(
      api.expenses.create.mutate({ accountId: account.id, amount: "1", date: DATE }),
    );
    expect(short.message).toBe("Недостаточно средств на счёте «Касса»: доступно 0,00\u00a0UZS.");
  });

  it("refuses hostile and malformed requests without a 500", async () => {
    const api = asBearer(admin);
    const huge = await failure(api.accounts.create.mutate({ name: "x".repeat(2_000_000), currency: "UZS" }));
    expect([400, 413]).toContain(huge.data?.httpStatus ?? 413);
    const injection = await failure(api.accounts.get.query({ id: "' OR 1=1 --" }));
    expect(injection.data.appCode).toBe("VALIDATION_ERROR");
    const extra = await failure(
      api.accounts.create.mutate({ name: "X", currency: "UZS", balance: "100" } as unknown as {
        name: string;
        currency: string;
      }),
    );
    expect(extra.data.issues?.map((i) => i.path)).toContain("balance");
    for (const [path, init] of [
      ["/trpc/no.such.procedure", { method: "GET" }],
      [
        "/trpc/accounts.create",
        { method: "POST", body: "{not json", headers: { "content-type": "application/json" } },
      ],
      ["/trpc/accounts.create", { method: "GET" }],
      ["/trpc/accounts.list?input=%7Bbroken", { method: "GET" }],
    ] as const) {
      const res = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          ...("headers" in init ? init.headers : {}),
          authorization: admin.headers.authorization ?? "",
        },
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

describe("one query by GET (answered without tRPC's Fetch adapter, decision 0104)", () => {
  it("answers exactly as tRPC's own resolveResponse: data, refusals, status and headers", async () => {
    // `batch=0` is a parameter tRPC ignores and the single-query path leaves to tRPC: the same call both ways.
    const both = async (path: string, headers: Record<string, string>) => {
      const [fast, own] = await Promise.all(
        [path, `${path}${path.includes("?") ? "&" : "?"}batch=0`].map(async (url) => {
          const res = await fetch(`${base}${url}`, { headers });
          return {
            status: res.status,
            vary: res.headers.get("vary"),
            type: res.headers.get("content-type"),
            authenticate: res.headers.get("www-authenticate"),
            body: (await res.json()) as { result?: unknown; error?: { data?: Record<string, unknown> } },
          };
        }),
      );
      // The request id differs per request; everything else must not.
      for (const answer of [fast, own]) delete answer?.body.error?.data?.requestId;
      expect(fast, path).toEqual(own);
      return fast;
    };
    const bearer = { authorization: admin.headers.authorization ?? "" };
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const page = await both("/trpc/accounts.list", bearer);
    expect(page?.status).toBe(200);
    expect(page?.body.result).toBeDefined();
    await both(`/trpc/accounts.list?input=${input({ limit: 5, sortBy: "name" })}`, bearer);
    const invalid = await both(`/trpc/accounts.get?input=${input({ id: "' OR 1=1 --" })}`, bearer);
    expect(invalid?.status).toBe(400);
    const missing = await both(`/trpc/accounts.get?input=${input({ id: crypto.randomUUID() })}`, bearer);
    expect(missing?.status).toBe(404);
    expect((await both("/trpc/accounts.list", {}))?.status).toBe(401);
    const refusedBearer = await both("/trpc/accounts.list", {
      authorization: "Bearer not-a-token-at-all-0000",
    });
    expect(refusedBearer?.status).toBe(401);
    expect(refusedBearer?.authenticate).toContain("invalid_token");
    const forbidden = await both("/trpc/accounts.list", {
      authorization: outsider.headers.authorization ?? "",
    });
    expect(forbidden?.status).toBe(403);
    const otherTenant = await both(`/trpc/accounts.get?input=${input({ id: crypto.randomUUID() })}`, {
      authorization: stranger.headers.authorization ?? "",
    });
    expect(otherTenant?.status).toBe(404);
  });
});

describe("every procedure checks the caller", () => {
  const ID = "01900000-0000-7000-8000-000000000000";
  const period = { startDate: "2026-01-01", endDate: "2026-12-31" };
  type Api = ReturnType<typeof clientFor>;
  const calls: Array<[string, (api: Api) => Promise<unknown>]> = [
    ["accounts.list", (api) => api.accounts.list.query({})],
    ["accounts.get", (api) => api.accounts.get.query({ id: ID })],
    ["accounts.create", (api) => api.accounts.create.mutate({ name: "N", currency: "UZS" })],
    ["accounts.update", (api) => api.accounts.update.mutate({ id: ID, data: { name: "N" } })],
    ["accounts.delete", (api) => api.accounts.delete.mutate({ id: ID })],
    ["accounts.openingBalance", (api) => api.accounts.openingBalance.query({ id: ID })],
    [
      "accounts.setOpeningBalance",
      (api) => api.accounts.setOpeningBalance.mutate({ id: ID, data: { amount: "1", date: DATE } }),
    ],
    ["transactions.list", (api) => api.transactions.list.query({ accountId: ID })],
    ["payments.list", (api) => api.payments.list.query({})],
    ["payments.totals", (api) => api.payments.totals.query({})],
    ["payments.get", (api) => api.payments.get.query({ id: ID })],
    ["payments.create", (api) => api.payments.create.mutate({ accountId: ID, amount: "1", date: DATE })],
    ["payments.update", (api) => api.payments.update.mutate({ id: ID, data: { amount: "1" } })],
    ["payments.delete", (api) => api.payments.delete.mutate({ id: ID })],
    ["expenses.list", (api) => api.expenses.list.query({})],
    ["expenses.totals", (api) => api.expenses.totals.query({})],
    ["expenses.get", (api) => api.expenses.get.query({ id: ID })],
    ["expenses.create", (api) => api.expenses.create.mutate({ accountId: ID, amount: "1", date: DATE })],
    ["expenses.update", (api) => api.expenses.update.mutate({ id: ID, data: { amount: "1" } })],
    ["expenses.delete", (api) => api.expenses.delete.mutate({ id: ID })],
    [
      "transfers.create",
      (api) =>
        api.transfers.create.mutate({
          fromAccountId: ID,
          toAccountId: ID.replace(/0$/, "1"),
          amount: "1",
          date: DATE,
        }),
    ],
    [
      "exchanges.create",
      (api) =>
        api.exchanges.create.mutate({
          fromAccountId: ID,
          toAccountId: ID.replace(/0$/, "1"),
          amount: "1",
          rate: "2",
          confirmRate: true,
          date: DATE,
        }),
    ],
    ["reports.incomeStatement", (api) => api.reports.incomeStatement.query(period)],
    ["reports.cashflow", (api) => api.reports.cashflow.query(period)],
    [
      "reports.accountStatement",
      (api) => api.reports.accountStatement.query({ accountId: ID, query: period }),
    ],
    ["reports.aging", (api) => api.reports.aging.query({ asOf: DATE })],
    [
      "reports.agingDebts",
      (api) =>
        api.reports.agingDebts.query({ asOf: DATE, kind: "receivable", currency: "UZS", bucket: "total" }),
    ],
    ["reports.balances", (api) => api.reports.balances.query({ date: DATE })],
    [
      "reports.counterpartyStatement",
      (api) => api.reports.counterpartyStatement.query({ counterpartyId: ID, query: period }),
    ],
    ["reconcile.run", (api) => api.reconcile.run.query()],
    ["periods.set", (api) => api.periods.set.mutate({ lockDate: null })],
    ["generalLedger.accounts", (api) => api.generalLedger.accounts.query()],
    ["generalLedger.installChart", (api) => api.generalLedger.installChart.mutate({ template: "nas21" })],
    [
      "generalLedger.createAccount",
      (api) =>
        api.generalLedger.createAccount.mutate({
          code: "1",
          nameEn: "N",
          nameRu: "N",
          nameUz: "N",
          type: "asset",
        }),
    ],
    [
      "generalLedger.updateAccount",
      (api) => api.generalLedger.updateAccount.mutate({ id: ID, data: { nameEn: "N" } }),
    ],
    [
      "generalLedger.moveAccount",
      (api) => api.generalLedger.moveAccount.mutate({ id: ID, data: { parentId: null } }),
    ],
    ["generalLedger.deleteAccount", (api) => api.generalLedger.deleteAccount.mutate({ id: ID })],
    ["generalLedger.mappings", (api) => api.generalLedger.mappings.query()],
    [
      "generalLedger.setMapping",
      (api) => api.generalLedger.setMapping.mutate({ kind: "moneyAccount", id: ID, glAccountId: null }),
    ],
    ["generalLedger.trialBalance", (api) => api.generalLedger.trialBalance.query(period)],
    [
      "generalLedger.generalLedger",
      (api) => api.generalLedger.generalLedger.query({ accountId: ID, query: period }),
    ],
    ["generalLedger.balanceSheet", (api) => api.generalLedger.balanceSheet.query({ date: DATE })],
    ["generalLedger.profitAndLoss", (api) => api.generalLedger.profitAndLoss.query(period)],
    ["journal.list", (api) => api.journal.list.query({})],
    ["journal.get", (api) => api.journal.get.query({ id: ID })],
    [
      "journal.create",
      (api) =>
        api.journal.create.mutate({
          date: DATE,
          lines: [
            { glAccountId: ID, debit: "1" },
            { glAccountId: ID, credit: "1" },
          ],
        }),
    ],
    ["journal.update", (api) => api.journal.update.mutate({ id: ID, data: { memo: "N" } })],
    ["journal.delete", (api) => api.journal.delete.mutate({ id: ID })],
    ["journal.post", (api) => api.journal.post.mutate({ id: ID })],
    ["journal.reverse", (api) => api.journal.reverse.mutate({ id: ID, data: { date: DATE } })],
    ["journal.previewRevaluation", (api) => api.journal.previewRevaluation.query({ date: DATE })],
    ["journal.revalue", (api) => api.journal.revalue.mutate({ date: DATE })],
    ["counterparties.list", (api) => api.counterparties.list.query({})],
    ["counterparties.create", (api) => api.counterparties.create.mutate({ name: "N" })],
    ["counterparties.delete", (api) => api.counterparties.delete.mutate({ id: ID })],
    ["paymentCategories.list", (api) => api.paymentCategories.list.query({})],
    ["expenseCategories.create", (api) => api.expenseCategories.create.mutate({ name: "N" })],
    ["debts.list", (api) => api.debts.list.query({})],
    [
      "debts.create",
      (api) => api.debts.create.mutate({ kind: "payable", counterpartyId: ID, amount: "1", currency: "UZS" }),
    ],
    [
      "debts.settle",
      (api) => api.debts.settle.mutate({ id: ID, data: { amount: "1", accountId: ID, date: DATE } }),
    ],
    ["debts.writeOff", (api) => api.debts.writeOff.mutate({ id: ID, data: { reason: "x" } })],
    ["debts.reverseSettlement", (api) => api.debts.reverseSettlement.mutate({ id: ID, settlementId: ID })],
    ["inventory.list", (api) => api.inventory.list.query({})],
    ["inventory.create", (api) => api.inventory.create.mutate({ name: "N", sku: "N-1", currency: "UZS" })],
    [
      "inventory.recordMovement",
      (api) =>
        api.inventory.recordMovement.mutate({ id: ID, data: { type: "receipt", quantity: "1", date: DATE } }),
    ],
    ["inventory.movements", (api) => api.inventory.movements.query({ id: ID })],
    ["exports.payments", (api) => api.exports.payments.query({})],
    ["exports.accounts", (api) => api.exports.accounts.query({})],
    ["exports.cashflow", (api) => api.exports.cashflow.query(period)],
    [
      "exports.accountStatement",
      (api) => api.exports.accountStatement.query({ accountId: ID, query: period }),
    ],
    ["exports.expenses", (api) => api.exports.expenses.query({})],
    ["exports.transactions", (api) => api.exports.transactions.query({ accountId: ID, query: {} })],
    ["exports.incomeStatement", (api) => api.exports.incomeStatement.query(period)],
    ["exports.debts", (api) => api.exports.debts.query({})],
    ["exports.aging", (api) => api.exports.aging.query({ asOf: DATE })],
    ["exports.balances", (api) => api.exports.balances.query({ date: DATE })],
    [
      "exports.counterpartyStatement",
      (api) => api.exports.counterpartyStatement.query({ counterpartyId: ID, query: period }),
    ],
    ["exports.counterparties", (api) => api.exports.counterparties.query({})],
    ["exports.inventory", (api) => api.exports.inventory.query({})],
    ["exports.trialBalance", (api) => api.exports.trialBalance.query(period)],
    ["exports.generalLedger", (api) => api.exports.generalLedger.query({ accountId: ID, query: period })],
    ["exports.balanceSheet", (api) => api.exports.balanceSheet.query({ date: DATE })],
    ["exports.profitAndLoss", (api) => api.exports.profitAndLoss.query(period)],
    ["counterparties.get", (api) => api.counterparties.get.query({ id: ID })],
    ["counterparties.update", (api) => api.counterparties.update.mutate({ id: ID, data: { name: "N" } })],
    ["paymentCategories.get", (api) => api.paymentCategories.get.query({ id: ID })],
    ["paymentCategories.create", (api) => api.paymentCategories.create.mutate({ name: "N" })],
    [
      "paymentCategories.update",
      (api) => api.paymentCategories.update.mutate({ id: ID, data: { name: "N" } }),
    ],
    ["paymentCategories.delete", (api) => api.paymentCategories.delete.mutate({ id: ID })],
    ["expenseCategories.list", (api) => api.expenseCategories.list.query({})],
    ["expenseCategories.get", (api) => api.expenseCategories.get.query({ id: ID })],
    [
      "expenseCategories.update",
      (api) => api.expenseCategories.update.mutate({ id: ID, data: { name: "N" } }),
    ],
    ["expenseCategories.delete", (api) => api.expenseCategories.delete.mutate({ id: ID })],
    ["debts.get", (api) => api.debts.get.query({ id: ID })],
    ["debts.history", (api) => api.debts.history.query({ id: ID })],
    ["currencies.select", (api) => api.currencies.select.mutate({ codes: ["UZS"] })],
    ["settings.update", (api) => api.settings.update.mutate({ baseCurrency: "UZS" })],
    ["debts.update", (api) => api.debts.update.mutate({ id: ID, data: { description: "N" } })],
    ["debts.delete", (api) => api.debts.delete.mutate({ id: ID })],
    ["inventory.get", (api) => api.inventory.get.query({ id: ID })],
    ["inventory.update", (api) => api.inventory.update.mutate({ id: ID, data: { name: "N" } })],
    ["inventory.delete", (api) => api.inventory.delete.mutate({ id: ID })],
    ["transfers.update", (api) => api.transfers.update.mutate({ id: ID, data: { comment: "N" } })],
    ["transfers.reverse", (api) => api.transfers.reverse.mutate({ id: ID, data: { reason: "N" } })],
    ["exchanges.update", (api) => api.exchanges.update.mutate({ id: ID, data: { comment: "N" } })],
    ["exchanges.reverse", (api) => api.exchanges.reverse.mutate({ id: ID, data: { reason: "N" } })],
    // The modules' records: the same five procedures each, over the record building block.
    ...(
      [
        ["crm.clients", { name: "N" }],
        ["crm.chats", { clientId: ID, channel: "phone" }],
        ["warehouse.products", { sku: "N-1", name: "N", currency: "UZS" }],
        ["warehouse.locations", { code: "N", name: "N" }],
        [
          "warehouse.orders",
          {
            kind: "sales",
            locationId: ID,
            currency: "UZS",
            date: DATE,
            lines: [{ productId: ID, quantity: "1" }],
          },
        ],
        ["projects.projects", { name: "N", currency: "UZS" }],
        ["hrm.employees", { firstName: "N", lastName: "N", hireDate: DATE }],
      ] as const
    ).flatMap(([path, create]): Array<[string, (api: Api) => Promise<unknown>]> => {
      const [module, record] = path.split(".") as [string, string];
      // biome-ignore lint/suspicious/noExplicitAny: one loop over seven differently typed routers
      const procedures = (api: Api) => (api as any)[module][record];
      return [
        [`${path}.list`, (api) => procedures(api).list.query({})],
        [`${path}.get`, (api) => procedures(api).get.query({ id: ID })],
        [`${path}.create`, (api) => procedures(api).create.mutate(create)],
        [`${path}.update`, (api) => procedures(api).update.mutate({ id: ID, data: {} })],
        [`${path}.delete`, (api) => procedures(api).delete.mutate({ id: ID })],
      ];
    }),
    ["crm.chats.messages", (api) => api.crm.chats.messages.query({ id: ID })],
    ["crm.chats.postMessage", (api) => api.crm.chats.postMessage.mutate({ id: ID, message: { body: "N" } })],
    ["warehouse.stock.list", (api) => api.warehouse.stock.list.query({})],
    [
      "warehouse.stock.adjust",
      (api) => api.warehouse.stock.adjust.mutate({ productId: ID, locationId: ID, change: "1", reason: "N" }),
    ],
    ["warehouse.orders.confirm", (api) => api.warehouse.orders.confirm.mutate({ id: ID })],
    ["warehouse.orders.cancel", (api) => api.warehouse.orders.cancel.mutate({ id: ID })],
    ["warehouse.orders.fulfil", (api) => api.warehouse.orders.fulfil.mutate({ id: ID })],
    ["projects.stages.list", (api) => api.projects.stages.list.query({ id: ID })],
    ["projects.stages.add", (api) => api.projects.stages.add.mutate({ id: ID, stage: { name: "N" } })],
    [
      "projects.stages.reorder",
      (api) => api.projects.stages.reorder.mutate({ id: ID, order: { stageIds: [ID] } }),
    ],
    ["projects.stages.update", (api) => api.projects.stages.update.mutate({ id: ID, data: { done: true } })],
    ["projects.stages.delete", (api) => api.projects.stages.delete.mutate({ id: ID })],
  ];

  it("the sweep covers every procedure that needs a permission", () => {
    // Signed-in users may read who they are, change their own language or name, read their
    // organization's currencies, settings and the global currency list, and list or revoke the
    // applications they themselves allowed, without one.
    const open = new Set([
      "session.me",
      "session.update",
      "currencies.selected",
      "currencies.all",
      "settings.get",
      "periods.get",
      "consents.list",
      "consents.revoke",
    ]);
    const swept = new Set(calls.map(([name]) => name));
    const missing = Object.keys(appRouter._def.procedures).filter(
      (name) => !open.has(name) && !swept.has(name),
    );
    expect(missing).toEqual([]);
  });

  it.each(calls)("%s: 401 without credentials, 403 without the permission", async (_name, call) => {
    const anonymous = await failure(call(clientFor()));
    expect(anonymous.data).toMatchObject({ appCode: "UNAUTHENTICATED", httpStatus: 401 });
    const expired = await failure(call(clientFor({ authorization: "Bearer not-a-real-token" })));
    expect(expired.data.appCode).toBe("UNAUTHENTICATED");
    const forbidden = await failure(call(asBearer(outsider)));
    expect(forbidden.data).toMatchObject({ appCode: "FORBIDDEN", httpStatus: 403 });
  });

  it("another tenant's records are not found through tRPC either", async () => {
    const api = asBearer(admin);
    const account = await api.accounts.create.mutate({ name: "Private", currency: "UZS" });
    const payment = await api.payments.create.mutate({ accountId: account.id, amount: "5", date: DATE });
    const foreign = asBearer(stranger);
    for (const call of [
      () => foreign.accounts.get.query({ id: account.id }),
      () => foreign.accounts.update.mutate({ id: account.id, data: { name: "Mine" } }),
      () => foreign.transactions.list.query({ accountId: account.id }),
      () => foreign.payments.get.query({ id: payment.id }),
      () => foreign.payments.delete.mutate({ id: payment.id }),
      () => foreign.reports.accountStatement.query({ accountId: account.id, query: period }),
    ]) {
      expect((await failure(call())).data.appCode).toBe("NOT_FOUND");
    }
    expect((await foreign.payments.list.query({})).items.map((p) => p.id)).not.toContain(payment.id);
    expect((await api.accounts.get.query({ id: account.id })).balance).toBe("5");
  });
});
