import type { Locale } from "@hisob/kernel";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * What an accountant reads in a statement download and a payments or expenses list: the period a
 * file covers dated by its entries (never 1900-01-01 or 9999-12-31), the reversal reason kept, dates
 * in the reader's language, money with the currency's code, the app's own words; and the lists'
 * totals per currency over every matching document, not a page of them. Opened with exceljs.
 */

let t: TestApp;
const users = {} as Record<Locale, SeededUser>;
let clerk: SeededUser;
let ownReader: SeededUser;
let stranger: SeededUser;
const ids = { kassa: "", bank: "", usd: "", empty: "", sales: "", client: "" };

const call = (user: SeededUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
const post = async (url: string, payload: Record<string, unknown>, user = users.en) => {
  const res = await call(user, "POST", url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const getJson = async (url: string, user = users.en) => {
  const res = await call(user, "GET", url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const download = async (url: string, user = users.en) => {
  const res = await call(user, "GET", url);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error("no sheet");
  const name = /filename="?([^";]+)"?/.exec(String(res.headers["content-disposition"]))?.[1] ?? "";
  return { sheet, name };
};
const headersOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1);
/** Every cell of the sheet as text (dates as ISO days), to look for what must not be there. */
const everyCell = (sheet: ExcelJS.Worksheet) => {
  const texts: string[] = [];
  sheet.eachRow((row) =>
    row.eachCell((cell) =>
      texts.push(cell.value instanceof Date ? cell.value.toISOString().slice(0, 10) : String(cell.value)),
    ),
  );
  return texts;
};
const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  for (const locale of ["en", "ru", "uz"] as const) {
    users[locale] = await t.createUser(tenant.id, "admin");
    if (locale !== "en")
      expect((await call(users[locale], "PUT", "/account", { uiLanguage: locale })).statusCode).toBe(200);
  }
  clerk = await t.createUser(tenant.id, ["accounts:read:all"]);
  ownReader = await t.createUser(tenant.id, [
    "payments:read:own",
    "payments:create:all",
    "accounts:read:all",
  ]);
  stranger = await t.createUser((await t.createTenant()).id, "admin");
  expect((await call(users.en, "PUT", "/tenant/currencies", { codes: ["UZS", "USD"] })).statusCode).toBe(200);
  ids.kassa = (await post("/finance/accounts", { name: "Kassa", currency: "UZS" })).id;
  ids.bank = (await post("/finance/accounts", { name: "Bank", currency: "UZS" })).id;
  ids.usd = (await post("/finance/accounts", { name: "Dollar", currency: "USD" })).id;
  ids.empty = (await post("/finance/accounts", { name: "Unused", currency: "UZS" })).id;
  ids.sales = (await post("/finance/payment-categories", { name: "Sales" })).id;
  ids.client = (await post("/finance/counterparties", { name: "Client A" })).id;
  // Kassa: an opening balance on 2026-01-10, entries from 2026-02-03 to 2026-03-20.
  expect(
    (
      await call(users.en, "PUT", `/finance/accounts/${ids.kassa}/opening-balance`, {
        amount: "100000000",
        date: "2026-01-10",
      })
    ).statusCode,
  ).toBe(200);
  for (let i = 1; i <= 30; i += 1) {
    await post("/finance/payments", {
      accountId: ids.kassa,
      amount: String(i * 1000),
      date: `2026-02-${String(3 + (i % 20)).padStart(2, "0")}`,
      categoryId: i % 2 === 0 ? ids.sales : null,
      counterpartyId: i % 3 === 0 ? ids.client : null,
      comment: `Invoice ${i}`,
    });
  }
  await post("/finance/payments", { accountId: ids.usd, amount: "12345", date: "2026-02-05" });
  await post("/finance/payments", { accountId: ids.usd, amount: "55", date: "2026-02-06" }, ownReader);
  await post("/finance/expenses", { accountId: ids.kassa, amount: "250000", date: "2026-03-01" });
  const transfer = await post("/finance/transfers", {
    fromAccountId: ids.kassa,
    toAccountId: ids.bank,
    amount: "300000",
    date: "2026-03-20",
    comment: "To the bank",
  });
  await post(`/finance/transfers/${transfer.id}/reversal`, { reason: "Typed the wrong account" });
});

afterAll(async () => {
  await t?.close();
});

describe("the statement download's period", () => {
  it("without dates: dated by the first and last entry (the opening balance's day first), in its name too", async () => {
    const { sheet, name } = await download(`/finance/reports/account-statement/${ids.kassa}/export`);
    expect(name).toMatch(/^statement-2026-01-10-2026-03-20-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toEqual(day("2026-01-10"));
    expect(first.getCell(2).value).toBe("Opening balance");
    // The opening balance falls inside the period: it opens it.
    expect(first.getCell(7).value).toBe(1_000_000);
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(1).value).toEqual(day("2026-03-20"));
    expect(last.getCell(2).value).toBe("Closing balance");
    const account = await getJson(`/finance/accounts/${ids.kassa}`);
    expect(last.getCell(7).value).toBe(Number(account.balance) / 100);
    const cells = everyCell(sheet).join("\n");
    expect(cells).not.toMatch(/1900-01-01|9999-12-31/);
  });

  it("with one bound: the other is the entries' edge", async () => {
    const { sheet, name } = await download(
      `/finance/reports/account-statement/${ids.kassa}/export?startDate=2026-03-01`,
    );
    expect(name).toMatch(/^statement-2026-03-01-2026-03-20-/);
    expect(sheet.getRow(2).getCell(1).value).toEqual(day("2026-03-01"));
    expect(sheet.getRow(sheet.rowCount).getCell(1).value).toEqual(day("2026-03-20"));
  });

  it("an account without entries and no dates asked: 'all time', in every language, no placeholder date", async () => {
    const allTime: Record<Locale, string> = { en: "All time", ru: "За всё время", uz: "Butun davr" };
    for (const locale of ["en", "ru", "uz"] as const) {
      const { sheet, name } = await download(
        `/finance/reports/account-statement/${ids.empty}/export`,
        users[locale],
      );
      expect(name).toMatch(/^statement-all-time-\d{4}-\d{2}-\d{2}\.xlsx$/);
      expect(sheet.rowCount).toBe(3);
      for (const row of [2, 3]) {
        expect(sheet.getRow(row).getCell(1).value ?? null).toBeNull();
        expect(sheet.getRow(row).getCell(4).value).toBe(allTime[locale]);
        expect(sheet.getRow(row).getCell(7).value).toBe(0);
      }
    }
  });

  it("a period asked for is kept as asked", async () => {
    const { name, sheet } = await download(
      `/finance/reports/account-statement/${ids.kassa}/export?startDate=2026-02-01&endDate=2026-02-28`,
    );
    expect(name).toMatch(/^statement-2026-02-01-2026-02-28-/);
    expect(sheet.getRow(2).getCell(1).value).toEqual(day("2026-02-01"));
  });

  it("refuses a bound that is not a date, or an end before the start", async () => {
    for (const query of [
      "startDate=2026-02-30",
      "endDate=0000-01-01",
      "startDate=2026-03-02&endDate=2026-03-01",
    ]) {
      const res = await call(
        users.en,
        "GET",
        `/finance/reports/account-statement/${ids.kassa}/export?${query}`,
      );
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("another tenant's account is not found, with or without dates", async () => {
    const res = await call(stranger, "GET", `/finance/reports/account-statement/${ids.kassa}/export`);
    expect(res.statusCode).toBe(404);
  });
});

describe("the statement download's reversal reason", () => {
  it("stays on the reversed entry and on its reversal, in the reader's language", async () => {
    const expected: Record<Locale, [string, string, string]> = {
      en: ["Reversal", "Reversed: Typed the wrong account", "Reversal: Typed the wrong account"],
      ru: ["Сторно", "Сторнирована: Typed the wrong account", "Сторно: Typed the wrong account"],
      uz: ["Storno", "Storno qilingan: Typed the wrong account", "Storno yozuvi: Typed the wrong account"],
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const { sheet } = await download(
        `/finance/reports/account-statement/${ids.kassa}/export`,
        users[locale],
      );
      const [column, reversed, reversal] = expected[locale];
      expect(headersOf(sheet)[4]).toBe(column);
      const reasons = (sheet.getRows(2, sheet.rowCount - 1) ?? [])
        .map((row) => row.getCell(5).value)
        .filter((value) => value !== null && value !== undefined);
      expect(reasons).toEqual([reversed, reversal]);
    }
  });
});

describe("a download in the reader's language", () => {
  it("dates read dd.mm.yyyy in Russian and Uzbek, as the app shows them; Mar 6, 2026 in English", async () => {
    const formats: Record<Locale, [string, string]> = {
      en: ["mmm d, yyyy", "mmm d, yyyy hh:mm"],
      ru: ["dd.mm.yyyy", "dd.mm.yyyy hh:mm"],
      uz: ["dd.mm.yyyy", "dd.mm.yyyy hh:mm"],
    };
    for (const locale of ["en", "ru", "uz"] as const) {
      const [date, datetime] = formats[locale];
      const payments = (await download("/finance/payments/export?limit=2", users[locale])).sheet;
      expect(payments.getRow(2).getCell(1).value).toBeInstanceOf(Date);
      expect(payments.getRow(2).getCell(1).numFmt, locale).toBe(date);
      expect(payments.getRow(2).getCell(8).numFmt, locale).toBe(datetime);
      const statement = (
        await download(`/finance/reports/account-statement/${ids.kassa}/export`, users[locale])
      ).sheet;
      expect(statement.getRow(3).getCell(1).numFmt, locale).toBe(date);
    }
  });

  it("money cells carry the currency's code (UZS, USD), never a symbol", async () => {
    const { sheet } = await download("/finance/payments/export?sortBy=amount&order=desc", users.uz);
    const formats = new Set<string>();
    sheet.eachRow((row, index) => {
      if (index > 1) formats.add(row.getCell(3).numFmt);
    });
    expect([...formats].sort()).toEqual(
      ['#,##0.00 "UZS";-#,##0.00 "UZS"', '#,##0.00 "USD";-#,##0.00 "USD"'].sort(),
    );
  });

  it("the Uzbek file uses the app's words: Modda, Hisobvaraq (never Toifa)", async () => {
    const { sheet } = await download("/finance/payments/export", users.uz);
    expect(headersOf(sheet)).toEqual([
      "Sana",
      "Hisobvaraq",
      "Summa",
      "Valyuta",
      "Kontragent",
      "Modda",
      "Izoh",
      "Yaratilgan",
    ]);
    expect(everyCell(sheet).join("\n")).not.toMatch(/toifa/i);
  });
});

describe("the payments and expenses lists' totals", () => {
  it("count every matching document and sum it per currency, over all pages", async () => {
    const all = await getJson("/finance/payments/totals");
    expect(all).toEqual({
      count: 32,
      currencies: [
        { currency: "USD", count: 2, amount: "12400" },
        { currency: "UZS", count: 30, amount: String((1000 * 30 * 31) / 2) },
      ],
    });
    // The same filters as the list (a page of 20 of them, the total of all).
    const filtered = `accountId=${ids.kassa}&categoryId=${ids.sales}&from=2026-02-05&to=2026-02-22`;
    const list = await getJson(`/finance/payments?${filtered}&limit=100`);
    const sum = list.items.reduce(
      (total: bigint, item: { amount: string }) => total + BigInt(item.amount),
      0n,
    );
    expect(await getJson(`/finance/payments/totals?${filtered}&limit=5&sortBy=amount`)).toEqual({
      count: list.total,
      currencies: [{ currency: "UZS", count: list.total, amount: sum.toString() }],
    });
    expect(await getJson(`/finance/payments/totals?counterpartyId=${ids.client}`)).toMatchObject({
      count: 10,
    });
    expect(await getJson("/finance/expenses/totals")).toEqual({
      count: 1,
      currencies: [{ currency: "UZS", count: 1, amount: "250000" }],
    });
    expect(await getJson("/finance/expenses/totals?from=2027-01-01")).toEqual({ count: 0, currencies: [] });
  });

  it("the list names each row's category and counterparty (no lookup per row)", async () => {
    const page = await getJson(
      `/finance/payments?counterpartyId=${ids.client}&sortBy=amount&order=asc&limit=4`,
    );
    expect(
      page.items.map((item: { categoryName: string | null; counterpartyName: string | null }) => [
        item.categoryName,
        item.counterpartyName,
      ]),
    ).toEqual([
      [null, "Client A"],
      ["Sales", "Client A"],
      [null, "Client A"],
      ["Sales", "Client A"],
    ]);
    const expenses = await getJson("/finance/expenses");
    expect(expenses.items[0]).toMatchObject({ categoryName: null, counterpartyName: null });
  });

  it("a reader of their own documents gets the totals of their own only", async () => {
    expect(await getJson("/finance/payments/totals", ownReader)).toEqual({
      count: 1,
      currencies: [{ currency: "USD", count: 1, amount: "55" }],
    });
  });

  it("tRPC answers the same as REST", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/trpc/payments.totals?input=${encodeURIComponent(JSON.stringify({ accountId: ids.usd }))}`,
      headers: users.en.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.data).toEqual({
      count: 2,
      currencies: [{ currency: "USD", count: 2, amount: "12400" }],
    });
  });

  it("refuses bad filters, needs the list's permission, and never counts another tenant's documents", async () => {
    for (const query of [
      "accountId=nope",
      "from=2026-02-30",
      "from=2026-03-02&to=2026-03-01",
      "categoryId=1",
    ]) {
      const res = await call(users.en, "GET", `/finance/payments/totals?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
    expect((await call(clerk, "GET", "/finance/payments/totals")).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/finance/payments/totals" })).statusCode).toBe(401);
    expect(await getJson(`/finance/payments/totals?accountId=${ids.kassa}`, stranger)).toEqual({
      count: 0,
      currencies: [],
    });
  });
});
