import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caller,
  expectError,
  expectFieldError,
  HOSTILE_TEXT,
  MISSING_ID,
  TODAY,
  unique,
} from "../../testing/finance-records";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Counterparties and payment / expense categories over REST, on whichever database the run uses
 * (PGlite, or PostgreSQL with DATABASE_URL): happy paths, errors, permissions, other tenants.
 */

let t: TestApp;
let tenantA: { id: string };
let adminA: SeededUser;
let adminB: SeededUser;
const call = caller(() => t);

type Counterparty = { id: string; name: string; tin: string; type: string; updatedAt: string };
type Category = { id: string; parentId: string | null; name: string; description: string };

const createCounterparty = async (who: SeededUser, body: Record<string, unknown> = {}) => {
  const res = await call(who, "POST", "/finance/counterparties", { name: unique("Counterparty"), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Counterparty;
};

const counts = (tenantId: string) =>
  t.db.withTenant(tenantId, async (tx) => ({
    counterparties: await tx.counterparty.count(),
    paymentCategories: await tx.paymentCategory.count(),
    expenseCategories: await tx.expenseCategory.count(),
  }));

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant();
  const tenantB = await t.createTenant();
  adminA = await t.createUser(tenantA.id, "admin");
  adminB = await t.createUser(tenantB.id, "admin");
});

afterAll(async () => {
  await t?.close();
});

describe("counterparties", () => {
  it("creates one with every field, reads and lists it", async () => {
    const body = {
      name: "  Toshkent Savdo MChJ  ",
      tin: "301234567",
      type: "supplier",
      phone: "+998 90 123-45-67",
      email: "buh@savdo.uz",
      address: "Toshkent, Amir Temur ko‘chasi 1",
      notes: "Pays on the 5th\nAsk for Dilnoza",
    };
    const res = await call(adminA, "POST", "/finance/counterparties", body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ ...body, name: "Toshkent Savdo MChJ" });
    expect((await call(adminA, "GET", `/finance/counterparties/${created.id}`)).json()).toEqual(created);
    const list = (await call(adminA, "GET", "/finance/counterparties?tin=301234567")).json();
    expect(list).toMatchObject({ total: 1, items: [{ id: created.id }] });
  });

  it("defaults a bare name to a customer with empty contacts", async () => {
    const created = await createCounterparty(adminA);
    expect(created).toMatchObject({
      tin: "",
      type: "customer",
      phone: "",
      email: "",
      address: "",
      notes: "",
    });
  });

  it("filters by type (both counts as customer and as supplier), searches and sorts", async () => {
    const tag = unique("Filter").replace(/\s/g, "");
    const customer = await createCounterparty(adminA, { name: `${tag} C`, type: "customer" });
    const supplier = await createCounterparty(adminA, { name: `${tag} S`, type: "supplier" });
    const both = await createCounterparty(adminA, { name: `${tag} B`, type: "both", email: `${tag}@x.uz` });
    const other = await createCounterparty(adminA, {
      name: `${tag} O`,
      type: "other",
      phone: "+998 71 200-00-00",
    });
    const ids = async (query: string) =>
      (await call(adminA, "GET", `/finance/counterparties?search=${tag}&${query}`))
        .json()
        .items.map((item: Counterparty) => item.id);
    expect(await ids("type=customer")).toEqual([both.id, customer.id]);
    expect(await ids("type=supplier")).toEqual([both.id, supplier.id]);
    expect(await ids("type=both")).toEqual([both.id]);
    expect(await ids("type=other")).toEqual([other.id]);
    expect(await ids("sortBy=name&order=desc")).toEqual([supplier.id, other.id, customer.id, both.id]);
    expect(await ids("sortBy=createdAt&order=asc&limit=2&offset=1")).toEqual([supplier.id, both.id]);
    // Search reaches the email and the phone too, case-insensitively.
    const byEmail = await call(adminA, "GET", `/finance/counterparties?search=${tag.toUpperCase()}%40X`);
    expect(byEmail.json().items.map((item: Counterparty) => item.id)).toEqual([both.id]);
    const byPhone = await call(adminA, "GET", "/finance/counterparties?search=200-00-00");
    expect(byPhone.json().items.map((item: Counterparty) => item.id)).toContain(other.id);
  });

  it("updates only the fields given", async () => {
    const created = await createCounterparty(adminA, { tin: "123456789", notes: "old" });
    const res = await call(adminA, "PUT", `/finance/counterparties/${created.id}`, {
      notes: "new",
      type: "both",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: created.name, tin: "123456789", notes: "new", type: "both" });
    expectError(
      await call(adminA, "PUT", `/finance/counterparties/${MISSING_ID}`, { notes: "x" }),
      404,
      "NOT_FOUND",
      "finance.counterparty_not_found",
    );
  });

  it("deletes an unused counterparty; refuses one a payment, an expense or a debt refers to", async () => {
    const unused = await createCounterparty(adminA);
    expect((await call(adminA, "DELETE", `/finance/counterparties/${unused.id}`)).statusCode).toBe(204);
    expectError(
      await call(adminA, "GET", `/finance/counterparties/${unused.id}`),
      404,
      "NOT_FOUND",
      "finance.counterparty_not_found",
    );
    expectError(await call(adminA, "DELETE", `/finance/counterparties/${unused.id}`), 404, "NOT_FOUND");
    const account = (
      await call(adminA, "POST", "/finance/accounts", { name: unique("Cash"), currency: "UZS" })
    ).json();
    for (const kind of ["payments", "expenses", "debts"] as const) {
      const used = await createCounterparty(adminA);
      const body =
        kind === "debts"
          ? { kind: "receivable", counterpartyId: used.id, amount: "10", currency: "UZS" }
          : { accountId: account.id, amount: "10", date: TODAY, counterpartyId: used.id };
      if (kind === "expenses") {
        await call(adminA, "POST", "/finance/payments", { accountId: account.id, amount: "10", date: TODAY });
      }
      const res = await call(adminA, "POST", `/finance/${kind}`, body);
      expect(res.statusCode, res.body).toBe(201);
      expectError(
        await call(adminA, "DELETE", `/finance/counterparties/${used.id}`),
        409,
        "CONFLICT",
        "finance.counterparty_in_use",
      );
      expect((await call(adminA, "GET", `/finance/counterparties/${used.id}`)).statusCode).toBe(200);
    }
  });

  describe("bad input is refused, names the field and writes nothing", () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["missing name", { name: undefined }, "name"],
      ["empty name", { name: "" }, "name"],
      ["blank name", { name: "   " }, "name"],
      ["name too long", { name: "x".repeat(201) }, "name"],
      ["huge name", { name: "x".repeat(100_000) }, "name"],
      ...HOSTILE_TEXT.map(([what, value]): [string, Record<string, unknown>, string] => [
        `name with ${what}`,
        { name: value },
        "name",
      ]),
      ["notes with a NUL", { notes: "line\u0000" }, "notes"],
      ["address with a lone surrogate", { address: "\udc00" }, "address"],
      ["tin with spaces", { tin: "301 234 567" }, "tin"],
      ["tin too long", { tin: "1".repeat(33) }, "tin"],
      ["tin as SQL", { tin: "1' OR '1'='1" }, "tin"],
      ["unknown type", { type: "partner" }, "type"],
      ["phone with letters", { phone: "call me" }, "phone"],
      ["email without @", { email: "buh.savdo.uz" }, "email"],
      ["email with a script", { email: "<script>@x.uz" }, "email"],
      ["address too long", { address: "x".repeat(501) }, "address"],
      ["notes too long", { notes: "x".repeat(2001) }, "notes"],
      ["an unknown field", { balance: "5" }, "balance"],
      ["a prototype key", JSON.parse('{"constructor": {"prototype": {"x": 1}}}'), "constructor"],
    ];

    it.each(cases)("create: %s", async (_name, change, field) => {
      const before = await counts(tenantA.id);
      const res = await call(adminA, "POST", "/finance/counterparties", { name: unique("C"), ...change });
      if (field === "constructor") expectError(res, 400, "VALIDATION_ERROR");
      else expectFieldError(res, field);
      expect(await counts(tenantA.id)).toEqual(before);
    });

    it.each(
      cases.filter(([, change]) => !("name" in change && change.name === undefined)),
    )("update: %s", async (_name, change, field) => {
      const existing = await createCounterparty(adminA);
      const res = await call(adminA, "PUT", `/finance/counterparties/${existing.id}`, change);
      if (field === "constructor") expectError(res, 400, "VALIDATION_ERROR");
      else expectFieldError(res, field);
      expect((await call(adminA, "GET", `/finance/counterparties/${existing.id}`)).json()).toEqual(existing);
    });

    it.each([
      ["sortBy=balance", "sortBy"],
      ["order=up", "order"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["offset=-1", "offset"],
      ["type=partner", "type"],
      ["search=", "search"],
      ["search=%00", "search"],
      [`search=${"x".repeat(101)}`, "search"],
    ])("list: %s", async (query, field) => {
      expectFieldError(await call(adminA, "GET", `/finance/counterparties?${query}`), field);
    });

    it("a path id that is not a UUID", async () => {
      expectFieldError(await call(adminA, "GET", "/finance/counterparties/1%20OR%201=1"), "id");
      expectFieldError(await call(adminA, "DELETE", "/finance/counterparties/abc"), "id");
    });

    it("a body that is not an object", async () => {
      for (const payload of ["[]", "null", '"x"', "{", "1"]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/finance/counterparties",
          headers: { ...adminA.headers, "content-type": "application/json" },
          payload,
        });
        expectError(res, 400, "VALIDATION_ERROR");
      }
    });
  });
});

describe.each([
  ["payment", "/finance/payment-categories", "/finance/payments"],
  ["expense", "/finance/expense-categories", "/finance/expenses"],
] as const)("%s categories", (kind, path, documents) => {
  const other = kind === "payment" ? "/finance/expense-categories" : "/finance/payment-categories";
  const create = async (body: Record<string, unknown> = {}, who = adminA) => {
    const res = await call(who, "POST", path, { name: unique("Category"), ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Category;
  };
  const parentOf = async (id: string) => (await call(adminA, "GET", `${path}/${id}`)).json().parentId;

  it("creates a tree, reads it and lists by level", async () => {
    const root = await create({ name: unique("Sales"), description: "All sales" });
    expect(root).toMatchObject({ parentId: null, description: "All sales" });
    const child = await create({ parentId: root.id });
    const grandchild = await create({ parentId: child.id });
    expect(grandchild.parentId).toBe(child.id);
    expect((await call(adminA, "GET", `${path}/${child.id}`)).json()).toEqual(child);
    const children = (await call(adminA, "GET", `${path}?parentId=${root.id}`)).json();
    expect(children).toMatchObject({ total: 1, items: [{ id: child.id }] });
    const roots = (await call(adminA, "GET", `${path}?root=true&limit=100`)).json();
    expect(roots.items.map((item: Category) => item.id)).toContain(root.id);
    expect(roots.items.map((item: Category) => item.id)).not.toContain(child.id);
    const nested = (await call(adminA, "GET", `${path}?root=false&limit=100`)).json();
    expect(nested.items.map((item: Category) => item.id)).toEqual(
      expect.arrayContaining([child.id, grandchild.id]),
    );
    const searched = (await call(adminA, "GET", `${path}?search=all%20SALES`)).json();
    expect(searched.items.map((item: Category) => item.id)).toEqual([root.id]);
  });

  it("renames, describes and moves a category, or makes it top-level", async () => {
    const a = await create();
    const b = await create();
    const child = await create({ parentId: a.id });
    let res = await call(adminA, "PUT", `${path}/${child.id}`, { name: "Renamed", description: "Moved" });
    expect(res.json()).toMatchObject({ name: "Renamed", description: "Moved", parentId: a.id });
    res = await call(adminA, "PUT", `${path}/${child.id}`, { parentId: b.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().parentId).toBe(b.id);
    res = await call(adminA, "PUT", `${path}/${child.id}`, { parentId: null });
    expect(res.json().parentId).toBeNull();
  });

  it("a category can never become its own ancestor", async () => {
    const top = await create();
    const middle = await create({ parentId: top.id });
    const bottom = await create({ parentId: middle.id });
    const before = await counts(tenantA.id);
    for (const parentId of [top.id, middle.id, bottom.id]) {
      expectFieldError(
        await call(adminA, "PUT", `${path}/${top.id}`, { parentId }),
        "parentId",
        "finance.category_cycle",
      );
    }
    expectFieldError(
      await call(adminA, "PUT", `${path}/${middle.id}`, { parentId: bottom.id }),
      "parentId",
      "finance.category_cycle",
    );
    expect(await parentOf(top.id)).toBeNull();
    expect(await parentOf(middle.id)).toBe(top.id);
    expect(await parentOf(bottom.id)).toBe(middle.id);
    expect(await counts(tenantA.id)).toEqual(before);
    // Moving a subtree sideways is fine: bottom under top directly.
    expect((await call(adminA, "PUT", `${path}/${bottom.id}`, { parentId: top.id })).statusCode).toBe(200);
  });

  it("a parent must be a category of the same kind in the same organization", async () => {
    const before = await counts(tenantA.id);
    const foreign = await create({}, adminB);
    const otherKind = (await call(adminA, "POST", other, { name: unique("Other") })).json() as Category;
    const afterOther = await counts(tenantA.id);
    for (const parentId of [MISSING_ID, foreign.id, otherKind.id]) {
      expectFieldError(
        await call(adminA, "POST", path, { name: unique("C"), parentId }),
        "parentId",
        "finance.unknown_parent_category",
      );
    }
    expect(await counts(tenantA.id)).toEqual(afterOther);
    expect(afterOther).not.toEqual(before);
    const mine = await create();
    for (const parentId of [MISSING_ID, foreign.id, otherKind.id]) {
      expectFieldError(
        await call(adminA, "PUT", `${path}/${mine.id}`, { parentId }),
        "parentId",
        "finance.unknown_parent_category",
      );
    }
    expect(await parentOf(mine.id)).toBeNull();
  });

  it("deletion is refused while it has subcategories or documents use it", async () => {
    const parent = await create();
    const child = await create({ parentId: parent.id });
    expectError(
      await call(adminA, "DELETE", `${path}/${parent.id}`),
      409,
      "CONFLICT",
      "finance.category_has_children",
    );
    const account = (
      await call(adminA, "POST", "/finance/accounts", {
        name: unique("Cash"),
        currency: "UZS",
        allowOverdraft: true,
      })
    ).json();
    const doc = await call(adminA, "POST", documents, {
      accountId: account.id,
      amount: "10",
      date: TODAY,
      categoryId: child.id,
    });
    expect(doc.statusCode, doc.body).toBe(201);
    const inUse = await call(adminA, "DELETE", `${path}/${child.id}`);
    const refusal = expectError(inUse, 409, "CONFLICT", `finance.category_used_by_${kind}s`);
    // The answer names what uses the category, and how many.
    expect(refusal.message).toMatch(
      kind === "payment" ? /^Payments using the category: 1\b/ : /^Expenses using the category: 1\b/,
    );
    // A document cannot use the other kind's category.
    const wrong = await call(
      adminA,
      "POST",
      documents.replace(
        kind === "payment" ? "payments" : "expenses",
        kind === "payment" ? "expenses" : "payments",
      ),
      {
        accountId: account.id,
        amount: "1",
        date: TODAY,
        categoryId: child.id,
      },
    );
    expectFieldError(wrong, "categoryId", "finance.unknown_category");
    // Once the document no longer uses it, and the child is gone, both go.
    expect(
      (await call(adminA, "PUT", `${documents}/${doc.json().id}`, { categoryId: null })).statusCode,
    ).toBe(200);
    expect((await call(adminA, "DELETE", `${path}/${child.id}`)).statusCode).toBe(204);
    expect((await call(adminA, "DELETE", `${path}/${parent.id}`)).statusCode).toBe(204);
    expectError(
      await call(adminA, "GET", `${path}/${parent.id}`),
      404,
      "NOT_FOUND",
      `finance.${kind}_category_not_found`,
    );
  });

  describe("bad input", () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["missing name", { name: undefined }, "name"],
      ["empty name", { name: "" }, "name"],
      ["name too long", { name: "x".repeat(101) }, "name"],
      ...HOSTILE_TEXT.map(([what, value]): [string, Record<string, unknown>, string] => [
        `name with ${what}`,
        { name: value },
        "name",
      ]),
      ["description too long", { description: "x".repeat(1001) }, "description"],
      ["description with a NUL", { description: "\u0000" }, "description"],
      ["parent id that is not a UUID", { parentId: "root" }, "parentId"],
      ["parent id as a number", { parentId: 1 }, "parentId"],
      ["an unknown field", { children: [] }, "children"],
    ];

    it.each(cases)("create: %s", async (_name, change, field) => {
      const before = await counts(tenantA.id);
      expectFieldError(await call(adminA, "POST", path, { name: unique("C"), ...change }), field);
      expect(await counts(tenantA.id)).toEqual(before);
    });

    it.each(cases.filter(([name]) => name !== "missing name"))("update: %s", async (_name, change, field) => {
      const existing = await create();
      expectFieldError(await call(adminA, "PUT", `${path}/${existing.id}`, change), field);
      expect((await call(adminA, "GET", `${path}/${existing.id}`)).json()).toEqual(existing);
    });

    it.each([
      ["root=yes", "root"],
      [`root=true&parentId=${MISSING_ID}`, "root"],
      ["parentId=none", "parentId"],
      ["sortBy=parent", "sortBy"],
      ["limit=1000", "limit"],
    ])("list: %s", async (query, field) => {
      expectFieldError(await call(adminA, "GET", `${path}?${query}`), field);
    });
  });
});

describe("permissions and tenancy", () => {
  it("each route needs its permission; without credentials, 401", async () => {
    const counterparty = await createCounterparty(adminA);
    const category = (
      await call(adminA, "POST", "/finance/payment-categories", { name: unique("C") })
    ).json();
    const reader = await t.createUser(tenantA.id, ["counterparties:read:all", "categories:read:all"]);
    const forbidden: Array<[string, "GET" | "POST" | "PUT" | "DELETE", string, unknown?]> = [
      ["counterparties:create:all", "POST", "/finance/counterparties", { name: "X" }],
      ["counterparties:update:all", "PUT", `/finance/counterparties/${counterparty.id}`, { name: "X" }],
      ["counterparties:delete:all", "DELETE", `/finance/counterparties/${counterparty.id}`],
      ["categories:create:all", "POST", "/finance/payment-categories", { name: "X" }],
      ["categories:create:all", "POST", "/finance/expense-categories", { name: "X" }],
      ["categories:update:all", "PUT", `/finance/payment-categories/${category.id}`, { name: "X" }],
      ["categories:delete:all", "DELETE", `/finance/payment-categories/${category.id}`],
    ];
    for (const [permission, method, url, body] of forbidden) {
      const res = await call(reader, method, url, body);
      expect(res.statusCode, `${permission}: ${res.body}`).toBe(403);
      expect(res.json().error.code).toBe("FORBIDDEN");
    }
    expect((await call(reader, "GET", `/finance/counterparties/${counterparty.id}`)).statusCode).toBe(200);
    expect((await call(reader, "GET", `/finance/payment-categories/${category.id}`)).statusCode).toBe(200);
    const nobody = await t.createUser(tenantA.id, ["payments:read:all"]);
    for (const url of [
      "/finance/counterparties",
      "/finance/payment-categories",
      "/finance/expense-categories",
    ]) {
      expectError(await call(nobody, "GET", url), 403, "FORBIDDEN");
      expectError(await call(null, "GET", url), 401, "UNAUTHENTICATED");
      expectError(await call(null, "POST", url, { name: "X" }), 401, "UNAUTHENTICATED");
    }
    expect((await call(adminA, "GET", `/finance/counterparties/${counterparty.id}`)).json()).toEqual(
      counterparty,
    );
  });

  it("another tenant's counterparties and categories are not found, and never listed", async () => {
    const counterparty = await createCounterparty(adminB);
    const paymentCategory = (
      await call(adminB, "POST", "/finance/payment-categories", { name: unique("B") })
    ).json();
    const expenseCategory = (
      await call(adminB, "POST", "/finance/expense-categories", { name: unique("B") })
    ).json();
    const attempts: Array<["GET" | "PUT" | "DELETE", string, unknown?]> = [
      ["GET", `/finance/counterparties/${counterparty.id}`],
      ["PUT", `/finance/counterparties/${counterparty.id}`, { name: "Mine" }],
      ["DELETE", `/finance/counterparties/${counterparty.id}`],
      ["GET", `/finance/payment-categories/${paymentCategory.id}`],
      ["PUT", `/finance/payment-categories/${paymentCategory.id}`, { name: "Mine" }],
      ["PUT", `/finance/payment-categories/${paymentCategory.id}`, { parentId: null }],
      ["DELETE", `/finance/payment-categories/${paymentCategory.id}`],
      ["GET", `/finance/expense-categories/${expenseCategory.id}`],
      ["PUT", `/finance/expense-categories/${expenseCategory.id}`, { name: "Mine" }],
      ["DELETE", `/finance/expense-categories/${expenseCategory.id}`],
    ];
    for (const [method, url, body] of attempts) {
      expectError(await call(adminA, method, url, body), 404, "NOT_FOUND");
    }
    for (const url of [
      "/finance/counterparties",
      "/finance/payment-categories",
      "/finance/expense-categories",
    ]) {
      const body = (await call(adminA, "GET", `${url}?limit=100`)).body;
      for (const id of [counterparty.id, paymentCategory.id, expenseCategory.id])
        expect(body).not.toContain(id);
    }
    expect((await call(adminB, "GET", `/finance/counterparties/${counterparty.id}`)).json()).toEqual(
      counterparty,
    );
    expect((await call(adminB, "GET", `/finance/payment-categories/${paymentCategory.id}`)).json().name).toBe(
      paymentCategory.name,
    );
    // Nor can A's documents point at B's counterparty or categories.
    const account = (
      await call(adminA, "POST", "/finance/accounts", { name: unique("Cash"), currency: "UZS" })
    ).json();
    await call(adminA, "POST", "/finance/payments", { accountId: account.id, amount: "5", date: TODAY });
    expectFieldError(
      await call(adminA, "POST", "/finance/payments", {
        accountId: account.id,
        amount: "1",
        date: TODAY,
        counterpartyId: counterparty.id,
      }),
      "counterpartyId",
      "finance.unknown_counterparty",
    );
    expectFieldError(
      await call(adminA, "POST", "/finance/expenses", {
        accountId: account.id,
        amount: "1",
        date: TODAY,
        categoryId: expenseCategory.id,
      }),
      "categoryId",
      "finance.unknown_category",
    );
  });
});
