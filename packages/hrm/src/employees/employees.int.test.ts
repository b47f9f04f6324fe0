import { createServiceTestKit, issuePaths, refusalOf, type ServiceTestKit } from "@hisob/core/testing";
import type { TenantContext } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHrmServices, type HrmServices } from "../hrm-services";
// Registers the HRM permissions, which the kit syncs into the database: a tenant's admin role holds them.
import "../hrm.permissions";

/*
 * Employees through the HRM services (docs/decisions/0107-a-codebase-a-newcomer-can-carry-on.md): the
 * salary is seen and written only with the salaries' permissions. Over REST
 * (apps/server/src/transports/rest/modules-rest.int.test.ts) stay the query string and 403.
 */

let t: ServiceTestKit<{ hrm: HrmServices }>;
let admin: TenantContext;
let reader: TenantContext;

const employees = () => t.services.hrm.employees;

beforeAll(async () => {
  t = await createServiceTestKit({ services: (deps) => ({ hrm: createHrmServices(deps) }) });
  const tenant = await t.createTenant();
  admin = await t.contextOf(await t.createUser(tenant.id, "admin"));
  reader = await t.contextOf(await t.createUser(tenant.id, ["employees:read:all"]));
  await t.services.currencies.setSelected(admin, { codes: ["UZS"] });
});

afterAll(async () => {
  await t?.close();
});

describe("an employee's salary", () => {
  it("shows an employee's salary only to callers who may read salaries", async () => {
    const employee = await employees().create(admin, {
      firstName: "Dilnoza",
      lastName: "Rahimova",
      hireDate: "2024-03-01",
      salary: "1200000000",
      salaryCurrency: "UZS",
    });
    expect(employee).toMatchObject({ salary: "1200000000", salaryCurrency: "UZS" });
    expect(await employees().get(reader, employee.id)).toMatchObject({ salary: null, salaryCurrency: null });
    const list = await employees().list(reader, { sortBy: ["lastName", "firstName"] });
    expect(list.items[0]).toMatchObject({ lastName: "Rahimova", salary: null });
    const badDate = await refusalOf(
      employees().create(admin, { firstName: "A", lastName: "B", hireDate: "2024-02-30" }),
    );
    expect(issuePaths(badDate)).toContain("hireDate");
    expect(
      await refusalOf(employees().update(reader, employee.id, { salary: "1", salaryCurrency: "UZS" })),
    ).toMatchObject({ code: "FORBIDDEN" });
    expect(await employees().get(admin, employee.id)).toMatchObject({ salary: "1200000000" });
  });
});
