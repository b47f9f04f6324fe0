import { shortestRate } from "@hisob/finance/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caller,
  expectError,
  expectFieldError,
  MISSING_ID,
  TODAY,
  unique,
} from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * An exchange entered as people think of it — the amount received, or a market quote in
 * either direction — resolves exactly to one posting; the plausibility guard; reversal and edits of
 * transfers and exchanges; hostile input. Over REST and tRPC, on PGlite (or PostgreSQL).
 */

let t: TestApp;
let admin: SeededUser;
const call = caller(() => t);

type Entry = {
  id: string;
  type: string;
  amount: string;
  destinationAmount: string | null;
  exchangeRate: string | null;
  date: string;
  comment: string;
  counterpartyId: string | null;
  reversalOfId: string | null;
  reversalReason: string | null;
  reversedById: string | null;
  originAccountId: string;
  destinationAccountId: string;
};

const newTenant = async () => {
  const tenant = await t.createTenant();
  const user = await t.createUser(tenant.id, "admin");
  const res = await call(user, "PUT", "/tenant/currencies", { codes: ["UZS", "USD", "JPY", "KWD", "EUR"] });
  expect(res.statusCode, res.body).toBe(200);
  return { tenant, user };
};
const account = async (who: SeededUser, currency: string, extra: Record<string, unknown> = {}) => {
  const res = await call(who, "POST", "/finance/accounts", { name: unique("Account"), currency, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
};
const pay = async (who: SeededUser, accountId: string, amount: string) => {
  const res = await call(who, "POST", "/finance/payments", { accountId, amount, date: TODAY });
  expect(res.statusCode, res.body).toBe(201);
};
const balance = async (who: SeededUser, id: string): Promise<string> =>
  (await call(who, "GET", `/finance/accounts/${id}`)).json().balance;
const reconcileOk = async (who: SeededUser) => {
  const res = await call(who, "GET", "/finance/reconcile");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json(), res.body).toMatchObject({ ok: true, drift: [], mismatchedDocuments: [] });
};
/** A funded origin and an empty destination. */
const pair = async (who: SeededUser, from: string, to: string, funds: string) => {
  const origin = await account(who, from);
  const destination = await account(who, to);
  await pay(who, origin.id, funds);
  return { origin: origin.id, destination: destination.id };
};
const exchange = (who: SeededUser, body: Record<string, unknown>) =>
  call(who, "POST", "/finance/exchanges", { date: TODAY, ...body });
const posted = async (who: SeededUser, body: Record<string, unknown>): Promise<Entry> => {
  const res = await exchange(who, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const ledgerCount = (tenantId: string) => t.db.withTenant(tenantId, (tx) => tx.financeTransaction.count());

beforeAll(async () => {
  t = await createTestApp();
  ({ user: admin } = await newTenant());
});

afterAll(async () => {
  await t?.close();
});

describe("three forms, one posting", () => {
  it("UZS → USD: 12,650,000.00 UZS at 1 USD = 12,650 UZS is exactly 1,000.00 USD in every form", async () => {
    const bodies = [
      { amountReceived: "100000" },
      { marketRate: { base: "USD", quote: "UZS", rate: "12650" } },
      // The same quote written the other way round is the same rate.
      { marketRate: { base: "UZS", quote: "USD", rate: "0.0000790513833992094861660079" } },
      { rate: "0.000079052" },
    ];
    const results: Entry[] = [];
    for (const [index, body] of bodies.entries()) {
      const ids = await pair(admin, "UZS", "USD", "1265000000");
      const res = await exchange(admin, {
        fromAccountId: ids.origin,
        toAccountId: ids.destination,
        amount: "1265000000",
        ...body,
      });
      if (index === 2) {
        // 28 fraction digits are more than a rate may have: the message names the limit.
        const error = expectFieldError(res, "marketRate.rate");
        expect(JSON.stringify(error)).toContain("at most 12 digits before the point and 12 after");
        continue;
      }
      expect(res.statusCode, res.body).toBe(201);
      results.push(res.json());
      expect(await balance(admin, ids.origin)).toBe("0");
      expect(await balance(admin, ids.destination)).toBe("100000");
    }
    for (const entry of results) {
      expect(entry).toMatchObject({
        type: "exchange",
        amount: "1265000000",
        destinationAmount: "100000",
        exchangeRate: "0.000079052",
      });
    }
    // The spec's rule holds for what is stored: trunc(1265000000 × 0.000079052) = 100000.
    expect((1265000000n * 79052n) / 10n ** 9n).toBe(100000n);
    await reconcileOk(admin);
  });

  it("USD → UZS: 1,000.00 USD at 1 USD = 12,650 UZS is 12,650,000.00 UZS; the amount received gives the same", async () => {
    const byQuote = await pair(admin, "USD", "UZS", "100000");
    const quoted = await posted(admin, {
      fromAccountId: byQuote.origin,
      toAccountId: byQuote.destination,
      amount: "100000",
      marketRate: { base: "USD", quote: "UZS", rate: "12650" },
    });
    const byAmount = await pair(admin, "USD", "UZS", "100000");
    const received = await posted(admin, {
      fromAccountId: byAmount.origin,
      toAccountId: byAmount.destination,
      amount: "100000",
      amountReceived: "1265000000",
    });
    for (const entry of [quoted, received]) {
      expect(entry).toMatchObject({
        amount: "100000",
        destinationAmount: "1265000000",
        exchangeRate: "12650",
      });
    }
    expect(await balance(admin, byQuote.destination)).toBe("1265000000");
  });

  // [from, to, amount, quote, expected received, expected stored rate], hand-computed.
  const digits: Array<[string, string, string, [string, string, string], string, string]> = [
    // 2.500 KWD × 480.5 = 1,201.25 JPY → 1,201 (JPY has no minor units).
    ["KWD", "JPY", "2500", ["KWD", "JPY", "480.5"], "1201", "0.4804"],
    // 10,000 JPY ÷ 480.5 = 20.8116… KWD → 20.811 (three minor digits).
    ["JPY", "KWD", "10000", ["KWD", "JPY", "480.5"], "20811", "2.0811"],
    // 1,000,000.00 UZS ÷ 84.37 = 11,852.55… JPY → 11,852.
    ["UZS", "JPY", "100000000", ["JPY", "UZS", "84.37"], "11852", "0.00011852"],
    // 1 JPY = 84.37 UZS: 7 JPY → 590.59 UZS.
    ["JPY", "UZS", "7", ["JPY", "UZS", "84.37"], "59059", "8437"],
    // 1 KWD = 41,000 UZS: 0.001 KWD → 41.00 UZS.
    ["KWD", "UZS", "1", ["KWD", "UZS", "41000"], "4100", "4100"],
  ];
  it.each(
    digits,
  )("%s → %s: %s minor at %j receives %s (rate %s)", async (from, to, amount, quote, expected, rate) => {
    const { user } = await newTenant();
    const ids = await pair(user, from, to, amount);
    const [base, quoteCode, value] = quote;
    const entry = await posted(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount,
      marketRate: { base, quote: quoteCode, rate: value },
    });
    expect(entry).toMatchObject({ amount, destinationAmount: expected, exchangeRate: rate });
    expect(await balance(user, ids.destination)).toBe(expected);
    // The amount received says the same: the same posting, to the digit.
    const again = await pair(user, from, to, amount);
    const received = await posted(user, {
      fromAccountId: again.origin,
      toAccountId: again.destination,
      amount,
      amountReceived: expected,
    });
    expect(received).toMatchObject({ amount, destinationAmount: expected, exchangeRate: rate });
  });

  it("the amount received lands exactly, whatever the amounts, up to the int64 limit", async () => {
    const { user } = await newTenant();
    const cases: Array<[string, string]> = [
      ["9223372036854775807", "1"],
      ["1", "9223372036854775807"],
      ["3", "1"],
      ["7", "100"],
      ["1265000000000000", "100000000001"],
    ];
    for (const [amount, received] of cases) {
      const ids = await pair(user, "UZS", "USD", amount);
      const entry = await posted(user, {
        fromAccountId: ids.origin,
        toAccountId: ids.destination,
        amount,
        amountReceived: received,
        confirmRate: true,
      });
      expect(entry.destinationAmount).toBe(received);
      expect(entry.exchangeRate).toBe(shortestRate(BigInt(amount), BigInt(received)));
      // Stored and read back exactly: trunc(amount × rate) = received.
      const [whole = "0", fraction = ""] = (entry.exchangeRate ?? "").split(".");
      expect((BigInt(amount) * BigInt(whole + fraction)) / 10n ** BigInt(fraction.length)).toBe(
        BigInt(received),
      );
      expect(await balance(user, ids.destination)).toBe(received);
      const list = await call(user, "GET", `/finance/accounts/${ids.destination}/transactions`);
      expect(list.json().items[0]).toMatchObject({ exchangeRate: entry.exchangeRate, change: received });
    }
    await reconcileOk(user);
  });
});

describe("the plausibility guard", () => {
  it("a first exchange entered the wrong way round (1 UZS = 12,650 USD) needs confirmation; the message shows both readings in en, ru and uz", async () => {
    const { tenant, user } = await newTenant();
    const ids = await pair(user, "UZS", "USD", "10000000");
    const body = {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "10000000",
      rate: "12650",
    };
    const before = await ledgerCount(tenant.id);
    const refused = expectError(
      await exchange(user, body),
      422,
      "BUSINESS_RULE",
      "finance.exchange_rate_inverted",
    );
    expect(refused.message).toContain("1 UZS = 12,650 USD");
    expect(refused.message).toContain("1 USD = 12,650 UZS");
    // The usual rate it is compared with (typical-rates.ts), and what lands as entered.
    expect(refused.message).toContain("1 USD = 12,600 UZS");
    expect(refused.message).toMatch(/USD\s1,265,000,000\.00/);
    const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
    for (const [language, words] of [
      ["ru", "Проверьте курс"],
      ["uz", "Kursni tekshiring"],
    ] as const) {
      const reader = await t.createUser(tenant.id, ["exchanges:create:all"]);
      await call(reader, "PUT", "/account", { uiLanguage: language });
      const localized = plain((await exchange(reader, body)).json().error.message);
      expect(localized).toContain(words);
      expect(localized).toContain("1 UZS = 12 650 USD");
      expect(localized).toContain("1 USD = 12 650 UZS");
    }
    expect(await ledgerCount(tenant.id)).toBe(before);
    expect(await balance(user, ids.destination)).toBe("0");
    // Confirmed, the caller's rate stands (12650 US cents per tiyin: they asked for it).
    const confirmed = await posted(user, { ...body, confirmRate: true });
    expect(confirmed).toMatchObject({ destinationAmount: "126500000000", exchangeRate: "12650" });
  });

  it("every first exchange is checked against the usual order of the rate: a quote read a thousand times off is refused, whatever the form", async () => {
    const { tenant, user } = await newTenant();
    // "12,650" read as 12.65 (a decimal comma): 1 USD = 12.65 UZS, 1,000 times off; not the wrong way round either.
    const ids = await pair(user, "UZS", "USD", "1265000000");
    const quoted = {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "1265000000",
      marketRate: { base: "USD", quote: "UZS", rate: "12.65" },
    };
    const before = await ledgerCount(tenant.id);
    const error = expectError(
      await exchange(user, quoted),
      422,
      "BUSINESS_RULE",
      "finance.exchange_rate_unusual",
    );
    // Exactly what confirming would post: 12,650,000.00 UZS → 1,000,000.00 USD.
    expect(error.message).toContain("1 USD = 12.65 UZS");
    expect(error.message).toMatch(/USD\s1,000,000\.00/);
    expect(error.message).toContain("1 USD = 12,600 UZS");
    expect(error.message).toContain("3 times");
    // The amount received, the same mistake: refused too (this form used to pass unchecked).
    const received = { ...quoted, marketRate: undefined, amountReceived: "100000000" };
    expectError(await exchange(user, received), 422, "BUSINESS_RULE", "finance.exchange_rate_unusual");
    // A tenfold slip (1 USD = 1,265 UZS) is beyond the factor as well.
    const tenfold = { ...quoted, marketRate: { base: "USD", quote: "UZS", rate: "1265" } };
    expectError(await exchange(user, tenfold), 422, "BUSINESS_RULE", "finance.exchange_rate_unusual");
    expect(await ledgerCount(tenant.id)).toBe(before);
    // Within the factor of the usual rate, a first exchange posts; in the other direction too (JPY: 0 digits).
    const usual = await posted(user, { ...quoted, marketRate: { base: "USD", quote: "UZS", rate: "12650" } });
    expect(usual.destinationAmount).toBe("100000");
    const yen = await pair(user, "USD", "JPY", "100000");
    const inYen = await posted(user, {
      fromAccountId: yen.origin,
      toAccountId: yen.destination,
      amount: "100000",
      marketRate: { base: "USD", quote: "JPY", rate: "150" },
    });
    expect(inYen.destinationAmount).toBe("150000");
    // Confirmed, the unusual rate stands: the caller asked for it.
    const confirmed = await posted(user, {
      ...quoted,
      fromAccountId: (await pair(user, "UZS", "USD", "1265000000")).origin,
      confirmRate: true,
    });
    expect(confirmed.destinationAmount).toBe("100000000");
    await reconcileOk(user);
  });

  it("a currency without a usual rate: a first exchange in minor units needs confirmation, the other forms do not", async () => {
    const platform = await t.createUser((await t.createTenant(undefined, { platform: true })).id, "admin");
    const added = await call(platform, "POST", "/currencies", {
      code: "XAG",
      name: "Silver",
      symbol: "XAG",
      minorUnits: 2,
    });
    expect([201, 409]).toContain(added.statusCode);
    const tenant = await t.createTenant();
    const user = await t.createUser(tenant.id, "admin");
    expect((await call(user, "PUT", "/tenant/currencies", { codes: ["UZS", "XAG"] })).statusCode).toBe(200);
    const ids = await pair(user, "UZS", "XAG", "100000000");
    const body = { fromAccountId: ids.origin, toAccountId: ids.destination, amount: "100000" };
    expectError(
      await exchange(user, { ...body, rate: "0.0001" }),
      422,
      "BUSINESS_RULE",
      "finance.exchange_rate_unconfirmed",
    );
    const entry = await posted(user, { ...body, amountReceived: "10" });
    expect(entry.destinationAmount).toBe("10");
  });

  it("the amount received or a quote needs no confirmation for a first exchange; more than 10% from the last rate does", async () => {
    const { tenant, user } = await newTenant();
    const first = await pair(user, "USD", "UZS", "100000");
    await posted(user, {
      fromAccountId: first.origin,
      toAccountId: first.destination,
      amount: "100000",
      amountReceived: "1265000000",
    });
    // The other direction is compared with the same rate: 1 USD = 13,000 UZS is within 10%.
    const back = await pair(user, "UZS", "USD", "1300000000");
    await posted(user, {
      fromAccountId: back.origin,
      toAccountId: back.destination,
      amount: "1300000000",
      marketRate: { base: "USD", quote: "UZS", rate: "13000" },
    });
    // 1 USD = 1,265 UZS (a digit lost) is 90% off: refused, naming the last rate.
    const typo = await pair(user, "USD", "UZS", "100000");
    const body = {
      fromAccountId: typo.origin,
      toAccountId: typo.destination,
      amount: "100000",
      marketRate: { base: "USD", quote: "UZS", rate: "1265" },
    };
    const before = await ledgerCount(tenant.id);
    const error = expectError(
      await exchange(user, body),
      422,
      "BUSINESS_RULE",
      "finance.exchange_rate_implausible",
    );
    expect(error.message).toContain("1 USD = 1,265 UZS");
    expect(error.message).toContain("1 UZS = 1,265 USD");
    expect(error.message).toContain("1 USD = 13,000 UZS");
    expect(error.message).toContain("10%");
    expect(await ledgerCount(tenant.id)).toBe(before);
    const confirmed = await posted(user, { ...body, confirmRate: true });
    expect(confirmed.destinationAmount).toBe("126500000");
    // Once confirmed, it is the last rate: the next one is compared with it.
    const next = await pair(user, "USD", "UZS", "100");
    await posted(user, {
      fromAccountId: next.origin,
      toAccountId: next.destination,
      amount: "100",
      amountReceived: "126500",
    });
  });
});

describe("reversal and edits", () => {
  it("reverses an exchange exactly, linked, with who and why, once; a reversal is not reversed", async () => {
    const { user } = await newTenant();
    const ids = await pair(user, "UZS", "USD", "1265000000");
    const entry = await posted(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "1265000000",
      amountReceived: "100000",
    });
    const res = await call(user, "POST", `/finance/exchanges/${entry.id}/reversal`, {
      reason: "Wrong account",
    });
    expect(res.statusCode, res.body).toBe(201);
    const reversal = res.json() as Entry;
    expect(reversal).toMatchObject({
      type: "exchange",
      amount: "100000",
      destinationAmount: "1265000000",
      originAccountId: ids.destination,
      destinationAccountId: ids.origin,
      reversalOfId: entry.id,
      reversalReason: "Wrong account",
      date: entry.date,
    });
    expect(await balance(user, ids.origin)).toBe("1265000000");
    expect(await balance(user, ids.destination)).toBe("0");
    const items = (await call(user, "GET", `/finance/accounts/${ids.origin}/transactions`)).json()
      .items as Entry[];
    expect(items.find((item) => item.id === entry.id)).toMatchObject({ reversedById: reversal.id });
    expect(items).toHaveLength(3); // the payment, the exchange and its reversal: both kept
    expectError(
      await call(user, "POST", `/finance/exchanges/${entry.id}/reversal`, { reason: "Again" }),
      409,
      "CONFLICT",
      "finance.already_reversed",
    );
    expectError(
      await call(user, "POST", `/finance/exchanges/${reversal.id}/reversal`, { reason: "Undo" }),
      422,
      "BUSINESS_RULE",
      "finance.reversal_not_reversible",
    );
    // A transfer's id is not an exchange, and the reason is required.
    expectError(
      await call(user, "POST", `/finance/transfers/${entry.id}/reversal`, { reason: "x" }),
      404,
      "NOT_FOUND",
      "finance.transfer_not_found",
    );
    expectFieldError(await call(user, "POST", `/finance/exchanges/${MISSING_ID}/reversal`, {}), "reason");
    expectFieldError(
      await call(user, "POST", `/finance/exchanges/${entry.id}/reversal`, { reason: "  " }),
      "reason",
    );
    // Who and why are in the audit log.
    const audit = await call(user, "GET", `/audit?entity=exchange&entityId=${entry.id}`);
    expect(audit.statusCode, audit.body).toBe(200);
    const actions = (audit.json().items as Array<{ action: string; userId: string; after: unknown }>).map(
      (item) => [item.action, item.userId],
    );
    expect(actions).toEqual([
      ["reverse", user.id],
      ["create", user.id],
    ]);
    // The reversed exchange no longer counts as the pair's last rate; the guard still works.
    await reconcileOk(user);
  });

  it("a reversal is refused when the destination, a strict account, no longer holds the money", async () => {
    const { tenant, user } = await newTenant();
    const from = await account(user, "UZS");
    const to = await account(user, "UZS");
    await pay(user, from.id, "5000");
    const transfer = await call(user, "POST", "/finance/transfers", {
      fromAccountId: from.id,
      toAccountId: to.id,
      amount: "5000",
      date: TODAY,
    });
    expect(transfer.statusCode, transfer.body).toBe(201);
    const spent = await call(user, "POST", "/finance/expenses", {
      accountId: to.id,
      amount: "1",
      date: TODAY,
    });
    expect(spent.statusCode).toBe(201);
    const before = await ledgerCount(tenant.id);
    expectError(
      await call(user, "POST", `/finance/transfers/${transfer.json().id}/reversal`, { reason: "Oops" }),
      422,
      "BUSINESS_RULE",
      "finance.insufficient_balance",
    );
    expect(await ledgerCount(tenant.id)).toBe(before);
    expect(await balance(user, to.id)).toBe("4999");
    await reconcileOk(user);
  });

  it("a reversal racing a spend of the same money: one wins, balances exact, reconcile clean", async () => {
    const { user } = await newTenant();
    for (let round = 0; round < 4; round++) {
      const ids = await pair(user, "USD", "UZS", "100000");
      const entry = await posted(user, {
        fromAccountId: ids.origin,
        toAccountId: ids.destination,
        amount: "100000",
        amountReceived: "1265000000",
      });
      const [reversal, expense] = await Promise.all([
        call(user, "POST", `/finance/exchanges/${entry.id}/reversal`, { reason: "Race" }),
        call(user, "POST", "/finance/expenses", {
          accountId: ids.destination,
          amount: "1265000000",
          date: TODAY,
        }),
      ]);
      const won = [reversal.statusCode, expense.statusCode].filter((status) => status === 201);
      expect(won, `${reversal.body} ${expense.body}`).toHaveLength(1);
      const loser = reversal.statusCode === 201 ? expense : reversal;
      expectError(loser, 422, "BUSINESS_RULE", "finance.insufficient_balance");
      expect(await balance(user, ids.destination)).toBe("0");
      expect(await balance(user, ids.origin)).toBe(reversal.statusCode === 201 ? "100000" : "0");
    }
    await reconcileOk(user);
  });

  it("two reversals at once: exactly one is posted", async () => {
    const { user } = await newTenant();
    const from = await account(user, "UZS");
    const to = await account(user, "UZS");
    await pay(user, from.id, "700");
    const transfer = (
      await call(user, "POST", "/finance/transfers", {
        fromAccountId: from.id,
        toAccountId: to.id,
        amount: "700",
        date: TODAY,
      })
    ).json();
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        call(user, "POST", `/finance/transfers/${transfer.id}/reversal`, { reason: "Twice" }),
      ),
    );
    expect(results.map((res) => res.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await balance(user, from.id)).toBe("700");
    expect(await balance(user, to.id)).toBe("0");
    await reconcileOk(user);
  });

  it("edits the date, comment and counterparty of a transfer or an exchange, never its money", async () => {
    const { user } = await newTenant();
    const bank = await call(user, "POST", "/finance/counterparties", { name: unique("Bank"), type: "other" });
    expect(bank.statusCode, bank.body).toBe(201);
    const ids = await pair(user, "USD", "UZS", "100");
    const entry = await posted(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "100",
      amountReceived: "1265000",
    });
    const res = await call(user, "PUT", `/finance/exchanges/${entry.id}`, {
      date: "2026-11-20",
      comment: "Kapitalbank, branch 3",
      counterpartyId: bank.json().id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      date: "2026-11-20",
      comment: "Kapitalbank, branch 3",
      counterpartyId: bank.json().id,
      amount: "100",
      destinationAmount: "1265000",
    });
    expect(await balance(user, ids.destination)).toBe("1265000");
    expectFieldError(await call(user, "PUT", `/finance/exchanges/${entry.id}`, { amount: "5" }), "amount");
    expectError(await call(user, "PUT", `/finance/exchanges/${entry.id}`, {}), 400, "VALIDATION_ERROR");
    expectFieldError(
      await call(user, "PUT", `/finance/exchanges/${entry.id}`, { counterpartyId: MISSING_ID }),
      "counterpartyId",
      "finance.unknown_counterparty",
    );
    expectError(
      await call(user, "PUT", `/finance/transfers/${entry.id}`, { comment: "x" }),
      404,
      "NOT_FOUND",
    );
    // A counterparty a transfer names cannot be deleted.
    expectError(await call(user, "DELETE", `/finance/counterparties/${bank.json().id}`), 409, "CONFLICT");
    const audit = (
      await call(user, "GET", `/audit?entity=exchange&entityId=${entry.id}&action=update`)
    ).json();
    expect(audit.items[0]).toMatchObject({
      before: { comment: "", date: TODAY },
      after: { comment: "Kapitalbank, branch 3" },
    });
    await reconcileOk(user);
  });
});

describe("hostile input", () => {
  let ids: { origin: string; destination: string };
  let tenantId: string;
  let user: SeededUser;
  beforeAll(async () => {
    const created = await newTenant();
    user = created.user;
    tenantId = created.tenant.id;
    ids = await pair(user, "UZS", "USD", "1000000");
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["a zero amount", { amount: "0", amountReceived: "1" }, "amount"],
    ["a negative amount", { amount: "-5", amountReceived: "1" }, "amount"],
    ["an amount beyond int64", { amount: "9223372036854775808", amountReceived: "1" }, "amount"],
    ["a zero amount received", { amountReceived: "0" }, "amountReceived"],
    ["a negative amount received", { amountReceived: "-1" }, "amountReceived"],
    ["an amount received beyond int64", { amountReceived: "99999999999999999999" }, "amountReceived"],
    ["an amount received as a number", { amountReceived: 100 }, "amountReceived"],
    ["a zero rate", { rate: "0", confirmRate: true }, "rate"],
    ["a negative quote", { marketRate: { base: "USD", quote: "UZS", rate: "-12650" } }, "marketRate.rate"],
    ["13 fraction digits", { rate: "0.0000790513834", confirmRate: true }, "rate"],
    [
      "13 integer digits",
      { marketRate: { base: "USD", quote: "UZS", rate: "1265000000000" } },
      "marketRate.rate",
    ],
    ["a float quote", { marketRate: { base: "USD", quote: "UZS", rate: 12650 } }, "marketRate.rate"],
    ["a quote of one currency", { marketRate: { base: "USD", quote: "USD", rate: "1" } }, "marketRate.quote"],
    [
      "a quote with extra keys",
      { marketRate: { base: "USD", quote: "UZS", rate: "1", x: 1 } },
      "marketRate.x",
    ],
    ["both forms", { amountReceived: "100", rate: "0.0001" }, "rate"],
    [
      "all three forms",
      { amountReceived: "100", marketRate: { base: "USD", quote: "UZS", rate: "12650" }, rate: "1" },
      "marketRate",
    ],
    ["no form", {}, "amountReceived"],
    ["a confirm flag that is not a boolean", { amountReceived: "100", confirmRate: "yes" }, "confirmRate"],
  ];
  it.each(cases)("refuses %s with a 400 naming the field", async (_name, body, field) => {
    const before = await ledgerCount(tenantId);
    const res = await exchange(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "1000000",
      ...body,
    });
    const error = expectFieldError(res, field);
    if (_name.includes("digits"))
      expect(JSON.stringify(error)).toContain("at most 12 digits before the point and 12 after");
    if (_name.includes("forms"))
      expect(JSON.stringify(error)).toContain("cannot be combined with amountReceived");
    expect(await ledgerCount(tenantId)).toBe(before);
  });

  it("refuses a quote of other currencies, and a quote that rounds to nothing or overflows", async () => {
    const base = { fromAccountId: ids.origin, toAccountId: ids.destination };
    expectFieldError(
      await exchange(user, {
        ...base,
        amount: "100",
        marketRate: { base: "EUR", quote: "UZS", rate: "14000" },
      }),
      "marketRate",
      "finance.exchange_quote_currency",
    );
    expectFieldError(
      await exchange(user, {
        ...base,
        amount: "1",
        marketRate: { base: "USD", quote: "UZS", rate: "12650" },
      }),
      "amount",
      "finance.exchange_too_small",
    );
    const rich = await pair(user, "USD", "UZS", "9223372036854775807");
    expectFieldError(
      await exchange(user, {
        fromAccountId: rich.origin,
        toAccountId: rich.destination,
        amount: "9223372036854775807",
        marketRate: { base: "USD", quote: "UZS", rate: "12650" },
      }),
      "amount",
      "finance.exchange_out_of_range",
    );
    expect(await balance(user, rich.origin)).toBe("9223372036854775807");
  });

  it("refuses a reversal or an edit without its permission", async () => {
    const clerk = await t.createUser(tenantId, [
      "exchanges:create:all",
      "transfers:create:all",
      "accounts:read:all",
    ]);
    const entry = await posted(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "126500",
      amountReceived: "10",
    });
    expectError(
      await call(clerk, "POST", `/finance/exchanges/${entry.id}/reversal`, { reason: "x" }),
      403,
      "FORBIDDEN",
    );
    expectError(
      await call(clerk, "PUT", `/finance/exchanges/${entry.id}`, { comment: "x" }),
      403,
      "FORBIDDEN",
    );
    const other = await newTenant();
    expectError(
      await call(other.user, "POST", `/finance/exchanges/${entry.id}/reversal`, { reason: "x" }),
      404,
      "NOT_FOUND",
    );
  });
});

describe("over tRPC", () => {
  const trpc = (who: SeededUser, procedure: string, input: unknown) =>
    t.app.inject({
      method: "POST",
      url: `/trpc/${procedure}`,
      headers: { ...who.headers, "content-type": "application/json" },
      payload: JSON.stringify(input),
    });

  it("exchanges.create takes the same forms and refuses the same hostile input; reverse and update work", async () => {
    const { user } = await newTenant();
    const ids = await pair(user, "UZS", "USD", "1265000000");
    const base = {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "1265000000",
      date: TODAY,
    };
    const both = await trpc(user, "exchanges.create", {
      ...base,
      amountReceived: "100000",
      rate: "0.000079052",
    });
    expect(both.statusCode, both.body).toBe(400);
    expect(both.json().error.data).toMatchObject({ appCode: "VALIDATION_ERROR" });
    expect(both.body).toContain("cannot be combined with amountReceived");
    for (const hostile of [
      { amountReceived: "0" },
      { amountReceived: "-1" },
      { amountReceived: "9223372036854775808" },
      { rate: "0.0000790513833992", confirmRate: true },
      { rate: "0.0000790513833992094" },
    ]) {
      const res = await trpc(user, "exchanges.create", { ...base, ...hostile });
      expect(res.statusCode, res.body).toBe(400);
    }
    const tooMany = await trpc(user, "exchanges.create", { ...base, rate: "0.0000790513833992094" });
    expect(tooMany.body).toContain("at most 12 digits before the point and 12 after");
    const unconfirmed = await trpc(user, "exchanges.create", { ...base, amount: "100", rate: "12650" });
    expect(unconfirmed.json().error.data).toMatchObject({ reason: "finance.exchange_rate_inverted" });
    const created = await trpc(user, "exchanges.create", {
      ...base,
      marketRate: { base: "USD", quote: "UZS", rate: "12650" },
    });
    expect(created.statusCode, created.body).toBe(200);
    const entry = created.json().result.data as Entry;
    expect(entry).toMatchObject({ destinationAmount: "100000", exchangeRate: "0.000079052" });
    const edited = await trpc(user, "exchanges.update", { id: entry.id, data: { comment: "via tRPC" } });
    expect(edited.json().result.data).toMatchObject({ comment: "via tRPC" });
    const reversed = await trpc(user, "exchanges.reverse", { id: entry.id, data: { reason: "via tRPC" } });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json().result.data).toMatchObject({ reversalOfId: entry.id, amount: "100000" });
    expect(await balance(user, ids.origin)).toBe("1265000000");
    await reconcileOk(user);
  });
});

describe("audit entries", () => {
  it("payments, expenses, transfers and exchanges record their creation (and documents their deletion)", async () => {
    const { user } = await newTenant();
    const actions = async (entity: string, id: string) => {
      const res = await call(user, "GET", `/audit?entity=${entity}&entityId=${id}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ action: string; userId: string }>).map((item) => [
        item.action,
        item.userId,
      ]);
    };
    const from = await account(user, "UZS");
    const to = await account(user, "UZS");
    const payment = await call(user, "POST", "/finance/payments", {
      accountId: from.id,
      amount: "900",
      date: TODAY,
    });
    const expense = await call(user, "POST", "/finance/expenses", {
      accountId: from.id,
      amount: "100",
      date: TODAY,
    });
    expect(await actions("payment", payment.json().id)).toEqual([["create", user.id]]);
    expect((await call(user, "DELETE", `/finance/expenses/${expense.json().id}`)).statusCode).toBe(204);
    expect(await actions("expense", expense.json().id)).toEqual([
      ["delete", user.id],
      ["create", user.id],
    ]);
    const transfer = await call(user, "POST", "/finance/transfers", {
      fromAccountId: from.id,
      toAccountId: to.id,
      amount: "300",
      date: TODAY,
    });
    expect(await actions("transfer", transfer.json().id)).toEqual([["create", user.id]]);
    const ids = await pair(user, "USD", "UZS", "100");
    const entry = await posted(user, {
      fromAccountId: ids.origin,
      toAccountId: ids.destination,
      amount: "100",
      amountReceived: "1265000",
    });
    expect(await actions("exchange", entry.id)).toEqual([["create", user.id]]);
  });
});
