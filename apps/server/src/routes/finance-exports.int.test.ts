import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../testing/test-app";

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
      "/finance/payments/export?accountId=" + ids.cash + "&sortBy=amount&order=asc",
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
    expect(first.getCell(1).value).toBeInstanceOf(Date);
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
      "Категория",
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
    expect(uz.name).toBe("Hisoblar");
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
    expect(byName.get("Dollar")?.numFmt).toContain("$");

    const entries = await download(russian, `/finance/accounts/${ids.cash}/transactions/export?order=asc`);
    expect(headersOf(entries)[0]).toBe("Дата");
    expect(entries.rowCount).toBe(1 + 27);
    const types = new Set<unknown>();
    entries.eachRow((row, index) => {
      if (index > 1) types.add(row.getCell(2).value);
    });
    expect([...types].sort()).toEqual(["Доход", "Обмен", "Расход"]);
    const expense = entries.getRows(2, 27)?.find((row) => row.getCell(2).value === "Расход");
    expect(expense?.getCell(3).value).toBe(-2500);
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
    expect(debts.getRow(2).getCell(6).value).toBeInstanceOf(Date);
    expect(debts.getRow(2).getCell(7).value).toBe("Ожидает");
    expect(debts.getRow(3).getCell(6).value).toBeNull(); // undated debts come last
    expect(debts.getRow(3).getCell(3).numFmt).toContain("$");
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
  it("income statement and cash flow agree with their JSON", async () => {
    const json = (
      await t.app.inject({
        method: "GET",
        url: `/finance/reports/income-statement?${PERIOD}`,
        headers: admin.headers,
      })
    ).json();
    const sheet = await download(admin, `/finance/reports/income-statement/export?${PERIOD}`);
    expect(headersOf(sheet)).toEqual(["Currency", "Section", "Category", "Month", "Amount"]);
    const uzs = json.currencies.find((c: { currency: string }) => c.currency === "UZS");
    const net = sheet
      .getRows(2, sheet.rowCount - 1)
      ?.find(
        (row) =>
          row.getCell(1).value === "UZS" && row.getCell(2).value === "Net income" && !row.getCell(4).value,
      );
    expect(net?.getCell(5).value).toBe(Number(uzs.netIncome) / 100);

    const flow = await download(uzbek, `/finance/reports/cashflow/export?${PERIOD}&granularity=month`);
    expect(headersOf(flow)[0]).toBe("Hisob");
    const total = flow
      .getRows(2, flow.rowCount - 1)
      ?.find((row) => row.getCell(1).value === "Kassa" && row.getCell(3).value === "Jami");
    const cash = (
      await t.app.inject({ method: "GET", url: `/finance/accounts/${ids.cash}`, headers: admin.headers })
    ).json();
    expect(total?.getCell(13).value).toBe(Number(cash.balance) / 100);
  });

  it("account statement: opening row, every entry with its running balance, closing row", async () => {
    const sheet = await download(admin, `/finance/reports/account-statement/${ids.cash}/export?${PERIOD}`);
    expect(headersOf(sheet)).toEqual(["Date", "Type", "Other account", "Comment", "Change", "Balance after"]);
    expect(sheet.rowCount).toBe(1 + 1 + 27 + 1);
    expect(sheet.getRow(2).getCell(2).value).toBe("Opening balance");
    expect(sheet.getRow(2).getCell(6).value).toBe(0);
    const cash = (
      await t.app.inject({ method: "GET", url: `/finance/accounts/${ids.cash}`, headers: admin.headers })
    ).json();
    const last = sheet.getRow(sheet.rowCount);
    expect(last.getCell(2).value).toBe("Closing balance");
    expect(last.getCell(6).value).toBe(Number(cash.balance) / 100);
    expect(sheet.getRow(sheet.rowCount - 1).getCell(6).value).toBe(Number(cash.balance) / 100);
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
