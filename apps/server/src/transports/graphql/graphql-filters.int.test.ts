import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { gql, listen } from "./graphql-test-kit";

/*
 * The filter grammar on `users`: every operator, typed values, whitelisted fields, and the errors that
 * name what is wrong. A tenant of its own holds exactly the users below (plus the reader).
 */

let t: TestApp;
let url: string;
let reader: SeededUser;
const seeded: SeededUser[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ httpUrl: url } = await listen(t));
  const tenantId = (await t.createTenant()).id;
  reader = await t.createUser(tenantId, ["users:read:all"], { email: "reader@filters.example" });
  for (const name of ["alpha", "bravo", "charlie", "delta"]) {
    seeded.push(await t.createUser(tenantId, [], { email: `${name}@filters.example` }));
  }
});
afterAll(async () => t?.close());

const QUERY = /* GraphQL */ `
  query($filters: [Filter!], $sortBy: [String!], $ascending: Boolean) {
    users(filters: $filters, sortBy: $sortBy, ascending: $ascending, limit: 100) { total data { email } }
  }
`;

const emails = async (filters: unknown[], sortBy: string[] = ["email"], ascending = true) => {
  const res = await gql(url, QUERY, { variables: { filters, sortBy, ascending }, headers: reader.headers });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const page = res.body.data?.users as { total: string; data: { email: string }[] };
  expect(page.total).toBe(String(page.data.length));
  return page.data.map((user) => user.email.split("@")[0]);
};

const failure = async (filters: unknown[]) => {
  const res = await gql(url, QUERY, { variables: { filters }, headers: reader.headers });
  return res.body.errors?.[0];
};

describe("filter operators on users", () => {
  it.each([
    ["eq", "email", "bravo@filters.example", ["bravo"]],
    ["neq", "email", "bravo@filters.example", ["alpha", "charlie", "delta", "reader"]],
    ["gt", "email", "charlie@filters.example", ["delta", "reader"]],
    ["gte", "email", "charlie@filters.example", ["charlie", "delta", "reader"]],
    ["lt", "email", "bravo@filters.example", ["alpha"]],
    ["lte", "email", "bravo@filters.example", ["alpha", "bravo"]],
    ["like", "email", "ELT", ["delta"]],
    [
      "in",
      "email",
      ["alpha@filters.example", "delta@filters.example", "nobody@x.example"],
      ["alpha", "delta"],
    ],
  ])("%s", async (operator, field, value, expected) => {
    expect(await emails([{ field, operator, value }])).toEqual(expected);
  });

  it("combines conditions (all must hold) and filters booleans, enums, ids and times", async () => {
    expect(
      await emails([
        { field: "email", operator: "like", value: "a" },
        { field: "email", operator: "neq", value: "alpha@filters.example" },
      ]),
    ).toEqual(["bravo", "charlie", "delta", "reader"]);
    expect(await emails([{ field: "active", operator: "eq", value: true }])).toHaveLength(5);
    expect(await emails([{ field: "active", operator: "eq", value: false }])).toEqual([]);
    expect(await emails([{ field: "uiLanguage", operator: "in", value: ["en", "ru"] }])).toHaveLength(5);
    expect(await emails([{ field: "id", operator: "eq", value: seeded[2]?.id }])).toEqual(["charlie"]);
    expect(await emails([{ field: "createdAt", operator: "lt", value: "2000-01-01T00:00:00Z" }])).toEqual([]);
    expect(
      await emails([{ field: "createdAt", operator: "gte", value: "2000-01-01T00:00:00Z" }]),
    ).toHaveLength(5);
  });

  it("sorts by several whitelisted fields, either way, with a stable order", async () => {
    expect(await emails([], ["firstName", "email"], false)).toEqual([
      "reader",
      "delta",
      "charlie",
      "bravo",
      "alpha",
    ]);
    const sorted = await gql(url, '{ users(sortBy: ["password"]) { total } }', { headers: reader.headers });
    expect(sorted.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining("sortBy.0"),
      extensions: { code: "VALIDATION_ERROR" },
    });
  });
});

describe("filter errors name what is wrong", () => {
  it.each([
    ["an unknown field", [{ field: "passwordHash", operator: "eq", value: "x" }], "filters.0.field"],
    ["an operator the type lacks", [{ field: "active", operator: "like", value: "x" }], "filters.0.operator"],
    ["a string for a boolean", [{ field: "active", operator: "eq", value: "yes" }], "filters.0.value"],
    ["a bad time", [{ field: "createdAt", operator: "gt", value: "yesterday" }], "filters.0.value"],
    ["a bad id", [{ field: "id", operator: "eq", value: "1 OR 1=1" }], "filters.0.value"],
    ["a scalar for in", [{ field: "email", operator: "in", value: "a" }], "filters.0.value"],
    ["a missing value", [{ field: "email", operator: "eq" }], "filters.0.value"],
    ["a bad enum", [{ field: "uiLanguage", operator: "eq", value: "fr" }], "filters.0.value"],
  ])("%s", async (_case, filters, path) => {
    const error = await failure(filters);
    expect(error).toMatchObject({
      message: expect.stringContaining(`validation error: ${path}`),
      extensions: { code: "VALIDATION_ERROR", issues: [{ path }] },
    });
  });

  it("refuses an unknown operator before execution (the operator is an enum)", async () => {
    const res = await gql(url, QUERY, {
      variables: { filters: [{ field: "email", operator: "regex", value: ".*" }] },
      headers: reader.headers,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining("filters"),
      extensions: { code: "VALIDATION_ERROR" },
    });
  });
});
