import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Finance downloads opened with exceljs: localized headers, real cell types (dates, money numbers in
 * each currency's format), the same rows as the JSON routes, permissions and tenancy.
 */

let t: TestApp;
let admin: SeededUser;
let stranger: SeededUser;
let russian: SeededUser;
let uzbek: SeededUser;
const ids = { cash: "", usd: "" };
const PERIOD = "startDate=2026-01-01&endDate=2026-12-31";

const readSheet = async (body: Buffer) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error("no sheet");
  return sheet;
};
const headersOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1);

/** A cell's value; a formula cell's cached result. */
const cellValue = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "result" in value
    ? (value as { result: unknown }).result
    : value;
/** Every row below the header, as plain values (formulas read as their results). */
const bodyRows = (sheet: ExcelJS.Worksheet): unknown[][] =>
  (sheet.getRows(2, sheet.rowCount - 1) ?? []).map((row) =>
    (row.values as unknown[]).slice(1).map(cellValue),
  );
/** A money cell (2 decimals in both currencies here) back in minor units, exactly; empty is zero. */
const minorOf = (value: unknown): bigint => {
  if (value === null || value === undefined) return 0n;
  if (typeof value !== "number") throw new Error(`not money: ${JSON.stringify(value)}`);
  return BigInt(Math.round(value * 100));
};
/** One currency's block of a section sheet (currency in column `at`): its detail rows and the total row closing it. */
const blockOf = (sheet: ExcelJS.Worksheet, currency: string, at: number) => {
  const rows = bodyRows(sheet);
  const indexes = rows.flatMap((row, index) => (row[at] === currency ? [index] : []));
  const last = indexes.at(-1) ?? -1;
  return {
    detail: indexes.slice(0, -1).map((index) => rows[index] as unknown[]),
    total: (rows[last] ?? []) as unknown[],
    totalRowNumber: last + 2,
  };
};
const downloadBook = async (user: SeededUser, url: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: user.headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return workbook;
};
const getJson = async (user: SeededUser, url: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const download = async (user: SeededUser, url: string) => {
  const res = await t.app.inject({ method: "GET", url, headers: user.headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  expect(res.headers["content-type"]).toBe(
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  );
  expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="?[\w.-]+\.xlsx"?$/);
  return readSheet(res.rawPayload);
};
const post = async (url: string, payload: Record<string, unknown>) => {
  const res = await t.app.inject({ method: "POST", url, headers: admin.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await t.createTenant();
  admin = await t.createUser(tenant.id, "admin");
  russian = await t.createUser(tenant.id, "admin");
  uzbek = await t.createUser(tenant.id, "admin");
  for (const [user, language] of [
    [russian, "ru"],
    [uzbek, "uz"],
  ] as const) {
    await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: user.headers,
      payload: { uiLanguage: language },
    });
  }
  stranger = await t.createUser((await t.createTenant()).id, "admin");
  await t.app.inject({
    method: "PUT",
    url: "/tenant/currencies",
    headers: admin.headers,
    payload: { codes: ["UZS", "USD"] },
  });
  ids.cash = (await post("/finance/accounts", { name: "Kassa", currency: "UZS" })).id;
  ids.usd = (await post("/finance/accounts", { name: "Dollar", currency: "USD" })).id;
  for (let i = 1; i <= 25; i++) {
    await post("/finance/payments", {
      accountId: ids.cash,
      amount: String(i * 100_050),
      date: `2026-0${1 + (i % 3)}-${String(i).padStart(2, "0")}`,
      comment: `Invoice ${i}`,
    });
  }
  await post("/finance/expenses", {
    accountId: ids.cash,
    amount: "250000",
    date: "2026-02-10",
    comment: "Rent",
  });
  await post("/finance/payments", { accountId: ids.usd, amount: "12345", date: "2026-03-01" });
  await post("/finance/exchanges", {
    fromAccountId: ids.usd,
    toAccountId: ids.cash,
    amount: "1000",
    rate: "126.5057",
    confirmRate: true,
    date: "2026-03-02",
  });
});

afterAll(async () => {
  await t?.close();
});

describe("list downloads", () => {
  it("payments: localized headers, dates as dates, money as numbers in the currency's format, same rows as the list", async () => {
    const sheet = await download(
      admin,
      `/finance/payments/export?accountId=${ids.cash}&sortBy=amount&order=asc`,
    );
    expect(headersOf(sheet)).toEqual([
      "Date",
      "Account",
      "Amount",
      "Currency",
      "Counterparty",
      "Category",
      "Comment",
      "Created",
    ]);
    expect(sheet.rowCount).toBe(1 + 25);
    const first = sheet.getRow(2);
    // A date-only value is that day at midnight in the file, whatever the server's time zone (run under
    // TZ=Asia/Tashkent and TZ=America/Los_Angeles): never the day before or a fraction of a day.
    expect(first.getCell(1).value).toEqual(new Date("2026-02-01T00:00:00.000Z"));
    expect(first.getCell(2).value).toBe("Kassa");
    expect(first.getCell(3).value).toBe(1000.5); // 100 050 tiyin
    expect(first.getCell(3).numFmt).toContain("0.00");
    expect(first.getCell(4).value).toBe("UZS");
    expect(sheet.getRow(26).getCell(3).value).toBe(25_012.5);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();

    const ranged = await download(admin, "/finance/payments/export?from=2026-02-01&to=2026-02-28");
    const list = (
      await t.app.inject({
        method: "GET",
        url: "/finance/payments?from=2026-02-01&to=2026-02-28&limit=100",
        headers: admin.headers,
      })
    ).json();
    expect(ranged.rowCount - 1).toBe(list.total);
    const limited = await download(admin, "/finance/payments/export?limit=3&offset=2");
    expect(limited.rowCount).toBe(1 + 3);
  });

  it("headers follow the reader's language", async () => {
    expect(headersOf(await download(russian, "/finance/expenses/export"))).toEqual([
      "Дата",
      "Счёт",
      "Сумма",
      "Валюта",
      "Контрагент",
      "Статья",
      "Комментарий",
      "Создано",
    ]);
    const uz = await download(uzbek, "/finance/accounts/export");
    expect(headersOf(uz)).toEqual([
      "Nomi",
      "Raqami",
      "Valyuta",
      "Qoldiq",
      "Overdraftga ruxsat",
      "Tavsif",
      "Yaratilgan",
    ]);
    expect(uz.name).toBe("Hisobvaraqlar");
  });

  it("accounts and an account's transactions, with balances and signed changes", async () => {
    const accounts = await download(admin, "/finance/accounts/export?sortBy=name");
    expect(accounts.rowCount).toBe(3);
    const byName = new Map(
      [2, 3].map((row) => [accounts.getRow(row).getCell(1).value, accounts.getRow(row).getCell(4)]),
    );
    const cash = (
      await t.app.inject({ method: "GET", url: `/finance/accounts/${ids.cash}`, headers: admin.headers })
    ).json();
    expect(byName.get("Kassa")?.value).toBe(Number(cash.balance) / 100);
    expect(byName.get("Dollar")?.numFmt).toContain('"USD"');

    const entries = await download(russian, `/finance/accounts/${ids.cash}/transactions/export?order=asc`);
    expect(headersOf(entries)[0]).toBe("Дата");
    expect(entries.rowCount).toBe(1 + 27);
    const types = new Set<unknown>();
    entries.eachRow((row, index) => {
      if (index > 1) types.add(row.getCell(2).value);
    });
    expect([...types].sort()).toEqual(["Обмен", "Поступление", "Расход"]);
    const expense = entries.getRows(2, 27)?.find((row) => row.getCell(2).value === "Расход");
    expect(expense?.getCell(3).value).toBe(-2500);
    expect(expense?.getCell(1).value).toEqual(new Date("2026-02-10T00:00:00.000Z"));
    const exchange = entries.getRows(2, 27)?.find((row) => row.getCell(2).value === "Обмен");
    expect(exchange?.getCell(3).value).toBe(1265.05); // trunc(1000 × 126.5057) = 126 505 tiyin
    expect(exchange?.getCell(4).value).toBe("Dollar");
  });
});

describe("records downloads", () => {
  it("debts, counterparties and inventory, with localized labels", async () => {
    const customer = await post("/finance/counterparties", {
      name: "Oqtepa LLC",
      tin: "301234567",
      type: "both",
    });
    await post("/finance/counterparties", { name: "Zarafshon", type: "supplier" });
    await post("/finance/debts", {
      kind: "receivable",
      counterpartyId: customer.id,
      amount: "500000",
      currency: "UZS",
      dueDate: "2026-12-31",
    });
    await post("/finance/debts", {
      kind: "payable",
      counterpartyId: customer.id,
      amount: "700",
      currency: "USD",
    });
    await post("/finance/inventory", {
      name: "Paper A4",
      sku: "PAPER-A4",
      unit: "box",
      quantity: "12.5",
      unitPrice: "4500000",
      currency: "UZS",
    });

    const debts = await download(russian, "/finance/debts/export?sortBy=dueDate&order=asc");
    expect(headersOf(debts)).toEqual([
      "Вид",
      "Контрагент",
      "Сумма",
      "Остаток долга",
      "Валюта",
      "Срок",
      "Статус",
      "Описание",
      "Создано",
    ]);
    expect(debts.rowCount).toBe(3);
    expect(debts.getRow(2).getCell(1).value).toBe("Дебиторская");
    expect(debts.getRow(2).getCell(3).value).toBe(5000);
    expect(debts.getRow(2).getCell(6).value).toEqual(new Date("2026-12-31T00:00:00.000Z"));
    expect(debts.getRow(2).getCell(7).value).toBe("Ожидает");
    expect(debts.getRow(3).getCell(6).value).toBeNull(); // undated debts come last
    expect(debts.getRow(3).getCell(3).numFmt).toContain('"USD"');
    expect((await download(admin, "/finance/debts/export?kind=payable")).rowCount).toBe(2);

    const parties = await download(uzbek, "/finance/counterparties/export?type=supplier");
    expect(headersOf(parties).slice(0, 3)).toEqual(["Nomi", "STIR", "Turi"]);
    expect(parties.rowCount).toBe(3); // both + supplier
    expect(parties.getRow(2).getCell(3).value).toBe("Xaridor va yetkazib beruvchi");

    const stock = await download(admin, "/finance/inventory/export");
    expect(headersOf(stock)).toEqual([
      "Name",
      "SKU",
      "Unit",
      "Quantity",
      "Unit price",
      "Currency",
      "Description",
      "Created",
    ]);
    expect(stock.getRow(2).getCell(4).value).toBe(12.5);
    expect(stock.getRow(2).getCell(5).value).toBe(45000);
    expect((await download(stranger, "/finance/debts/export")).rowCount).toBe(1);
  });
});

describe("report downloads", () => {
  it("income statement: a summary and one sheet per section; each section adds up to the JSON's totals", async () => {
    const json = await getJson(admin, `/finance/reports/income-statement?${PERIOD}`);
    const book = await downloadBook(admin, `/finance/reports/income-statement/export?${PERIOD}`);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      "Income statement",
      "Revenue",
      "Expenses",
      "By month",
    ]);
    const [summary, revenue, expenses, byMonth] = book.worksheets as ExcelJS.Worksheet[];
    type Section = {
      currency: string;
      revenue: string;
      expenses: string;
      netIncome: string;
      byMonth: unknown[];
    };
    const currencies = json.currencies as Section[];
    expect(currencies.map((c) => c.currency)).toEqual(["USD", "UZS"]);
    expect(headersOf(summary as ExcelJS.Worksheet)).toEqual([
      "Currency",
      "Revenue",
      "Expenses",
      "Net income",
    ]);
    expect(
      bodyRows(summary as ExcelJS.Worksheet).map(([currency, ...amounts]) => [
        currency,
        ...amounts.map(minorOf),
      ]),
    ).toEqual(
      currencies.map((c) => [c.currency, BigInt(c.revenue), BigInt(c.expenses), BigInt(c.netIncome)]),
    );
    for (const [sheet, key] of [
      [revenue, "revenue"],
      [expenses, "expenses"],
    ] as const) {
      expect(headersOf(sheet as ExcelJS.Worksheet)).toEqual(["Currency", "Category", "Amount"]);
      for (const c of currencies) {
        const block = blockOf(sheet as ExcelJS.Worksheet, c.currency, 0);
        expect(block.total[1]).toBe("Total");
        expect(block.detail.reduce((sum, row) => sum + minorOf(row[2]), 0n)).toBe(BigInt(c[key]));
        expect(minorOf(block.total[2])).toBe(BigInt(c[key]));
      }
    }
    expect(headersOf(byMonth as ExcelJS.Worksheet)).toEqual([
      "Currency",
      "Month",
      "Revenue",
      "Expenses",
      "Net income",
    ]);
    for (const c of currencies) {
      const block = blockOf(byMonth as ExcelJS.Worksheet, c.currency, 0);
      expect(block.detail).toHaveLength(c.byMonth.length);
      ["revenue", "expenses", "netIncome"].forEach((key, index) => {
        const column = 2 + index;
        expect(block.detail.reduce((sum, row) => sum + minorOf(row[column]), 0n)).toBe(
          BigInt(c[key as "revenue"]),
        );
        expect(minorOf(block.total[column])).toBe(BigInt(c[key as "revenue"]));
      });
    }
    // Totals are marked: bold, and a SUBTOTAL over their block (which a column SUBTOTAL skips).
    const totalRow = (revenue as ExcelJS.Worksheet).getRow(
      blockOf(revenue as ExcelJS.Worksheet, "UZS", 0).totalRowNumber,
    );
    expect(totalRow.font?.bold).toBe(true);
    expect((totalRow.getCell(3).value as { formula?: string }).formula).toMatch(/^SUBTOTAL\(9,C\d+:C\d+\)$/);
  });

  it("cash flow: accounts by currency with per-currency totals, periods per account, transfers and exchanges; each adds up to the JSON", async () => {
    const json = await getJson(admin, `/finance/reports/cashflow?${PERIOD}&granularity=month`);
    const book = await downloadBook(admin, `/finance/reports/cashflow/export?${PERIOD}&granularity=month`);
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual([
      "Cash flow",
      "Periods",
      "Transfers and exchanges",
    ]);
    const [accounts, periods, movements] = book.worksheets as ExcelJS.Worksheet[];
    const FLOWS = [
      "inflows",
      "outflows",
      "income",
      "expense",
      "transfersIn",
      "transfersOut",
      "exchangesIn",
      "exchangesOut",
    ];
    type Flows = Record<string, string>;
    type Account = Flows & {
      accountId: string;
      name: string;
      currency: string;
      openingBalance: string;
      closingBalance: string;
      periods: Flows[];
    };
    const moneyKeys = ["openingBalance", ...FLOWS, "closingBalance"];
    expect(headersOf(accounts as ExcelJS.Worksheet)).toEqual([
      "Account",
      "Currency",
      "Opening balance",
      "Inflows",
      "Outflows",
      "Income",
      "Expenses",
      "Transfers in",
      "Transfers out",
      "Exchanges in",
      "Exchanges out",
      "Closing balance",
    ]);
    for (const total of json.totals as Flows[]) {
      const block = blockOf(accounts as ExcelJS.Worksheet, total.currency as string, 1);
      expect(block.total[0]).toBe("Total");
      moneyKeys.forEach((key, index) => {
        const column = 2 + index;
        expect(
          block.detail.reduce((sum, row) => sum + minorOf(row[column]), 0n),
          key,
        ).toBe(BigInt(total[key] as string));
        expect(minorOf(block.total[column]), key).toBe(BigInt(total[key] as string));
      });
    }
    const rowsOfPeriods = bodyRows(periods as ExcelJS.Worksheet);
    // Every month of the year, empty ones included, labelled like the JSON ("2026-03"), with its balances.
    const kassa = rowsOfPeriods.filter((row) => row[0] === "Kassa");
    expect(kassa.map((row) => row[2])).toEqual([
      ...Array.from({ length: 12 }, (_, index) => `2026-${String(index + 1).padStart(2, "0")}`),
      "Total",
    ]);
    expect(minorOf(kassa[11]?.[12])).toBe(minorOf(kassa[12]?.[12]));
    for (const account of json.accounts as Account[]) {
      const mine = rowsOfPeriods.filter((row) => row[0] === account.name);
      const total = mine.at(-1) ?? [];
      expect(total[2]).toBe("Total");
      FLOWS.forEach((key, index) => {
        const column = 4 + index;
        expect(
          mine.slice(0, -1).reduce((sum, row) => sum + minorOf(row[column]), 0n),
          key,
        ).toBe(BigInt(account[key] as string));
        expect(minorOf(total[column])).toBe(BigInt(account[key] as string));
      });
    }
    // Transfers and exchanges: what left and entered each account, as the accounts' columns say.
    const moved = bodyRows(movements as ExcelJS.Worksheet);
    expect(moved).toHaveLength(json.movements.length);
    expect(moved[0]?.slice(0, 3)).toEqual(["Exchange", "Dollar", "USD"]);
    for (const account of json.accounts as Account[]) {
      const out = moved
        .filter((row) => row[1] === account.name)
        .reduce((sum, row) => sum + minorOf(row[3]), 0n);
      const into = moved
        .filter((row) => row[4] === account.name)
        .reduce((sum, row) => sum + minorOf(row[6]), 0n);
      expect(out).toBe(BigInt(account.transfersOut as string) + BigInt(account.exchangesOut as string));
      expect(into).toBe(BigInt(account.transfersIn as string) + BigInt(account.exchangesIn as string));
    }
    const uzbekBook = await downloadBook(
      uzbek,
      `/finance/reports/cashflow/export?${PERIOD}&granularity=month`,
    );
    expect(headersOf(uzbekBook.worksheets[0] as ExcelJS.Worksheet)[0]).toBe("Hisobvaraq");
  });

  it("account statement: opening row, every entry with its running balance, closing row", async () => {
    const sheet = await download(admin, `/finance/reports/account-statement/${ids.cash}/export?${PERIOD}`);
    expect(headersOf(sheet)).toEqual([
      "Date",
      "Type",
      "Other account",
      "Comment",
      "Reversal",
      "Change",
      "Balance after",
    ]);
    expect(sheet.rowCount).toBe(1 + 1 + 27 + 1);
    expect(sheet.getRow(2).getCell(2).value).toBe("Opening balance");
    expect(sheet.getRow(2).getCell(7).value).toBe(0);
    const cash = (
      await t.app.inject({ method: "GET", url: `/finance/accounts/${ids.cash}`, headers: admin.headers })
    ).json();
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(2).value).toBe("Closing balance");
    expect(last.getCell(7).value).toBe(Number(cash.balance) / 100);
    expect(sheet.getRow(sheet.rowCount - 1).getCell(7).value).toBe(Number(cash.balance) / 100);
  });
});

describe("the language of a download", () => {
  const get = (user: SeededUser, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url, headers: { ...user.headers, ...headers } });

  it("is the signed-in user's profile language, whatever Accept-Language says", async () => {
    const res = await get(russian, "/finance/payments/export?limit=1", { "accept-language": "en, uz;q=0.5" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-language"]).toBe("ru");
    expect(headersOf(await readSheet(res.rawPayload))[0]).toBe("Дата");
  });

  it("?lang= exports in another language on every download route", async () => {
    const urls = [
      "/finance/payments/export",
      "/finance/expenses/export",
      "/finance/accounts/export",
      `/finance/accounts/${ids.cash}/transactions/export`,
      "/finance/debts/export",
      "/finance/counterparties/export",
      "/finance/inventory/export",
      `/finance/reports/income-statement/export?${PERIOD}`,
      `/finance/reports/cashflow/export?${PERIOD}`,
      `/finance/reports/account-statement/${ids.cash}/export?${PERIOD}`,
      "/users/export",
    ];
    for (const url of urls) {
      const withLang = `${url}${url.includes("?") ? "&" : "?"}lang=en`;
      const res = await get(uzbek, withLang);
      expect(res.statusCode, `${withLang}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers["content-language"], withLang).toBe("en");
    }
    const english = await readSheet(
      (await get(uzbek, "/finance/payments/export?lang=en&limit=1")).rawPayload,
    );
    expect(headersOf(english)[0]).toBe("Date");
    const russianForAdmin = await readSheet(
      (await get(admin, `/finance/reports/income-statement/export?lang=ru&${PERIOD}`)).rawPayload,
    );
    expect(russianForAdmin.name).not.toBe("Income statement");
    const users = await readSheet((await get(admin, "/users/export?lang=uz")).rawPayload);
    expect(users.name).toBe("Foydalanuvchilar");
  });

  it("refuses a language it does not speak, in the caller's own language", async () => {
    for (const lang of ["fr", "", "RU-ru"]) {
      const res = await get(russian, `/finance/payments/export?lang=${lang}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.issues).toEqual([
        { path: "lang", message: "должно быть одним из значений: en, ru, uz" },
      ]);
    }
  });
});

describe("bad input, permissions and tenancy", () => {
  it("refuses bad queries with 400 before streaming", async () => {
    for (const url of [
      "/finance/payments/export?from=2026-03-01&to=2026-01-01",
      "/finance/payments/export?limit=0",
      "/finance/payments/export?limit=2000000",
      "/finance/accounts/export?sortBy=nope",
      `/finance/accounts/${ids.cash}/transactions/export?type=gift`,
      "/finance/reports/income-statement/export?startDate=2026-02-30&endDate=2026-03-01",
      "/finance/reports/cashflow/export?startDate=2026-03-01",
      `/finance/reports/account-statement/${ids.cash}/export?startDate=2026-05-01&endDate=2026-04-01`,
      "/finance/reports/account-statement/not-a-uuid/export?startDate=2026-01-01&endDate=2026-02-01",
    ]) {
      const res = await t.app.inject({ method: "GET", url, headers: admin.headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("needs the read permission of the matching JSON route", async () => {
    const clerk = await t.createUser((await t.createTenant()).id, ["payments:create:all"]);
    for (const url of [
      "/finance/payments/export",
      "/finance/expenses/export",
      "/finance/accounts/export",
      `/finance/reports/income-statement/export?${PERIOD}`,
      `/finance/reports/cashflow/export?${PERIOD}`,
    ]) {
      expect((await t.app.inject({ method: "GET", url, headers: clerk.headers })).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(401);
    }
  });

  it("another tenant gets 404 for this tenant's account and none of its rows", async () => {
    for (const url of [
      `/finance/accounts/${ids.cash}/transactions/export`,
      `/finance/reports/account-statement/${ids.cash}/export?${PERIOD}`,
    ]) {
      expect((await t.app.inject({ method: "GET", url, headers: stranger.headers })).statusCode, url).toBe(
        404,
      );
    }
    expect((await download(stranger, "/finance/payments/export")).rowCount).toBe(1);
    expect((await download(stranger, `/finance/payments/export?accountId=${ids.cash}`)).rowCount).toBe(1);
    expect((await download(stranger, "/finance/accounts/export")).rowCount).toBe(1);
  });
});
