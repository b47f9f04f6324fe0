import { parse } from "graphql";
import { createSchema } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { operationCost } from "./limits";
import { Int64Scalar } from "./scalars";

const schema = createSchema({
  typeDefs: /* GraphQL */ `
    interface Node {
      id: ID!
      items(limit: Int = 20): [Item!]!
    }
    type Item implements Node {
      id: ID!
      child: Item!
      items(limit: Int = 20): [Item!]!
    }
    type Query {
      item: Item!
      node: Node!
      items(limit: Int = 20): [Item!]!
    }
  `,
  resolvers: { Node: { __resolveType: () => "Item" } },
});

const cost = (query: string, variables: Record<string, unknown> = {}) => {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === "OperationDefinition");
  if (!operation || operation.kind !== "OperationDefinition") throw new Error("no operation");
  return operationCost(schema, document, operation, variables);
};

describe("the cost model", () => {
  it("charges objects 1, leaves 0, and multiplies lists by their limit", () => {
    expect(cost("{ item { id } }")).toBe(1);
    expect(cost("{ item { child { id } } }")).toBe(2);
    expect(cost("{ items(limit: 50) { id } }")).toBe(1);
    expect(cost("{ items(limit: 50) { child { id } } }")).toBe(51);
    expect(cost("{ items { child { id } } }")).toBe(21); // the argument's default
    expect(cost("query($n: Int) { items(limit: $n) { child { id } } }", { n: 10 })).toBe(11);
    expect(cost("{ items(limit: 10) { items(limit: 10) { child { id } } } }")).toBe(111);
  });

  it("counts fragments, once per spread, and survives a cycle", () => {
    expect(cost("{ item { ...F } } fragment F on Item { child { id } }")).toBe(2);
    expect(cost("{ items(limit: 5) { ... on Item { child { id } } } }")).toBe(6);
    expect(cost("{ item { ...F } } fragment F on Item { child { ...F } }")).toBe(2);
  });

  it("prices a list by the limit it will run with: variable defaults, null and aliases included", () => {
    const nested = "chats: items(limit: $l) { items(limit: $l) { child { id } } }";
    // 1 + 100 × (1 + 100 × 1): a variable's default counts when no value is sent...
    expect(cost(`query($l: Int = 100) { ${nested} }`)).toBe(10101);
    // ...a value sent counts over the default...
    expect(cost(`query($l: Int = 100) { ${nested} }`, { l: 2 })).toBe(7);
    // ...and null (which the resolvers read as "the default") is the argument's default, 20.
    expect(cost(`query($l: Int = 100) { ${nested} }`, { l: null })).toBe(421);
    expect(cost("{ items(limit: null) { child { id } } }")).toBe(21);
    // Every alias is priced.
    expect(
      cost(
        `query($l: Int = 10) { a: items(limit: $l) { child { id } } b: items(limit: $l) { child { id } } }`,
      ),
    ).toBe(22);
    // Fragments on an interface are priced like any other selection.
    expect(cost("{ node { ... on Node { items(limit: 5) { child { id } } } } }")).toBe(7);
    expect(cost("{ node { ...N } } fragment N on Node { items(limit: 5) { child { id } } }")).toBe(7);
  });
});

describe("Int64", () => {
  it("keeps 64-bit integers exact as decimal strings", () => {
    expect(Int64Scalar.serialize(9007199254740993n)).toBe("9007199254740993");
    expect(Int64Scalar.serialize("-9223372036854775808")).toBe("-9223372036854775808");
    expect(Int64Scalar.parseValue("9223372036854775807")).toBe("9223372036854775807");
    expect(Int64Scalar.parseValue(42)).toBe("42");
    expect(() => Int64Scalar.parseValue("9223372036854775808")).toThrow(/out of range/);
    expect(() => Int64Scalar.parseValue(2 ** 53 + 2)).toThrow();
    expect(() => Int64Scalar.parseValue("1.5")).toThrow();
    expect(() => Int64Scalar.parseValue("007")).toThrow();
  });
});
