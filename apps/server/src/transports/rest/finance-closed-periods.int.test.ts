import { formatCalendarDate } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import type { AppRouter } from "@hisob/trpc";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caller, expectError } from "../../testing/finance-records";
import type { ErrorResponse } from "../../testing/rest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { gql, listen } from "../graphql/graphql-test-kit";

/*
 * Closed periods (docs/decisions/0094-closed-periods.md): with the books closed through LOCK, every
 * write route and procedure is refused for a date on or before it — a new record dated then, a change
 * to or from such a date, a reversal or deletion of such a record — naming the lock date, and nothing
 * at all is written; a date after it still posts; only `periods:update:all` moves the lock, audited.
 * Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let t: TestApp;
let base: string;
let graphqlUrl: string;
let tenantId: string;
let admin: SeededUser;
let clerk: SeededUser;
const call = caller(() => t);

const CLOSED = "2026-10-15";
const LOCK = "2026-10-31";
const OPEN = "2026-11-05";
const today = () => new Date().toISOString().slice(0, 10);
/** The lock date as an English message writes it ("Oct 31, 2026"): the refusal carries it as data. */
const written = (day: string, locale: Locale = "en") => formatCalendarDate(day, locale);

const trpcFor = (user: SeededUser) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${base}/trpc`, headers: { authorization: user.headers.authorization ?? "" } })],
  });

type TrpcData = { appCode: string; reason: string; issues?: Array<{ path: string; message: string }> };
const trpcFailure = async (promise: Promise<unknown>): Promise<{ message: string; data: TrpcData }> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TRPCClientError);
    const clientError = error as TRPCClientError<AppRouter>;
    return { message: clientError.message, data: clientError.data as unknown as TrpcData };
  }
  throw new Error("expected the call to fail");
};

/** Everything a write could leave behind, in the tenant: rows, balances, audit entries, events. */
const footprint = () =>
  t.db.withTenant(tenantId, async (tx) => {
    const [row] = await tx.$queryRawUnsafe<Record<string, string>[]>(`
      SELECT (SELECT count(*) FROM transactions)::text AS transactions,
             (SELECT count(*) FROM payments)::text AS payments,
             (SELECT count(*) FROM expenses)::text AS expenses,
             (SELECT count(*) FROM debts)::text AS debts,
             (SELECT count(*) FROM debt_settlements)::text AS settlements,
             (SELECT count(*) FROM inventory_movements)::text AS movements,
             (SELECT string_agg(id::text || '=' || balance::text, ',' ORDER BY id) FROM money_accounts) AS balances,
             (SELECT string_agg(id::text || '=' || updated_at::text || status::text, ',' ORDER BY id) FROM debts) AS debt_rows,
             (SELECT string_agg(id::text || '=' || date::text || comment, ',' ORDER BY id) FROM transactions) AS entries,
             (SELECT count(*) FROM audit_log)::text AS audit,
             (SELECT count(*) FROM outbox_events)::text AS events`);
    return row;
  });

const expectClosed = (res: ErrorResponse, field: string | null, lock = LOCK) => {
  const error =
    field === null
      ? expectError(res, 422, "BUSINESS_RULE", "finance.period_closed")
      : expectError(res, 400, "VALIDATION_ERROR", "finance.period_closed");
  expect(error.message).toContain(written(lock));
  if (field !== null) {
    expect(error.issues?.map((issue) => issue.path)).toEqual([field]);
    expect((error.issues?.[0] as { message?: string } | undefined)?.message).toContain(written(lock));
  }
  return error;
};

const post = async (user: SeededUser, method: "POST" | "PUT" | "DELETE", url: string, body?: unknown) => {
  const res = await call(user, method, url, body);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return (res.body ? res.json() : {}) as { id: string } & Record<string, unknown>;
};

const setLock = async (lockDate: string | null) => {
  const res = await call(admin, "PUT", "/finance/closed-period", { lockDate });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ lockDate, canMove: true });
};

/** Records dated in what becomes the closed period, made while it is still open. */
const fixture = {} as {
  uzs: string;
  uzs2: string;
  usd: string;
  opened: string;
  payment: string;
  openPayment: string;
  expense: string;
  transfer: string;
  exchange: string;
  debt: string;
  settlement: string;
  item: string;
  counterparty: string;
};

beforeAll(async () => {
  t = await createTestApp();
  ({ httpUrl: graphqlUrl } = await listen(t));
  base = graphqlUrl.replace(/\/api\/graphql$/, "");
  tenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  clerk = await t.createUser(tenantId, [
    "payments:create:all",
    "payments:read:all",
    "accounts:read:all",
    "debts:read:all",
  ]);
  await post(admin, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
  const account = async (currency: string) =>
    (await post(admin, "POST", "/finance/accounts", { name: `Cash ${currency} ${Math.random()}`, currency }))
      .id;
  fixture.uzs = await account("UZS");
  fixture.uzs2 = await account("UZS");
  fixture.usd = await account("USD");
  fixture.opened = await account("UZS");
  await post(admin, "PUT", `/finance/accounts/${fixture.opened}/opening-balance`, {
    amount: "5000",
    date: "2026-10-01",
  });
  await post(admin, "POST", "/finance/payments", {
    accountId: fixture.uzs,
    amount: "1000000",
    date: "2026-10-01",
  });
  await post(admin, "POST", "/finance/payments", {
    accountId: fixture.usd,
    amount: "100000",
    date: "2026-10-01",
  });
  fixture.payment = (
    await post(admin, "POST", "/finance/payments", { accountId: fixture.uzs, amount: "300", date: CLOSED })
  ).id;
  fixture.openPayment = (
    await post(admin, "POST", "/finance/payments", { accountId: fixture.uzs, amount: "300", date: OPEN })
  ).id;
  fixture.expense = (
    await post(admin, "POST", "/finance/expenses", { accountId: fixture.uzs, amount: "200", date: CLOSED })
  ).id;
  fixture.transfer = (
    await post(admin, "POST", "/finance/transfers", {
      fromAccountId: fixture.uzs,
      toAccountId: fixture.uzs2,
      amount: "100",
      date: CLOSED,
    })
  ).id;
  fixture.exchange = (
    await post(admin, "POST", "/finance/exchanges", {
      fromAccountId: fixture.usd,
      toAccountId: fixture.uzs,
      amount: "100",
      amountReceived: "1250000",
      confirmRate: true,
      date: CLOSED,
    })
  ).id;
  fixture.counterparty = (await post(admin, "POST", "/finance/counterparties", { name: "Buyer" })).id;
  fixture.debt = (
    await post(admin, "POST", "/finance/debts", {
      kind: "receivable",
      counterpartyId: fixture.counterparty,
      amount: "900",
      currency: "UZS",
    })
  ).id;
  const settled = await post(admin, "POST", `/finance/debts/${fixture.debt}/settle`, {
    amount: "100",
    accountId: fixture.uzs,
    date: CLOSED,
  });
  fixture.settlement = (settled.settlement as { id: string }).id;
  fixture.item = (
    await post(admin, "POST", "/finance/inventory", { name: "Bolt", sku: "BOLT-1", currency: "UZS" })
  ).id;
  await post(admin, "POST", `/finance/inventory/${fixture.item}/movements`, {
    type: "receipt",
    quantity: "10",
    date: CLOSED,
  });
  await setLock(LOCK);
});

afterAll(async () => {
  await t?.close();
});

describe("moving the lock", () => {
  it("needs periods:update:all; anyone signed in reads it; each move is audited", async () => {
    expect((await call(clerk, "GET", "/finance/closed-period")).json()).toEqual({
      lockDate: LOCK,
      canMove: false,
    });
    expectError(await call(clerk, "PUT", "/finance/closed-period", { lockDate: null }), 403, "FORBIDDEN");
    const refused = await trpcFailure(trpcFor(clerk).periods.set.mutate({ lockDate: null }));
    expect(refused.data.appCode).toBe("FORBIDDEN");
    expect(await trpcFor(clerk).periods.get.query()).toEqual({ lockDate: LOCK, canMove: false });
    expect((await call(admin, "GET", "/finance/closed-period")).json()).toEqual({
      lockDate: LOCK,
      canMove: true,
    });
    const moves = await t.db.withTenant(tenantId, (tx) =>
      tx.$queryRawUnsafe(
        "SELECT action, after FROM audit_log WHERE entity = 'closed_period' ORDER BY occurred_at, id",
      ),
    );
    expect(moves).toEqual([{ action: "update", after: { lockDate: LOCK } }]);
  });

  it("refuses a lock after today, a date that is not one, and unknown fields", async () => {
    const future = expectError(
      await call(admin, "PUT", "/finance/closed-period", { lockDate: "2999-01-01" }),
      400,
      "VALIDATION_ERROR",
      "finance.period_lock_in_future",
    );
    expect(future.issues?.map((issue) => issue.path)).toEqual(["lockDate"]);
    for (const body of [{ lockDate: "2026-02-30" }, { lockDate: 5 }, {}, { lockDate: LOCK, extra: 1 }]) {
      expectError(await call(admin, "PUT", "/finance/closed-period", body), 400, "VALIDATION_ERROR");
    }
    expect((await call(admin, "GET", "/finance/closed-period")).json()).toMatchObject({ lockDate: LOCK });
  });
});

describe("REST: every write dated on or before the lock is refused and writes nothing", () => {
  const f = fixture;
  const cases: Array<
    [string, () => [SeededUser, "POST" | "PUT" | "DELETE", string, unknown], string | null]
  > = [
    [
      "a payment dated the lock day",
      () => [admin, "POST", "/finance/payments", { accountId: f.uzs, amount: "5", date: LOCK }],
      "date",
    ],
    [
      "an expense dated before it",
      () => [admin, "POST", "/finance/expenses", { accountId: f.uzs, amount: "5", date: CLOSED }],
      "date",
    ],
    [
      "a change of a closed payment",
      () => [admin, "PUT", `/finance/payments/${f.payment}`, { comment: "late" }],
      null,
    ],
    [
      "moving an open payment into the closed period",
      () => [admin, "PUT", `/finance/payments/${f.openPayment}`, { date: LOCK }],
      "date",
    ],
    ["deleting a closed payment", () => [admin, "DELETE", `/finance/payments/${f.payment}`, undefined], null],
    ["deleting a closed expense", () => [admin, "DELETE", `/finance/expenses/${f.expense}`, undefined], null],
    [
      "a change of a closed expense",
      () => [admin, "PUT", `/finance/expenses/${f.expense}`, { amount: "1" }],
      null,
    ],
    [
      "a transfer dated the lock day",
      () => [
        admin,
        "POST",
        "/finance/transfers",
        { fromAccountId: f.uzs, toAccountId: f.uzs2, amount: "5", date: LOCK },
      ],
      "date",
    ],
    [
      "an exchange dated before it",
      () => [
        admin,
        "POST",
        "/finance/exchanges",
        {
          fromAccountId: f.usd,
          toAccountId: f.uzs,
          amount: "10",
          amountReceived: "125000",
          confirmRate: true,
          date: CLOSED,
        },
      ],
      "date",
    ],
    [
      "reversing a closed transfer, even on an open day",
      () => [admin, "POST", `/finance/transfers/${f.transfer}/reversal`, { reason: "wrong", date: OPEN }],
      null,
    ],
    [
      "reversing a closed exchange",
      () => [admin, "POST", `/finance/exchanges/${f.exchange}/reversal`, { reason: "wrong" }],
      null,
    ],
    [
      "a change of a closed transfer",
      () => [admin, "PUT", `/finance/transfers/${f.transfer}`, { comment: "late" }],
      null,
    ],
    [
      "a change of a closed exchange's date",
      () => [admin, "PUT", `/finance/exchanges/${f.exchange}`, { date: OPEN }],
      null,
    ],
    [
      "a debt settled on a closed day",
      () => [admin, "POST", `/finance/debts/${f.debt}/settle`, { amount: "5", accountId: f.uzs, date: LOCK }],
      "date",
    ],
    [
      "reversing a settlement dated in the closed period",
      () => [admin, "DELETE", `/finance/debts/${f.debt}/settlements/${f.settlement}`, undefined],
      null,
    ],
    [
      "an inventory movement dated before it",
      () => [
        admin,
        "POST",
        `/finance/inventory/${f.item}/movements`,
        { type: "issue", quantity: "1", date: CLOSED },
      ],
      "date",
    ],
    [
      "an opening balance dated before it",
      () => [admin, "PUT", `/finance/accounts/${f.uzs2}/opening-balance`, { amount: "5", date: CLOSED }],
      "date",
    ],
    [
      "moving a closed opening balance out of the period",
      () => [admin, "PUT", `/finance/accounts/${f.opened}/opening-balance`, { amount: "5000", date: OPEN }],
      null,
    ],
    [
      "removing a closed opening balance",
      () => [admin, "PUT", `/finance/accounts/${f.opened}/opening-balance`, { amount: "0", date: OPEN }],
      null,
    ],
  ];

  it.each(cases)("%s", async (_name, request, field) => {
    const before = await footprint();
    const [user, method, url, body] = request();
    expectClosed(await call(user, method, url, body), field);
    expect(await footprint()).toEqual(before);
  });

  it("names the lock date in the caller's language, written as that language writes dates", async () => {
    const expected: Record<Locale, string> = {
      en: "The books are closed through Oct 31, 2026",
      ru: `Книги закрыты по ${written(LOCK, "ru")} включительно`,
      uz: "Hisob kitoblari 31.10.2026 kuni bilan yopilgan",
    };
    const issue: Record<Locale, string> = {
      en: "must be after Oct 31, 2026: the books are closed through that day",
      ru: `должна быть позже ${written(LOCK, "ru")}: книги закрыты по этот день включительно`,
      uz: "31.10.2026 dan keyin boʻlishi kerak: hisob kitoblari shu kun bilan yopilgan",
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const speaker = await t.createUser(tenantId, ["payments:create:all"]);
      await t.db.withTenant(tenantId, (tx) =>
        tx.user.update({ where: { id: speaker.id }, data: { uiLanguage: locale } }),
      );
      const res = await call(speaker, "POST", "/finance/payments", {
        accountId: fixture.uzs,
        amount: "5",
        date: LOCK,
      });
      const error = expectError(res, 400, "VALIDATION_ERROR", "finance.period_closed");
      expect(error.message).toContain(expected[locale]);
      expect(error.issues).toEqual([{ path: "date", message: issue[locale] }]);
    }
  });

  it("a debt, its change, deletion and write-off are dated the day they are made: refused while today is closed", async () => {
    const pending = await post(admin, "POST", "/finance/debts", {
      kind: "payable",
      counterpartyId: fixture.counterparty,
      amount: "50",
      currency: "UZS",
    });
    await setLock(today());
    try {
      const before = await footprint();
      expectClosed(
        await call(admin, "POST", "/finance/debts", {
          kind: "payable",
          counterpartyId: fixture.counterparty,
          amount: "50",
          currency: "UZS",
        }),
        null,
        today(),
      );
      expectClosed(
        await call(admin, "PUT", `/finance/debts/${pending.id}`, { description: "x" }),
        null,
        today(),
      );
      expectClosed(await call(admin, "DELETE", `/finance/debts/${pending.id}`), null, today());
      expectClosed(
        await call(admin, "POST", `/finance/debts/${pending.id}/write-off`, { reason: "gone" }),
        null,
        today(),
      );
      expect(await footprint()).toEqual(before);
    } finally {
      await setLock(LOCK);
    }
  });

  it("a date after the lock still posts, changes and deletes", async () => {
    const payment = await post(admin, "POST", "/finance/payments", {
      accountId: fixture.uzs,
      amount: "7",
      date: OPEN,
    });
    await post(admin, "PUT", `/finance/payments/${payment.id}`, { comment: "fine" });
    await post(admin, "DELETE", `/finance/payments/${payment.id}`);
    const transfer = await post(admin, "POST", "/finance/transfers", {
      fromAccountId: fixture.uzs,
      toAccountId: fixture.uzs2,
      amount: "5",
      date: OPEN,
    });
    await post(admin, "POST", `/finance/transfers/${transfer.id}/reversal`, { reason: "undo" });
    await post(admin, "POST", "/finance/exchanges", {
      fromAccountId: fixture.usd,
      toAccountId: fixture.uzs,
      amount: "10",
      amountReceived: "125000",
      confirmRate: true,
      date: OPEN,
    });
    const settled = await post(admin, "POST", `/finance/debts/${fixture.debt}/settle`, {
      amount: "5",
      accountId: fixture.uzs,
      date: OPEN,
    });
    await post(
      admin,
      "DELETE",
      `/finance/debts/${fixture.debt}/settlements/${(settled.settlement as { id: string }).id}`,
    );
    await post(admin, "POST", `/finance/inventory/${fixture.item}/movements`, {
      type: "issue",
      quantity: "1",
      date: OPEN,
    });
    const fresh = await post(admin, "POST", "/finance/accounts", { name: "Fresh", currency: "UZS" });
    await post(admin, "PUT", `/finance/accounts/${fresh.id}/opening-balance`, { amount: "10", date: OPEN });
    expect((await call(admin, "GET", "/finance/reconcile")).json()).toMatchObject({ ok: true });
  });

  it("moving the lock back opens the days between again", async () => {
    await setLock("2026-10-10");
    const payment = await post(admin, "POST", "/finance/payments", {
      accountId: fixture.uzs,
      amount: "3",
      date: CLOSED,
    });
    await post(admin, "DELETE", `/finance/payments/${payment.id}`);
    expectClosed(
      await call(admin, "POST", "/finance/payments", {
        accountId: fixture.uzs,
        amount: "3",
        date: "2026-10-10",
      }),
      "date",
      "2026-10-10",
    );
    await setLock(LOCK);
  });
});

describe("tRPC and GraphQL: the same refusals", () => {
  it("tRPC procedures refuse a closed date with the field error and write nothing", async () => {
    const api = trpcFor(admin);
    const before = await footprint();
    const calls: Array<[() => Promise<unknown>, string | null]> = [
      [() => api.payments.create.mutate({ accountId: fixture.uzs, amount: "5", date: LOCK }), "date"],
      [() => api.expenses.create.mutate({ accountId: fixture.uzs, amount: "5", date: CLOSED }), "date"],
      [() => api.payments.update.mutate({ id: fixture.payment, data: { comment: "late" } }), null],
      [() => api.payments.delete.mutate({ id: fixture.payment }), null],
      [() => api.expenses.delete.mutate({ id: fixture.expense }), null],
      [
        () =>
          api.transfers.create.mutate({
            fromAccountId: fixture.uzs,
            toAccountId: fixture.uzs2,
            amount: "5",
            date: LOCK,
          }),
        "date",
      ],
      [
        () =>
          api.exchanges.create.mutate({
            fromAccountId: fixture.usd,
            toAccountId: fixture.uzs,
            amount: "10",
            amountReceived: "125000",
            confirmRate: true,
            date: CLOSED,
          }),
        "date",
      ],
      [() => api.transfers.reverse.mutate({ id: fixture.transfer, data: { reason: "x" } }), null],
      [() => api.exchanges.update.mutate({ id: fixture.exchange, data: { comment: "x" } }), null],
      [
        () =>
          api.debts.settle.mutate({
            id: fixture.debt,
            data: { amount: "5", accountId: fixture.uzs, date: LOCK },
          }),
        "date",
      ],
      [
        () => api.debts.reverseSettlement.mutate({ id: fixture.debt, settlementId: fixture.settlement }),
        null,
      ],
      [
        () =>
          api.inventory.recordMovement.mutate({
            id: fixture.item,
            data: { type: "receipt", quantity: "1", date: CLOSED },
          }),
        "date",
      ],
      [
        () =>
          api.accounts.setOpeningBalance.mutate({ id: fixture.uzs2, data: { amount: "5", date: CLOSED } }),
        "date",
      ],
    ];
    for (const [attempt, field] of calls) {
      const { message, data } = await trpcFailure(attempt());
      expect(data.reason, message).toBe("finance.period_closed");
      expect(message).toContain(written(LOCK));
      if (field) expect(data.issues?.map((issue) => issue.path)).toEqual([field]);
    }
    expect(await footprint()).toEqual(before);
  });

  it("GraphQL mutations refuse a closed date and write nothing; an open one posts", async () => {
    const before = await footprint();
    for (const mutation of ["createPayment", "recordExpense"]) {
      const res = await gql(
        graphqlUrl,
        `mutation($input: DocumentInput!) { ${mutation}(input: $input) { id } }`,
        { headers: admin.headers, variables: { input: { accountId: fixture.uzs, amount: "5", date: LOCK } } },
      );
      // GraphQL's message is the English source text (the ISO day); the caller's language is in localizedMessage.
      expect(res.body.errors?.[0]?.message).toContain(LOCK);
      expect(res.body.errors?.[0]?.extensions?.localizedMessage).toContain(written(LOCK));
      expect(res.body.errors?.[0]?.extensions).toMatchObject({
        code: "VALIDATION_ERROR",
        reason: "finance.period_closed",
      });
    }
    expect(await footprint()).toEqual(before);
    const ok = await gql(
      graphqlUrl,
      "mutation($input: DocumentInput!) { createPayment(input: $input) { id } }",
      {
        headers: admin.headers,
        variables: { input: { accountId: fixture.uzs, amount: "5", date: OPEN } },
      },
    );
    expect(ok.body.errors).toBeUndefined();
  });
});

describe("the lock date over GraphQL (catalog operations periods.get and periods.set)", () => {
  const read = "{ closedPeriod { lockDate canMove } }";
  const move = "mutation($lockDate: String) { setClosedPeriod(lockDate: $lockDate) { lockDate canMove } }";

  it("reads it for any signed-in user, moves it with periods:update:all, refuses others and bad days", async () => {
    await setLock(LOCK);
    const byAdmin = await gql(graphqlUrl, read, { headers: admin.headers });
    expect(byAdmin.body).toEqual({ data: { closedPeriod: { lockDate: LOCK, canMove: true } } });
    const byClerk = await gql(graphqlUrl, read, { headers: clerk.headers });
    expect(byClerk.body).toEqual({ data: { closedPeriod: { lockDate: LOCK, canMove: false } } });

    const refused = await gql(graphqlUrl, move, { headers: clerk.headers, variables: { lockDate: null } });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
    for (const lockDate of ["2026-02-30", "2999-01-01"]) {
      const bad = await gql(graphqlUrl, move, { headers: admin.headers, variables: { lockDate } });
      expect(bad.body.errors?.[0]?.extensions, lockDate).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    // Absent is not null: opening every period must be said.
    const absent = await gql(graphqlUrl, "mutation { setClosedPeriod { lockDate } }", {
      headers: admin.headers,
    });
    expect(absent.body.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await call(admin, "GET", "/finance/closed-period")).json()).toEqual({
      lockDate: LOCK,
      canMove: true,
    });

    const moved = await gql(graphqlUrl, move, { headers: admin.headers, variables: { lockDate: CLOSED } });
    expect(moved.body).toEqual({ data: { setClosedPeriod: { lockDate: CLOSED, canMove: true } } });
    expect((await call(admin, "GET", "/finance/closed-period")).json()).toEqual({
      lockDate: CLOSED,
      canMove: true,
    });
    const opened = await gql(graphqlUrl, move, { headers: admin.headers, variables: { lockDate: null } });
    expect(opened.body).toEqual({ data: { setClosedPeriod: { lockDate: null, canMove: true } } });
    await setLock(LOCK);
  });
});

describe("a posting racing a lock move", () => {
  it("each posting either commits or is refused naming the new date; what committed is all there is, and nothing joins it after", async () => {
    await setLock(null);
    const race = "2026-11-10";
    const postings = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0
        ? call(admin, "POST", "/finance/payments", { accountId: fixture.uzs, amount: "1", date: race })
        : call(admin, "POST", "/finance/transfers", {
            fromAccountId: fixture.uzs,
            toAccountId: fixture.uzs2,
            amount: "1",
            date: race,
          }),
    );
    const move = call(admin, "PUT", "/finance/closed-period", { lockDate: race });
    const results = await Promise.all(postings);
    expect((await move).statusCode).toBe(200);
    for (const res of results) {
      if (res.statusCode >= 300) expectClosed(res, "date", race);
    }
    const posted = results.filter((res) => res.statusCode < 300).length;
    const stored = await t.db.withTenant(tenantId, (tx) =>
      tx.$queryRawUnsafe<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM transactions WHERE date = $1::date",
        race,
      ),
    );
    expect(stored[0]?.n).toBe(posted);
    expect((await call(admin, "GET", "/finance/reconcile")).json()).toMatchObject({ ok: true });
    expectClosed(
      await call(admin, "POST", "/finance/payments", { accountId: fixture.uzs, amount: "1", date: race }),
      "date",
      race,
    );
    await setLock(LOCK);
  });
});
