import { coreOperations } from "@hisob/core";
import { crmOperations } from "@hisob/crm";
import { financeOperations } from "@hisob/finance";
import { hrmOperations } from "@hisob/hrm";
import { type Access, listOperations } from "@hisob/kernel";
import { projectsOperations } from "@hisob/projects";
import { warehouseOperations } from "@hisob/warehouse";
import { describe, expect, it } from "vitest";
import { summaryOf } from "./operation-routes";

const catalogs = [
  coreOperations,
  financeOperations,
  crmOperations,
  warehouseOperations,
  projectsOperations,
  hrmOperations,
];
const operations = catalogs.flatMap((catalog) => listOperations(catalog));

const declared = (access: Access): string[] => [
  // Permissions as plain names: the wording is prose.
  ...access.requires.map(String),
  ...(access.oneOf ?? []).map(({ permission }) => String(permission)),
  ...(access.own ? [String(access.own.permission)] : []),
  ...(access.othersNeed ? [String(access.othersNeed)] : []),
];

describe("an operation's summary", () => {
  it("names, in its own wording of the access, only the permissions the access declares", () => {
    const worded = operations.filter(({ operation }) => operation.access.wording !== undefined);
    expect(worded.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const { id, operation } of worded) {
      const named: string[] = operation.access.wording?.match(/[a-z_]+:[a-z_]+:(?:all|own)/g) ?? [];
      const allowed = declared(operation.access);
      if (named.length === 0) wrong.push(`${id}: names no permission`);
      for (const permission of named) {
        if (!allowed.includes(permission)) wrong.push(`${id}: ${permission} is not declared`);
      }
      for (const permission of allowed) {
        if (!named.includes(permission)) wrong.push(`${id}: leaves out ${permission}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("states the access in parentheses after its line", () => {
    const get = coreOperations.users.get;
    expect(summaryOf(get)).toBe("Get a user (users:read:all, or users:read:own for oneself)");
    expect(summaryOf(coreOperations.roles.list)).toBe("List roles (roles:read:all)");
    expect(summaryOf(coreOperations.users.setGroups)).toBe(
      "Replace a user's groups (joining needs every permission the group's roles carry; leaving, every permission the user holds) (users:update:all and groups:update:all)",
    );
  });
});
