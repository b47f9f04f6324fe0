import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

let t: TestApp;
let tenantA: string;
let adminA: SeededUser;
let adminB: SeededUser;

const HEADERS = {
  en: ["Email", "First name", "Last name", "Language", "Active", "Roles", "Groups", "Created", "Updated"],
};

const readWorkbook = async (body: Buffer) => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error("no sheet");
  return sheet;
};

const exportAs = (user: SeededUser, query = "", language?: string) =>
  t.app.inject({
    method: "GET",
    url: `/users/export${query}`,
    headers: { ...user.headers, ...(language ? { "accept-language": language } : {}) },
  });

beforeAll(async () => {
  t = await createTestApp();
  tenantA = (await t.createTenant("Export A")).id;
  const tenantB = (await t.createTenant("Export B")).id;
  adminA = await t.createUser(tenantA, "admin", { email: "admin.a@export.uz" });
  adminB = await t.createUser(tenantB, "admin", { email: "admin.b@export.uz" });
  for (let i = 0; i < 30; i++) {
    await t.db.withTenant(tenantA, (tx) =>
      tx.user.create({
        data: {
          tenantId: tenantA,
          email: `worker${String(i).padStart(2, "0")}@export.uz`,
          firstName: `Ism${i}`,
          lastName: "Familiya",
          isActive: i % 3 !== 0,
        },
      }),
    );
  }
});

afterAll(async () => {
  await t?.close();
});

describe("GET /users/export", () => {
  it("streams exactly the rows of the list query, with typed cells, frozen header and auto-filter", async () => {
    const res = await exportAs(adminA, "?active=true&sortBy=email&order=desc");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="?users-\d{4}-\d{2}-\d{2}\.xlsx"?$/,
    );
    const sheet = await readWorkbook(res.rawPayload);

    const list = await t.app.inject({
      method: "GET",
      url: "/users?active=true&sortBy=email&order=desc&limit=100",
      headers: adminA.headers,
    });
    const emails = list.json().items.map((u: { email: string }) => u.email);
    expect(sheet.rowCount - 1).toBe(list.json().total);
    const exported = [];
    for (let r = 2; r <= sheet.rowCount; r++) exported.push(sheet.getRow(r).getCell(1).value);
    expect(exported).toEqual(emails);

    expect(sheet.getRow(1).values).toEqual([undefined, ...HEADERS.en]);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const row = sheet.getRow(2);
    expect(typeof row.getCell(5).value).toBe("boolean");
    expect(row.getCell(8).value).toBeInstanceOf(Date);
    // The reader's language decides how dates read (English here: as the apps show them).
    expect(row.getCell(8).numFmt).toBe("mmm d, yyyy hh:mm");
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual(30);
  });

  it("crosses its batches of 1,000 in the list's order, with the list's filters and role and group names", async () => {
    // 1,205 users with tied last names (the id breaks ties), some holding a role and two groups.
    const tenantC = (await t.createTenant("Export C")).id;
    const adminC = await t.createUser(tenantC, "admin", { email: "admin.c@export.uz" });
    await t.db.withTenant(tenantC, async (tx) => {
      const role = await tx.role.create({ data: { tenantId: tenantC, name: "Kassir" } });
      const groups = await Promise.all(
        ["Ombor", "Buxgalteriya"].map((name) => tx.group.create({ data: { tenantId: tenantC, name } })),
      );
      await tx.$executeRaw`INSERT INTO users (id, tenant_id, email, first_name, last_name, is_active, updated_at)
        SELECT gen_random_uuid(), ${tenantC}::uuid, 'bulk' || n || '@export.uz', 'Ism' || n,
               'Familiya' || (n % 7), n % 5 <> 0, now() FROM generate_series(1, 1205) AS n`;
      await tx.$executeRaw`INSERT INTO user_roles (tenant_id, user_id, role_id)
        SELECT tenant_id, id, ${role.id}::uuid FROM users WHERE tenant_id = ${tenantC}::uuid AND email LIKE 'bulk%3@export.uz'`;
      for (const group of groups)
        await tx.$executeRaw`INSERT INTO group_users (tenant_id, group_id, user_id)
          SELECT tenant_id, ${group.id}::uuid, id FROM users WHERE tenant_id = ${tenantC}::uuid AND email LIKE 'bulk%3@export.uz'`;
      return role;
    });
    const roleId = (await t.app.inject({ method: "GET", url: "/roles?limit=100", headers: adminC.headers }))
      .json()
      .items.find((role: { name: string }) => role.name === "Kassir").id as string;
    const listed = async (query: string) => {
      const rows: Array<{ email: string }> = [];
      for (let offset = 0; ; offset += 100) {
        const page = await t.app.inject({
          method: "GET",
          url: `/users?${query}&limit=100&offset=${offset}`,
          headers: adminC.headers,
        });
        rows.push(...page.json().items);
        if (rows.length >= page.json().total) return rows.map((row) => row.email);
      }
    };
    for (const query of [
      "sortBy=lastName&order=desc",
      "sortBy=createdAt&order=asc&active=true",
      "sortBy=email&order=asc&name=familiya3",
      `sortBy=firstName&order=desc&roleId=${roleId}`,
      "sortBy=updatedAt&order=desc&email=BULK1",
    ]) {
      const sheet = await readWorkbook((await exportAs(adminC, `?${query}`)).rawPayload);
      const exported = [];
      for (let r = 2; r <= sheet.rowCount; r++) exported.push(sheet.getRow(r).getCell(1).value);
      expect(exported, query).toEqual(await listed(query));
    }
    const withRole = await readWorkbook((await exportAs(adminC, `?roleId=${roleId}&limit=2`)).rawPayload);
    expect(withRole.getRow(2).getCell(6).value).toBe("Kassir");
    expect(withRole.getRow(2).getCell(7).value).toBe("Buxgalteriya, Ombor");
    // A search is a substring, not a pattern: "%" and "_" match only themselves.
    expect((await readWorkbook((await exportAs(adminC, "?email=%25")).rawPayload)).rowCount).toBe(1);
  });

  it("honours limit and offset like the list, and exports everything without a limit", async () => {
    const paged = await readWorkbook((await exportAs(adminA, "?limit=5&offset=3&sortBy=email")).rawPayload);
    expect(paged.rowCount - 1).toBe(5);
    expect(paged.getRow(2).getCell(1).value).toBe(
      (
        await t.app.inject({
          method: "GET",
          url: "/users?limit=1&offset=3&sortBy=email",
          headers: adminA.headers,
        })
      ).json().items[0].email,
    );
    const all = await readWorkbook((await exportAs(adminA)).rawPayload);
    expect(all.rowCount - 1).toBe(31);
  });

  it.each([
    ["ru", "Электронная почта"],
    ["uz", "Elektron pochta"],
  ])("localizes headers for %s", async (language, firstHeader) => {
    const user = await t.createUser(tenantA, ["users:read:all"]);
    await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: user.headers,
      payload: { uiLanguage: language },
    });
    const sheet = await readWorkbook((await exportAs(user, "?limit=3")).rawPayload);
    const headers = sheet.getRow(1).values as unknown[];
    expect(headers[1]).toBe(firstHeader);
    expect(new Set(headers.slice(1)).size).toBe(9);
    expect(headers.slice(1)).not.toEqual(HEADERS.en);
    expect(sheet.rowCount - 1).toBe(3);
  });

  it("tenant B's export holds none of tenant A's users", async () => {
    const sheet = await readWorkbook((await exportAs(adminB)).rawPayload);
    const cells: unknown[] = [];
    sheet.eachRow((row) => cells.push(row.getCell(1).value));
    expect(cells).toEqual(["Email", "admin.b@export.uz"]);
  });

  it("checks permission and input before streaming", async () => {
    expect((await t.app.inject({ method: "GET", url: "/users/export" })).statusCode).toBe(401);
    const nobody = await t.createUser(tenantA, []);
    expect((await exportAs(nobody)).statusCode).toBe(403);
    const bad = await exportAs(adminA, "?sortBy=password&limit=0");
    expect(bad.statusCode).toBe(400);
    expect(bad.headers["content-type"]).toMatch(/json/);
    const self = await t.createUser(tenantA, ["users:read:own"]);
    const own = await readWorkbook((await exportAs(self)).rawPayload);
    expect(own.rowCount).toBe(2);
  });
});
