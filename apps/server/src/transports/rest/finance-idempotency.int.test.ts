import { newId } from "@hisob/kernel";
import type { AppRouter } from "@hisob/trpc";
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from "@trpc/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { caller, expectError, TODAY, unique } from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, gql, listen } from "../graphql/graphql-test-kit";

/*
 * One posting per intent: a posting sent with an `Idempotency-Key` is made once, however often the
 * request comes (a double click, a retry after a lost answer, two at the same moment), over REST,
 * tRPC and GraphQL alike; the key on another request is refused; a refused posting leaves its key
 * free for the corrected one. On PGlite, or PostgreSQL with DATABASE_URL (where the concurrent
 * repeats really run at once).
 */

let t: TestApp;
let graphqlUrl: string;
let trpcUrl: string;
let user: SeededUser;
let tenantId: string;
const call = caller(() => t);

const withKey = (who: SeededUser, key: string) => ({ ...who.headers, "idempotency-key": key });
const post = (who: SeededUser, url: string, body: unknown, key: string) =>
  t.app.inject({ method: "POST", url, headers: withKey(who, key), payload: body as Record<string, unknown> });
const count = (table: "payment" | "expense" | "financeTransaction") =>
  t.db.withTenant(tenantId, (tx) =>
    table === "payment"
      ? tx.payment.count()
      : table === "expense"
        ? tx.expense.count()
        : tx.financeTransaction.count(),
  );
const account = async (currency: string, funds?: string) => {
  const res = await call(user, "POST", "/finance/accounts", { name: unique("Account"), currency });
  expect(res.statusCode, res.body).toBe(201);
  const { id } = res.json() as { id: string };
  if (funds) {
    const paid = await call(user, "POST", "/finance/payments", { accountId: id, amount: funds, date: TODAY });
    expect(paid.statusCode, paid.body).toBe(201);
  }
  return id;
};
const balance = async (id: string): Promise<string> =>
  (await call(user, "GET", `/finance/accounts/${id}`)).json().balance;

beforeAll(async () => {
  t = await createTestApp();
  const listening = await listen(t);
  graphqlUrl = listening.httpUrl;
  trpcUrl = `http://127.0.0.1:${listening.port}/trpc`;
  tenantId = (await t.createTenant()).id;
  user = await t.createUser(tenantId, "admin");
  const res = await call(user, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] });
  expect(res.statusCode, res.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe("REST", () => {
  it("a repeated expense with one key posts once and answers the same document each time", async () => {
    const cash = await account("UZS", "1000000");
    const body = { accountId: cash, amount: "100", date: TODAY, comment: unique("Double click") };
    const key = newId();
    const before = await count("expense");
    const first = await post(user, "/finance/expenses", body, key);
    const second = await post(user, "/finance/expenses", body, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(await count("expense")).toBe(before + 1);
    expect(await balance(cash)).toBe("999900");
    // A new key is a new intent: posted.
    expect((await post(user, "/finance/expenses", body, newId())).statusCode).toBe(201);
    expect(await count("expense")).toBe(before + 2);
    // Without a key nothing changes: every request posts.
    expect((await call(user, "POST", "/finance/expenses", body)).statusCode).toBe(201);
    expect(await count("expense")).toBe(before + 3);
  });

  it("requests with the same key at the same moment post once; every one gets that posting", async () => {
    const cash = await account("UZS");
    const key = newId();
    const body = { accountId: cash, amount: "250", date: TODAY, comment: unique("Retry storm") };
    const before = await count("payment");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(user, "/finance/payments", body, key)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect(await count("payment")).toBe(before + 1);
    expect(await balance(cash)).toBe("250");
  });

  it("the same key on another request is refused (422), on another operation too, and posts nothing", async () => {
    const cash = await account("UZS", "1000000");
    const key = newId();
    const body = { accountId: cash, amount: "100", date: TODAY };
    expect((await post(user, "/finance/expenses", body, key)).statusCode).toBe(201);
    const before = await count("financeTransaction");
    const other = await post(user, "/finance/expenses", { ...body, amount: "101" }, key);
    const error = expectError(other, 422, "BUSINESS_RULE", "idempotency.key_reused");
    expect(error.message).toContain("Idempotency-Key");
    expectError(
      await post(user, "/finance/payments", body, key),
      422,
      "BUSINESS_RULE",
      "idempotency.key_reused",
    );
    // Another user of the organization with the same key: another request.
    const colleague = await t.createUser(tenantId, "admin");
    expectError(
      await post(colleague, "/finance/expenses", body, key),
      422,
      "BUSINESS_RULE",
      "idempotency.key_reused",
    );
    expect(await count("financeTransaction")).toBe(before);
    // In the caller's language.
    await call(user, "PUT", "/account", { uiLanguage: "ru" });
    const russian = await post(user, "/finance/expenses", { ...body, amount: "102" }, key);
    expect(russian.json().error.message).toContain("уже использован");
    await call(user, "PUT", "/account", { uiLanguage: "en" });
  });

  it("a refused posting leaves its key free: the corrected request posts with it", async () => {
    const dollars = await account("USD", "500");
    const key = newId();
    const tooMuch = { accountId: dollars, amount: "1000", date: TODAY };
    expectError(
      await post(user, "/finance/expenses", tooMuch, key),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    const corrected = await post(user, "/finance/expenses", { ...tooMuch, amount: "400" }, key);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(await balance(dollars)).toBe("100");
  });

  it("an exchange the plausibility guard stopped posts, confirmed, under the same key; a transfer and a reversal are once too", async () => {
    const som = await account("UZS", "1265000000");
    const dollars = await account("USD");
    const key = newId();
    const body = {
      fromAccountId: som,
      toAccountId: dollars,
      amount: "1265000000",
      marketRate: { base: "UZS", quote: "USD", rate: "12650" },
      date: TODAY,
    };
    expectError(
      await post(user, "/finance/exchanges", body, key),
      422,
      "BUSINESS_RULE",
      "finance.exchange_rate_inverted",
    );
    const fixed = { ...body, marketRate: { base: "USD", quote: "UZS", rate: "12650" } };
    const first = await post(user, "/finance/exchanges", fixed, key);
    expect(first.statusCode, first.body).toBe(201);
    expect((await post(user, "/finance/exchanges", fixed, key)).json()).toEqual(first.json());
    expect(await balance(dollars)).toBe("100000");

    const other = await account("USD");
    const transfer = { fromAccountId: dollars, toAccountId: other, amount: "100", date: TODAY };
    const transferKey = newId();
    const moved = await post(user, "/finance/transfers", transfer, transferKey);
    expect(moved.statusCode, moved.body).toBe(201);
    expect((await post(user, "/finance/transfers", transfer, transferKey)).json()).toEqual(moved.json());
    expect(await balance(other)).toBe("100");

    const reversalKey = newId();
    const url = `/finance/transfers/${moved.json().id}/reversal`;
    const reversed = await post(user, url, { reason: "Typed twice" }, reversalKey);
    expect(reversed.statusCode, reversed.body).toBe(201);
    // The retry gets the reversal back (without a key it would be 409 already_reversed).
    expect((await post(user, url, { reason: "Typed twice" }, reversalKey)).json()).toEqual(reversed.json());
    expect(await balance(other)).toBe("0");
    const reconcile = await call(user, "GET", "/finance/reconcile");
    expect(reconcile.json()).toMatchObject({ ok: true });
  });

  it("a key expires after 24 hours: then it may name a new posting", async () => {
    const cash = await account("UZS");
    const key = newId();
    const first = await post(user, "/finance/payments", { accountId: cash, amount: "5", date: TODAY }, key);
    expect(first.statusCode, first.body).toBe(201);
    const other = { accountId: cash, amount: "6", date: TODAY };
    expectError(
      await post(user, "/finance/payments", other, key),
      422,
      "BUSINESS_RULE",
      "idempotency.key_reused",
    );
    // 25 hours later (the claim's time moved back, as the owner would see it then).
    await t.db.withTenant(
      tenantId,
      (tx) =>
        tx.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${key}`,
    );
    const later = await post(user, "/finance/payments", other, key);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json().id).not.toBe(first.json().id);
    expect(await balance(cash)).toBe("11");
    // Claimed afresh: a repeat of the new request replays it.
    expect((await post(user, "/finance/payments", other, key)).json().id).toBe(later.json().id);
  });

  describe("a key's age is the database's clock's", () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const keyRows = (keys: string[]) =>
      t.db.withTenant(tenantId, (tx) => tx.idempotencyKey.findMany({ where: { key: { in: keys } } }));

    // Embedded PGlite runs in this process and reads its clock: only a database server's clock can differ.
    const separateClock = Boolean(process.env.DATABASE_URL);

    it.runIf(separateClock)(
      "an application server whose clock runs two days behind still frees an expired key",
      async () => {
        const cash = await account("UZS");
        const key = newId();
        const first = await post(
          user,
          "/finance/payments",
          { accountId: cash, amount: "5", date: TODAY },
          key,
        );
        expect(first.statusCode, first.body).toBe(201);
        await t.db.withTenant(
          tenantId,
          (tx) =>
            tx.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${key}`,
        );
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 48 * 3_600_000 });
        const later = await post(
          user,
          "/finance/payments",
          { accountId: cash, amount: "6", date: TODAY },
          key,
        );
        expect(later.statusCode, later.body).toBe(201);
        expect(later.json().id).not.toBe(first.json().id);
        expect(await balance(cash)).toBe("11");
      },
    );

    it("expired keys are deleted, every organization's in one sweep; live ones stay", async () => {
      const cash = await account("UZS");
      const [old, fresh] = [newId(), newId()];
      for (const [key, amount] of [
        [old, "1"],
        [fresh, "2"],
      ] as const) {
        const res = await post(user, "/finance/payments", { accountId: cash, amount, date: TODAY }, key);
        expect(res.statusCode, res.body).toBe(201);
      }
      await t.db.withTenant(
        tenantId,
        (tx) =>
          tx.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${old}`,
      );
      // The app's clock two days behind changes nothing: the database's clock decides what expired.
      if (separateClock) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 48 * 3_600_000 });
      expect(await t.db.system.deleteExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
      expect((await keyRows([old, fresh])).map((row) => row.key)).toEqual([fresh]);
      // The documents stay; only the keys' bookkeeping went.
      expect(await balance(cash)).toBe("3");
    });
  });

  it("a key is the organization's own: another organization's same key is another request", async () => {
    const key = newId();
    const cash = await account("UZS");
    expect(
      (await post(user, "/finance/payments", { accountId: cash, amount: "1", date: TODAY }, key)).statusCode,
    ).toBe(201);
    const elsewhere = await t.createTenant();
    const stranger = await t.createUser(elsewhere.id, "admin");
    const strangerCash = await call(stranger, "POST", "/finance/accounts", { name: "Cash", currency: "UZS" });
    const theirs = await post(
      stranger,
      "/finance/payments",
      { accountId: strangerCash.json().id, amount: "1", date: TODAY },
      key,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    // Row-level security: the stranger's transaction sees none of this organization's keys.
    const seen = await t.db.withTenant(elsewhere.id, (tx) => tx.idempotencyKey.count());
    expect(seen).toBe(1);
  });

  it.each([
    ["empty", ""],
    ["too long", "k".repeat(256)],
    ["a space inside", "two words"],
    ["a control character", "a\u0007b"],
    ["non-ASCII", "ключ"],
  ])("a key that is not one (%s) is a 400 naming the header, and posts nothing", async (_what, key) => {
    const cash = await account("UZS");
    const before = await count("payment");
    const res = await t.app.inject({
      method: "POST",
      url: "/finance/payments",
      headers: { ...user.headers, "idempotency-key": key },
      payload: { accountId: cash, amount: "1", date: TODAY },
    });
    const error = expectError(res, 400, "VALIDATION_ERROR");
    expect(JSON.stringify(error.issues)).toContain("Idempotency-Key");
    expect(await count("payment")).toBe(before);
  });

  it("a key in the draft standard's quoted form is the same key", async () => {
    const cash = await account("UZS");
    const key = newId();
    const body = { accountId: cash, amount: "7", date: TODAY };
    const first = await post(user, "/finance/payments", body, `"${key}"`);
    const second = await post(user, "/finance/payments", body, key);
    expect(second.json().id).toBe(first.json().id);
  });
});

describe("debts: every step that moves money or closes a debt is once per key", () => {
  it("a debt, a settlement, its reversal and a write-off each happen once; another body under a key is 422", async () => {
    const cash = await account("UZS");
    const party = await call(user, "POST", "/finance/counterparties", { name: unique("Client") });
    expect(party.statusCode, party.body).toBe(201);
    const debtBody = { kind: "receivable", counterpartyId: party.json().id, amount: "5000", currency: "UZS" };
    const debtKey = newId();
    const debt = await post(user, "/finance/debts", debtBody, debtKey);
    const again = await post(user, "/finance/debts", debtBody, debtKey);
    expect(debt.statusCode, debt.body).toBe(201);
    expect(again.json()).toEqual(debt.json());
    const debtId = debt.json().id as string;
    expect(await t.db.withTenant(tenantId, (tx) => tx.debt.count({ where: { id: debtId } }))).toBe(1);

    const settleKey = newId();
    const settleBody = { amount: "2000", accountId: cash, date: TODAY };
    const settled = await post(user, `/finance/debts/${debtId}/settle`, settleBody, settleKey);
    const settledAgain = await post(user, `/finance/debts/${debtId}/settle`, settleBody, settleKey);
    expect(settled.statusCode, settled.body).toBe(201);
    expect(settledAgain.json()).toEqual(settled.json());
    expect(await balance(cash)).toBe("2000"); // posted once
    const other = await post(
      user,
      `/finance/debts/${debtId}/settle`,
      { ...settleBody, amount: "1" },
      settleKey,
    );
    expect(other.statusCode).toBe(422);
    expect(await balance(cash)).toBe("2000");

    const settlementId = settled.json().settlement.id as string;
    const reverseKey = newId();
    const reverse = () =>
      t.app.inject({
        method: "DELETE",
        url: `/finance/debts/${debtId}/settlements/${settlementId}`,
        headers: withKey(user, reverseKey),
      });
    const reversed = await reverse();
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect((await reverse()).json()).toEqual(reversed.json()); // not 404: the first answer again
    expect(await balance(cash)).toBe("0");

    const writeOffKey = newId();
    const writeOff = { reason: "Client closed" };
    const written = await post(user, `/finance/debts/${debtId}/write-off`, writeOff, writeOffKey);
    expect(written.statusCode, written.body).toBe(200);
    expect((await post(user, `/finance/debts/${debtId}/write-off`, writeOff, writeOffKey)).json()).toEqual(
      written.json(),
    );
  });
});

describe("tRPC and GraphQL", () => {
  const trpc = (procedure: string, input: unknown, key: string) =>
    t.app.inject({
      method: "POST",
      url: `/trpc/${procedure}`,
      headers: { ...withKey(user, key), "content-type": "application/json" },
      payload: JSON.stringify(input),
    });

  it("tRPC: the accountant app's double submission posts once", async () => {
    const cash = await account("UZS", "1000");
    const key = newId();
    const input = { accountId: cash, amount: "100", date: TODAY, comment: unique("Save, save") };
    const before = await count("expense");
    const [a, b] = await Promise.all([
      trpc("expenses.create", input, key),
      trpc("expenses.create", input, key),
    ]);
    expect(a?.statusCode, a?.body).toBe(200);
    expect(b?.json().result.data.id).toBe(a?.json().result.data.id);
    expect(await count("expense")).toBe(before + 1);
    // A batch cannot share one key.
    const batch = await t.app.inject({
      method: "POST",
      url: "/trpc/expenses.create,payments.create?batch=1",
      headers: { ...withKey(user, newId()), "content-type": "application/json" },
      payload: JSON.stringify({ 0: input, 1: input }),
    });
    expect(batch.statusCode).toBe(400);
    expect(await count("expense")).toBe(before + 1);
  });

  it("GraphQL: the same mutation with one key posts once", async () => {
    const cash = await account("UZS");
    const key = newId();
    const mutation = /* GraphQL */ `
      mutation($input: DocumentInput!) { createPayment(input: $input) { id amount } }
    `;
    const variables = { input: { accountId: cash, amount: "300", date: TODAY, comment: unique("GraphQL") } };
    const before = await count("payment");
    const first = await gql(graphqlUrl, mutation, { headers: withKey(user, key), variables });
    const second = await gql(graphqlUrl, mutation, { headers: withKey(user, key), variables });
    expect(first.body.errors).toBeUndefined();
    expect(second.body.data).toEqual(first.body.data);
    expect(await count("payment")).toBe(before + 1);
    const other = await gql(graphqlUrl, mutation, {
      headers: withKey(user, key),
      variables: { input: { ...variables.input, amount: "301" } },
    });
    expect(codeOf(other)).toBe("BUSINESS_RULE");
    expect(await count("payment")).toBe(before + 1);
  });

  it("GraphQL: the key as the mutation's idempotencyKey argument, as a GraphQL client sends it", async () => {
    const cash = await account("UZS", "1000");
    const mutation = /* GraphQL */ `
      mutation($input: DocumentInput!, $key: String) { recordExpense(input: $input, idempotencyKey: $key) { id } }
    `;
    const input = { accountId: cash, amount: "100", date: TODAY, comment: unique("GraphQL argument") };
    const key = newId();
    const before = await count("expense");
    const first = await gql(graphqlUrl, mutation, { headers: user.headers, variables: { input, key } });
    const again = await gql(graphqlUrl, mutation, { headers: user.headers, variables: { input, key } });
    expect(first.body.errors).toBeUndefined();
    expect(again.body.data).toEqual(first.body.data);
    expect(await count("expense")).toBe(before + 1);
    expect(await balance(cash)).toBe("900");
    // The same key in the header too is one key; two different keys are refused, as is a malformed one.
    const both = await gql(graphqlUrl, mutation, { headers: withKey(user, key), variables: { input, key } });
    expect(both.body.data).toEqual(first.body.data);
    const differing = await gql(graphqlUrl, mutation, {
      headers: withKey(user, newId()),
      variables: { input, key },
    });
    expect(codeOf(differing)).toBe("VALIDATION_ERROR");
    const malformed = await gql(graphqlUrl, mutation, {
      headers: user.headers,
      variables: { input, key: "with spaces inside" },
    });
    expect(codeOf(malformed)).toBe("VALIDATION_ERROR");
    expect(await count("expense")).toBe(before + 1);
  });

  describe("tRPC: the key as the posting's idempotencyKey field (decision 0083)", () => {
    /** The app's typed client over real HTTP, as the signed-in user; `headers` besides the token. */
    const client = (headers: Record<string, string> = {}) =>
      createTRPCClient<AppRouter>({
        links: [httpLink({ url: trpcUrl, headers: { ...user.headers, ...headers } })],
      });
    const refusal = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(TRPCClientError);
      return (error as TRPCClientError<AppRouter>).data as unknown as {
        httpStatus: number;
        reason: string;
        issues?: Array<{ path: string; message: string }>;
      };
    };

    it("the same key and body post once and answer the first posting; another body under it is 422", async () => {
      const cash = await account("UZS");
      const input = { accountId: cash, amount: "250", date: TODAY, comment: unique("tRPC field") };
      const idempotencyKey = newId();
      const before = await count("payment");
      const first = await client().payments.create.mutate({ ...input, idempotencyKey });
      const again = await client().payments.create.mutate({ ...input, idempotencyKey });
      expect(again).toEqual(first);
      expect(await count("payment")).toBe(before + 1);
      expect(await balance(cash)).toBe("250");
      // The field and the header name one key: the header's repeat is the same request.
      expect(await client({ "idempotency-key": idempotencyKey }).payments.create.mutate(input)).toEqual(
        first,
      );
      const other = await refusal(
        client().payments.create.mutate({ ...input, amount: "251", idempotencyKey }),
      );
      expect(other).toMatchObject({ httpStatus: 422, reason: "idempotency.key_reused" });
      expect(await count("payment")).toBe(before + 1);
      // Without a key every call is a posting of its own, as before.
      await client().payments.create.mutate(input);
      expect(await count("payment")).toBe(before + 2);
    });

    it("two calls at the same moment with one key post once", async () => {
      const cash = await account("UZS", "1000");
      const input = { accountId: cash, amount: "100", date: TODAY, comment: unique("tRPC at once") };
      const idempotencyKey = newId();
      const before = await count("expense");
      const [a, b] = await Promise.all([
        client().expenses.create.mutate({ ...input, idempotencyKey }),
        client().expenses.create.mutate({ ...input, idempotencyKey }),
      ]);
      expect(b.id).toBe(a.id);
      expect(await count("expense")).toBe(before + 1);
      expect(await balance(cash)).toBe("900");
    });

    it("every idempotent posting takes the field: transfers, exchanges, debts and their reversals", async () => {
      const from = await account("USD", "1000");
      const to = await account("USD");
      const som = await account("UZS");
      const transfer = {
        fromAccountId: from,
        toAccountId: to,
        amount: "100",
        date: TODAY,
        idempotencyKey: newId(),
      };
      const moved = await client().transfers.create.mutate(transfer);
      expect(await client().transfers.create.mutate(transfer)).toEqual(moved);
      const reversal = { id: moved.id, data: { reason: unique("Wrong account") }, idempotencyKey: newId() };
      const reversed = await client().transfers.reverse.mutate(reversal);
      // The retry gets the reversal back (without a key it would be 409 already_reversed).
      expect(await client().transfers.reverse.mutate(reversal)).toEqual(reversed);
      const exchange = {
        fromAccountId: from,
        toAccountId: som,
        amount: "100",
        marketRate: { base: "USD", quote: "UZS", rate: "12650" },
        date: TODAY,
        idempotencyKey: newId(),
      };
      const exchanged = await client().exchanges.create.mutate(exchange);
      expect(await client().exchanges.create.mutate(exchange)).toEqual(exchanged);
      expect(await balance(from)).toBe("900");
      expect(await balance(to)).toBe("0");
      const party = await call(user, "POST", "/finance/counterparties", { name: unique("Client") });
      expect(party.statusCode, party.body).toBe(201);
      const debt = {
        kind: "receivable" as const,
        counterpartyId: party.json().id as string,
        amount: "5000",
        currency: "UZS",
        idempotencyKey: newId(),
      };
      const owed = await client().debts.create.mutate(debt);
      expect(await client().debts.create.mutate(debt)).toEqual(owed);
      const settlement = {
        id: owed.id,
        data: { accountId: som, amount: "2000", date: TODAY },
        idempotencyKey: newId(),
      };
      const settled = await client().debts.settle.mutate(settlement);
      expect(await client().debts.settle.mutate(settlement)).toEqual(settled);
      expect(await balance(som)).toBe("1267000");
    });

    it("in a batch each call names its own key: both post once, and the repeated batch replays both", async () => {
      const cash = await account("UZS");
      const batched = createTRPCClient<AppRouter>({
        links: [httpBatchLink({ url: trpcUrl, headers: user.headers })],
      });
      const [first, second] = [newId(), newId()];
      const calls = () =>
        Promise.all([
          batched.payments.create.mutate({
            accountId: cash,
            amount: "7",
            date: TODAY,
            idempotencyKey: first,
          }),
          batched.payments.create.mutate({
            accountId: cash,
            amount: "8",
            date: TODAY,
            idempotencyKey: second,
          }),
        ]);
      const before = await count("payment");
      const posted = await calls();
      expect(await calls()).toEqual(posted);
      expect(posted[0].id).not.toBe(posted[1].id);
      expect(await count("payment")).toBe(before + 2);
      expect(await balance(cash)).toBe("15");
    });

    it("a key in the field and another in the header is 400, naming the field; a malformed key too", async () => {
      const cash = await account("UZS");
      const input = { accountId: cash, amount: "10", date: TODAY, comment: unique("two keys") };
      const before = await count("payment");
      const differing = await refusal(
        client({ "idempotency-key": newId() }).payments.create.mutate({ ...input, idempotencyKey: newId() }),
      );
      expect(differing.httpStatus).toBe(400);
      expect(differing.issues).toEqual([
        { path: "idempotencyKey", message: "differs from the Idempotency-Key header: send one key" },
      ]);
      const malformed = await refusal(
        client().payments.create.mutate({ ...input, idempotencyKey: "with spaces" }),
      );
      expect(malformed.httpStatus).toBe(400);
      expect(malformed.issues?.map((issue) => issue.path)).toEqual(["idempotencyKey"]);
      expect(await count("payment")).toBe(before);
    });

    it("only postings take it: a change that posts nothing has no such field", async () => {
      const cash = await account("UZS");
      const payment = await client().payments.create.mutate({ accountId: cash, amount: "5", date: TODAY });
      await client().payments.update.mutate({
        id: payment.id,
        data: { comment: "edited" },
        // @ts-expect-error an update is not a posting: its input has no idempotencyKey
        idempotencyKey: newId(),
      });
      expect((await client().payments.get.query({ id: payment.id })).comment).toBe("edited");
    });
  });
});

describe("an account's opening and an inventory movement are once per key (decision 0086)", () => {
  const accounts = () => t.db.withTenant(tenantId, (tx) => tx.moneyAccount.count());
  const movements = () => t.db.withTenant(tenantId, (tx) => tx.inventoryMovement.count());
  const client = () =>
    createTRPCClient<AppRouter>({ links: [httpLink({ url: trpcUrl, headers: user.headers })] });
  const item = async () => {
    const res = await call(user, "POST", "/finance/inventory", {
      name: unique("Paper"),
      sku: unique("SKU").replace(" ", "-"),
      currency: "UZS",
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };

  it("REST: an account created twice under one key is one account, the first answer both times; another body is 422", async () => {
    const key = newId();
    const body = { name: unique("Till"), currency: "UZS" };
    const before = await accounts();
    const [first, second] = await Promise.all([
      post(user, "/finance/accounts", body, key),
      post(user, "/finance/accounts", body, key),
    ]);
    expect(first?.statusCode, first?.body).toBe(201);
    expect(second?.statusCode, second?.body).toBe(201);
    expect(second?.json()).toEqual(first?.json());
    expect(await accounts()).toBe(before + 1);
    // A retry later (a lost answer) replays too.
    expect((await post(user, "/finance/accounts", body, key)).json()).toEqual(first?.json());
    const other = await post(user, "/finance/accounts", { ...body, name: unique("Other till") }, key);
    expectError(other, 422, "BUSINESS_RULE", "idempotency.key_reused");
    expect(await accounts()).toBe(before + 1);
    // A refused creation (the name is taken) leaves a new key free for the corrected one.
    const fresh = newId();
    expect((await post(user, "/finance/accounts", body, fresh)).statusCode).toBe(409);
    const corrected = await post(user, "/finance/accounts", { ...body, name: unique("Till 2") }, fresh);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(await accounts()).toBe(before + 2);
  });

  it("REST: a movement sent twice under one key moves the quantity once; another body is 422", async () => {
    const id = await item();
    const key = newId();
    const body = { type: "receipt", quantity: "5", date: TODAY, comment: unique("Delivery") };
    const before = await movements();
    const [first, second] = await Promise.all([
      post(user, `/finance/inventory/${id}/movements`, body, key),
      post(user, `/finance/inventory/${id}/movements`, body, key),
    ]);
    expect(first?.statusCode, first?.body).toBe(201);
    expect(second?.json()).toEqual(first?.json());
    expect(await movements()).toBe(before + 1);
    const stock = (await call(user, "GET", `/finance/inventory/${id}`)).json() as { quantity: string };
    expect(Number(stock.quantity)).toBe(5);
    const other = await post(user, `/finance/inventory/${id}/movements`, { ...body, quantity: "6" }, key);
    expectError(other, 422, "BUSINESS_RULE", "idempotency.key_reused");
    // The same body on another item is another request as well.
    const elsewhere = await post(user, `/finance/inventory/${await item()}/movements`, body, key);
    expectError(elsewhere, 422, "BUSINESS_RULE", "idempotency.key_reused");
    expect(await movements()).toBe(before + 1);
    // An issue refused for want of stock keeps its key free: the corrected issue moves with it.
    const issueKey = newId();
    const short = await post(
      user,
      `/finance/inventory/${id}/movements`,
      { ...body, type: "issue", quantity: "9" },
      issueKey,
    );
    expect(short.statusCode, short.body).toBe(422);
    const issued = await post(
      user,
      `/finance/inventory/${id}/movements`,
      { ...body, type: "issue", quantity: "2" },
      issueKey,
    );
    expect(issued.statusCode, issued.body).toBe(201);
    expect(await movements()).toBe(before + 2);
  });

  it("tRPC: the app's calls take the key as the idempotencyKey field: once each, another body 422", async () => {
    const idempotencyKey = newId();
    const input = { name: unique("Bank"), currency: "USD" };
    const before = await accounts();
    const first = await client().accounts.create.mutate({ ...input, idempotencyKey });
    expect(await client().accounts.create.mutate({ ...input, idempotencyKey })).toEqual(first);
    expect(await accounts()).toBe(before + 1);
    await expect(
      client().accounts.create.mutate({ ...input, name: unique("Bank 2"), idempotencyKey }),
    ).rejects.toMatchObject({ data: { httpStatus: 422, reason: "idempotency.key_reused" } });

    const id = await item();
    const moveKey = newId();
    const data = { type: "receipt" as const, quantity: "3", date: TODAY };
    const movedBefore = await movements();
    const moved = await client().inventory.recordMovement.mutate({ id, data, idempotencyKey: moveKey });
    expect(await client().inventory.recordMovement.mutate({ id, data, idempotencyKey: moveKey })).toEqual(
      moved,
    );
    expect(moved.item.quantity).toBe((await client().inventory.get.query({ id })).quantity);
    expect(await movements()).toBe(movedBefore + 1);
    await expect(
      client().inventory.recordMovement.mutate({
        id,
        data: { ...data, quantity: "4" },
        idempotencyKey: moveKey,
      }),
    ).rejects.toMatchObject({ data: { httpStatus: 422, reason: "idempotency.key_reused" } });
    expect(await movements()).toBe(movedBefore + 1);
  });
});
