import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { codeOf, type GraphqlResponse, gql, listen } from "./graphql-test-kit";

/*
 * The HRM module over the real GraphQL endpoint: employees, with the salary visible and writable only
 * with its own permissions; happy paths, errors and security per operation.
 */

let t: TestApp;
let url: string;
let tenantId: string;
let admin: SeededUser;
let hr: SeededUser;
let payroll: SeededUser;
let outsider: SeededUser;
let otherEmployeeId: string;
let otherUserId: string;

const contextOf = async (user: SeededUser) =>
  (await t.services.context.resolveContext({ bearerToken: user.token, requestId: "seed" })) as TenantContext;
const run = (user: SeededUser | null, query: string, variables: Record<string, unknown> = {}) =>
  gql(url, query, { variables, ...(user ? { headers: user.headers } : {}) });
const dataOf = <T>(response: GraphqlResponse, field: string): T => {
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  return response.body.data?.[field] as T;
};
const errorOf = (response: GraphqlResponse) => response.body.errors?.[0];

const EMPLOYEE = "id firstName lastName position department hireDate salary salaryCurrency userId active";
const CREATE = `mutation($input: EmployeeInput!) { createEmployee(input: $input) { ${EMPLOYEE} } }`;
const UPDATE = `mutation($id: ID!, $input: EmployeePatch!) { updateEmployee(id: $id, input: $input) { ${EMPLOYEE} } }`;
const DELETE = "mutation($id: ID!) { deleteEmployee(id: $id) }";
const GET = `query($id: ID!) { employee(id: $id) { ${EMPLOYEE} } }`;
const LIST = `query($filters: [Filter!], $sortBy: [String!]) { employees(filters: $filters, sortBy: $sortBy) { total data { ${EMPLOYEE} } } }`;

beforeAll(async () => {
  t = await createTestApp();
  ({ httpUrl: url } = await listen(t));
  tenantId = (await t.createTenant()).id;
  const otherTenantId = (await t.createTenant()).id;
  admin = await t.createUser(tenantId, "admin");
  hr = await t.createUser(tenantId, ["employees:create:all", "employees:read:all", "employees:update:all"]);
  payroll = await t.createUser(tenantId, ["employees:read:all", "salaries:read:all"]);
  outsider = await t.createUser(tenantId, []);
  const otherAdmin = await t.createUser(otherTenantId, "admin");
  otherUserId = otherAdmin.id;
  otherEmployeeId = (
    await t.services.hrm.employees.create(await contextOf(otherAdmin), {
      firstName: "Their",
      lastName: "Employee",
      hireDate: "2025-01-10",
    })
  ).id;
});
afterAll(async () => t?.close());

describe("employees", () => {
  it("creates, reads, lists, updates and deletes an employee linked to a platform user", async () => {
    const user = await t.createUser(tenantId, []);
    const created = dataOf<Record<string, unknown>>(
      await run(admin, CREATE, {
        input: {
          firstName: "Dilnoza",
          lastName: "Karimova",
          position: "Accountant",
          department: "Finance",
          hireDate: "2024-03-01",
          salary: "1200000000",
          salaryCurrency: "UZS",
          userId: user.id,
        },
      }),
      "createEmployee",
    );
    expect(created).toMatchObject({
      salary: "1200000000",
      salaryCurrency: "UZS",
      userId: user.id,
      active: true,
      hireDate: "2024-03-01",
    });
    const id = created.id as string;
    const listed = dataOf<{ data: { lastName: string }[] }>(
      await run(admin, LIST, {
        filters: [{ field: "department", operator: "eq", value: "Finance" }],
        sortBy: ["lastName"],
      }),
      "employees",
    );
    expect(listed.data.map((employee) => employee.lastName)).toContain("Karimova");
    expect(
      dataOf(
        await run(admin, UPDATE, { id, input: { position: "Chief accountant", active: false } }),
        "updateEmployee",
      ),
    ).toMatchObject({
      position: "Chief accountant",
      active: false,
    });
    // The platform user goes; the employee record stays, unlinked.
    await t.services.users.delete(await contextOf(admin), user.id);
    expect(dataOf(await run(admin, GET, { id }), "employee")).toMatchObject({
      userId: null,
      lastName: "Karimova",
    });
    expect(dataOf(await run(admin, DELETE, { id }), "deleteEmployee")).toBe(true);
    expect(codeOf(await run(admin, GET, { id }))).toBe("NOT_FOUND");
  });

  it("shows the salary only to callers with salaries:read:all, and lets only salaries:update:all set it", async () => {
    const id = dataOf<{ id: string }>(
      await run(admin, CREATE, {
        input: {
          firstName: "Aziz",
          lastName: "Salaried",
          hireDate: "2023-05-02",
          salary: "900000000",
          salaryCurrency: "UZS",
        },
      }),
      "createEmployee",
    ).id;
    expect(dataOf(await run(hr, GET, { id }), "employee")).toMatchObject({
      salary: null,
      salaryCurrency: null,
      lastName: "Salaried",
    });
    expect(dataOf(await run(payroll, GET, { id }), "employee")).toMatchObject({
      salary: "900000000",
      salaryCurrency: "UZS",
    });
    const hrList = dataOf<{ data: { id: string; salary: string | null }[] }>(
      await run(hr, LIST),
      "employees",
    );
    expect(hrList.data.every((employee) => employee.salary === null)).toBe(true);
    // Nor can it be inferred: salary is neither sortable nor filterable.
    expect(codeOf(await run(hr, LIST, { sortBy: ["salary"] }))).toBe("VALIDATION_ERROR");
    expect(codeOf(await run(hr, LIST, { filters: [{ field: "salary", operator: "gt", value: "1" }] }))).toBe(
      "VALIDATION_ERROR",
    );
    // An HR clerk edits the record but not the salary; the answer to their edit hides it too.
    expect(
      dataOf(await run(hr, UPDATE, { id, input: { department: "Sales" } }), "updateEmployee"),
    ).toMatchObject({ department: "Sales", salary: null });
    expect(codeOf(await run(hr, UPDATE, { id, input: { salary: "1", salaryCurrency: "UZS" } }))).toBe(
      "FORBIDDEN",
    );
    expect(
      codeOf(
        await run(hr, CREATE, {
          input: {
            firstName: "A",
            lastName: "B",
            hireDate: "2024-01-01",
            salary: "1",
            salaryCurrency: "UZS",
          },
        }),
      ),
    ).toBe("FORBIDDEN");
    expect(dataOf(await run(payroll, GET, { id }), "employee")).toMatchObject({ salary: "900000000" });
    expect(
      dataOf(
        await run(admin, UPDATE, { id, input: { salary: null, salaryCurrency: null } }),
        "updateEmployee",
      ),
    ).toMatchObject({
      salary: null,
      salaryCurrency: null,
    });
  });

  it("refuses bad input naming the field, and writes nothing", async () => {
    const before = await t.db.withTenant(tenantId, (tx) => tx.employee.count());
    expect(
      errorOf(await run(admin, CREATE, { input: { firstName: " ", lastName: "X", hireDate: "2024-01-01" } }))
        ?.message,
    ).toMatch(/firstName/);
    expect(
      codeOf(await run(admin, CREATE, { input: { firstName: "A", lastName: "X", hireDate: "2024-02-30" } })),
    ).toBe("VALIDATION_ERROR");
    expect(
      errorOf(
        await run(admin, CREATE, {
          input: { firstName: "A", lastName: "X", hireDate: "2024-01-01", salary: "5" },
        }),
      )?.message,
    ).toMatch(/salaryCurrency/);
    expect(
      errorOf(
        await run(admin, CREATE, {
          input: {
            firstName: "A",
            lastName: "X",
            hireDate: "2024-01-01",
            salary: "5",
            salaryCurrency: "JPY",
          },
        }),
      )?.extensions.reason,
    ).toBe("hrm.currency_not_selected");
    expect(
      codeOf(
        await run(admin, CREATE, {
          input: {
            firstName: "A",
            lastName: "X",
            hireDate: "2024-01-01",
            salary: "-5",
            salaryCurrency: "UZS",
          },
        }),
      ),
    ).toBe("VALIDATION_ERROR");
    expect(await t.db.withTenant(tenantId, (tx) => tx.employee.count())).toBe(before);
    const user = await t.createUser(tenantId, []);
    await run(admin, CREATE, {
      input: { firstName: "One", lastName: "Link", hireDate: "2024-01-01", userId: user.id },
    });
    expect(
      errorOf(
        await run(admin, CREATE, {
          input: { firstName: "Two", lastName: "Link", hireDate: "2024-01-01", userId: user.id },
        }),
      )?.extensions,
    ).toMatchObject({
      code: "CONFLICT",
      reason: "hrm.user_already_employee",
    });
  });

  it("guards every operation: credentials, permission, another organization's ids and users", async () => {
    const id = dataOf<{ id: string }>(
      await run(admin, CREATE, { input: { firstName: "G", lastName: "Uarded", hireDate: "2024-01-01" } }),
      "createEmployee",
    ).id;
    const operations: [string, Record<string, unknown>][] = [
      [LIST, {}],
      [GET, { id }],
      [CREATE, { input: { firstName: "N", lastName: "N", hireDate: "2024-01-01" } }],
      [UPDATE, { id, input: { position: "N" } }],
      [DELETE, { id }],
    ];
    for (const [query, variables] of operations) {
      expect(codeOf(await run(null, query, variables)), query).toBe("UNAUTHENTICATED");
      expect(codeOf(await run(outsider, query, variables)), query).toBe("FORBIDDEN");
    }
    expect(codeOf(await run(payroll, UPDATE, { id, input: { position: "N" } }))).toBe("FORBIDDEN");
    expect(codeOf(await run(hr, DELETE, { id }))).toBe("FORBIDDEN");
    for (const [query, variables] of [
      [GET, { id: otherEmployeeId }],
      [UPDATE, { id: otherEmployeeId, input: { position: "Hijacked" } }],
      [DELETE, { id: otherEmployeeId }],
    ] as const) {
      expect(codeOf(await run(admin, query, variables)), query).toBe("NOT_FOUND");
    }
    const linked = await run(admin, CREATE, {
      input: { firstName: "X", lastName: "Y", hireDate: "2024-01-01", userId: otherUserId },
    });
    expect(errorOf(linked)?.extensions).toMatchObject({ code: "NOT_FOUND", reason: "user.not_found" });
    expect(codeOf(await run(admin, UPDATE, { id, input: { userId: otherUserId } }))).toBe("NOT_FOUND");
  });
});
