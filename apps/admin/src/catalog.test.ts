import { coreOperations } from "@hisob/core";
import { listOperations } from "@hisob/kernel";
import { describe, expect, it } from "vitest";
import { ROUTES, urlOf } from "./catalog";

describe("the admin's typed client", () => {
  const catalog = new Map(listOperations(coreOperations).map(({ id, operation }) => [id, operation.http]));

  it("calls each operation where the catalog binds it over HTTP", () => {
    const differing = Object.entries(ROUTES).flatMap(([id, http]) => {
      const declared = catalog.get(id);
      const same =
        declared &&
        declared.method === http.method &&
        declared.path === http.path &&
        declared.status === http.status &&
        declared.rest === ("rest" in http ? http.rest : undefined) &&
        declared.params === undefined;
      return same ? [] : [{ id, admin: http, catalog: declared }];
    });
    expect(differing).toEqual([]);
    expect(Object.keys(ROUTES).length).toBeGreaterThan(30);
  });

  it("puts parameters in the path and the rest in the query, leaving out what is not set", () => {
    expect(urlOf("users.list", { email: "", name: undefined, limit: 20, sortBy: "email" })).toBe(
      "/users?limit=20&sortBy=email",
    );
    expect(urlOf("users.unassignRole", { id: "u1", roleId: "a/b" })).toBe("/users/u1/roles/a%2Fb");
    expect(urlOf("tenants.get", { id: "t1" })).toBe("/tenants/t1");
  });
});
