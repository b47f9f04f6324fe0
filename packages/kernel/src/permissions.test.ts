import { describe, expect, it } from "vitest";
import type { TenantContext } from "./context";
import { AppError } from "./errors";
import {
  isPlatformOnlyPermission,
  isRegisteredPermission,
  listPermissions,
  type Permission,
  parsePermission,
  registerPermissions,
  requirePermission,
  requireScope,
  sortPermissions,
} from "./permissions";

// The registry is process-wide; every test registers names no other test uses.

const ctxWith = (...permissions: string[]): TenantContext => ({
  tenantId: "0190f5c2-0000-7000-8000-000000000001",
  actor: { userId: "0190f5c2-0000-7000-8000-000000000002", permissions: new Set(permissions) },
  locale: "en",
  requestId: "req-1",
});

const forbidden = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected FORBIDDEN");
};

describe("parsePermission", () => {
  it("splits `<resource>:<action>:<all|own>`", () => {
    expect(parsePermission("payments:create:own")).toEqual({
      name: "payments:create:own",
      resource: "payments",
      action: "create",
      modifier: "own",
    });
    expect(parsePermission("user-roles:assign_all:all")).toMatchObject({
      resource: "user-roles",
      action: "assign_all",
    });
  });

  it.each([
    "payments:create",
    "payments:create:any",
    "Payments:create:all",
    "payments::all",
    ":create:all",
    "1payments:create:all",
    "payments:create:all:extra",
    "payments:create:all ",
    "",
  ])("refuses %j", (name) => {
    expect(parsePermission(name)).toBeNull();
  });
});

describe("registerPermissions", () => {
  it("registers a module's permissions and lists them with their definitions", () => {
    const names = registerPermissions("reg-a", {
      "rega-items:read:all": "Read every item",
      "rega-items:read:own": "Read own items",
    });
    expect(names).toEqual(["rega-items:read:all", "rega-items:read:own"]);
    expect(isRegisteredPermission("rega-items:read:all")).toBe(true);
    expect(isRegisteredPermission("rega-items:write:all")).toBe(false);
    expect(listPermissions().filter((p) => p.module === "reg-a")).toEqual([
      {
        name: "rega-items:read:all",
        resource: "rega-items",
        action: "read",
        modifier: "all",
        module: "reg-a",
        description: "Read every item",
        platformOnly: false,
      },
      {
        name: "rega-items:read:own",
        resource: "rega-items",
        action: "read",
        modifier: "own",
        module: "reg-a",
        description: "Read own items",
        platformOnly: false,
      },
    ]);
  });

  it("lets the same module register again (a re-import), taking the new description", () => {
    registerPermissions("reg-b", { "regb-things:read:all": "Old" });
    expect(registerPermissions("reg-b", { "regb-things:read:all": "New" })).toEqual(["regb-things:read:all"]);
    expect(listPermissions().find((p) => p.name === "regb-things:read:all")?.description).toBe("New");
  });

  it("refuses a permission another module registered, and then registers nothing of the clash", () => {
    registerPermissions("reg-c", { "regc-shared:read:all": "Mine" });
    expect(() =>
      registerPermissions("reg-d", {
        "regd-own:read:all": "Fine on its own",
        "regc-shared:read:all": "Theirs",
      }),
    ).toThrow('Permission "regc-shared:read:all" registered twice (reg-c, reg-d)');
    expect(listPermissions().find((p) => p.name === "regc-shared:read:all")?.module).toBe("reg-c");
    expect(isRegisteredPermission("regd-own:read:all")).toBe(false);
  });

  it("refuses a malformed permission string, naming it and the module", () => {
    expect(() =>
      registerPermissions("reg-e", {
        "rege-ok:read:all": "Fine",
        ["rege-bad:read:any" as Permission]: "Bad modifier",
      }),
    ).toThrow('Invalid permission string "rege-bad:read:any" in module reg-e');
    expect(isRegisteredPermission("rege-ok:read:all")).toBe(false);
  });

  it("marks platform-only permissions", () => {
    registerPermissions("reg-f", { "regf-tenants:manage:all": "Manage tenants" }, { platformOnly: true });
    expect(isPlatformOnlyPermission("regf-tenants:manage:all")).toBe(true);
    expect(isPlatformOnlyPermission("rega-items:read:all")).toBe(false);
    expect(isPlatformOnlyPermission("regf-unknown:read:all")).toBe(false);
  });

  it("lists in the same locale-independent order as sortPermissions", () => {
    registerPermissions("reg-g", {
      "regg_x:read:all": "underscore",
      "regg:read:all": "plain",
      "regg2:read:all": "digit",
      "regg-y:read:all": "dash",
    });
    const listed = listPermissions()
      .map((p) => p.name)
      .filter((name) => name.startsWith("regg"));
    expect(listed).toEqual(["regg-y:read:all", "regg2:read:all", "regg:read:all", "regg_x:read:all"]);
    expect(sortPermissions(listed)).toEqual(listed);
  });
});

describe("sortPermissions", () => {
  it("sorts by code unit and removes duplicates, whatever the input order", () => {
    const names = [
      "users:read:own",
      "accounts:read:all",
      "users:read:all",
      "accounts:read:all",
      "users_x:read:all",
    ];
    const expected = ["accounts:read:all", "users:read:all", "users:read:own", "users_x:read:all"];
    expect(sortPermissions(names)).toEqual(expected);
    expect(sortPermissions([...names].reverse())).toEqual(expected);
    expect(sortPermissions(new Set(names))).toEqual(expected);
    expect(sortPermissions([])).toEqual([]);
  });
});

describe("requirePermission", () => {
  it("passes when the actor holds exactly that permission", () => {
    expect(() => requirePermission(ctxWith("payments:create:all"), "payments:create:all")).not.toThrow();
  });

  it("is FORBIDDEN otherwise, naming the permission; `own` does not stand in for `all`", () => {
    const error = forbidden(() => requirePermission(ctxWith("payments:create:own"), "payments:create:all"));
    expect(error).toMatchObject({
      code: "FORBIDDEN",
      status: 403,
      reason: "auth.forbidden",
      params: { permission: "payments:create:all" },
    });
    expect(forbidden(() => requirePermission(ctxWith(), "payments:read:own")).code).toBe("FORBIDDEN");
  });
});

describe("requireScope", () => {
  it("is `all` with the all permission (even when own is held too)", () => {
    expect(requireScope(ctxWith("expenses:read:all"), "expenses", "read")).toBe("all");
    expect(requireScope(ctxWith("expenses:read:own", "expenses:read:all"), "expenses", "read")).toBe("all");
  });

  it("is `own` with only the own permission", () => {
    expect(requireScope(ctxWith("expenses:read:own"), "expenses", "read")).toBe("own");
  });

  it("is FORBIDDEN without either (another action or resource does not count)", () => {
    const error = forbidden(() =>
      requireScope(ctxWith("expenses:update:all", "payments:read:all"), "expenses", "read"),
    );
    expect(error).toMatchObject({
      code: "FORBIDDEN",
      reason: "auth.forbidden",
      params: { permission: "expenses:read:all" },
    });
  });
});
