import { envelop, useEngine, useSchema } from "@envelop/core";
import { execute, parse, specifiedRules, subscribe, validate } from "graphql";
import { createSchema } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { operationCost, useExecutionTimeout } from "./limits";
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
      parts: [Item!]!
      tags: [String!]!
    }
    type PaginatedItems {
      total: Int!
      data: [Item!]!
    }
    type Query {
      item: Item!
      node: Node!
      items(limit: Int = 20): [Item!]!
      page(limit: Int = 20): PaginatedItems!
    }
  `,
  resolvers: { Node: { __resolveType: () => "Item" } },
});

const cost = (
  query: string,
  variables: Record<string, unknown> = {},
  listWeights: Record<string, number> = {},
) => {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === "OperationDefinition");
  if (!operation || operation.kind !== "OperationDefinition") throw new Error("no operation");
  return operationCost(schema, document, operation, variables, listWeights);
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

/**
 * How many composed signals `signal` keeps for itself (Node keeps a reference to each signal built with
 * AbortSignal.any over it until it aborts); 0 when none was ever built.
 */
const dependantsOf = (signal: AbortSignal): number => {
  const key = Object.getOwnPropertySymbols(signal).find(
    (symbol) => symbol.description === "kDependantSignals",
  );
  return key ? ((signal as unknown as Record<symbol, Set<unknown>>)[key]?.size ?? 0) : 0;
};

describe("the execution timeout", () => {
  const waiting = createSchema({
    typeDefs: /* GraphQL */ `
      type Query {
        quick: Int
        wait: String
      }
    `,
    resolvers: {
      Query: {
        quick: () => 1,
        wait: (_: unknown, __: unknown, context: { signal?: AbortSignal }) =>
          new Promise((resolve) => {
            if (context.signal?.aborted) resolve("aborted");
            context.signal?.addEventListener("abort", () => resolve("aborted"));
          }),
      },
    },
  });
  const run = (query: string, signal: AbortSignal, timeoutMs = 60_000) => {
    const enveloped = envelop({
      plugins: [
        useEngine({ parse, validate, execute, subscribe, specifiedRules }),
        useSchema(waiting),
        useExecutionTimeout(timeoutMs),
      ],
    })();
    return enveloped.execute({
      schema: enveloped.schema,
      document: parse(query),
      contextValue: {},
      signal,
    } as Parameters<typeof enveloped.execute>[0]);
  };

  it("keeps nothing on a long-lived outer signal (a socket's) for the operations that ran under it", async () => {
    const socket = new AbortController();
    for (let index = 0; index < 500; index += 1) {
      expect(await run("{ quick }", socket.signal)).toEqual({ data: { quick: 1 } });
    }
    // Before, each operation's AbortSignal.any stayed referenced by the socket's signal until it closed
    // (Node 20: 500,000 operations on one socket, +20 MB).
    expect(dependantsOf(socket.signal)).toBe(0);
  });

  it("still aborts the execution when its outer signal aborts, or when it times out", async () => {
    const socket = new AbortController();
    const running = run("{ wait }", socket.signal);
    socket.abort(new Error("the socket closed"));
    // The resolver saw the execution's signal abort (graphql-js's executor runs on; yoga's stops).
    expect(await running).toEqual({ data: { wait: "aborted" } });
    // An outer signal aborted before the operation starts aborts it at once.
    expect(await run("{ wait }", socket.signal)).toEqual({ data: { wait: "aborted" } });
    expect(await run("{ wait }", new AbortController().signal, 5)).toMatchObject({
      errors: [{ extensions: { code: "UNAVAILABLE", reason: "graphql.timeout" } }],
    });
  });
});

describe("lists without a limit", () => {
  it("price a list of objects by its weight: its bound where the domain has one, else a page's worth", () => {
    // parts: 1 + 20 × (child: 1) under item (1). Before, such a list counted as one item: 3.
    expect(cost("{ item { parts { child { id } } } }")).toBe(22);
    expect(cost("{ item { parts { child { id } } } }", {}, { "Item.parts": 200 })).toBe(202);
    // Leaves cost nothing, however many.
    expect(cost("{ item { tags parts { id } } }")).toBe(2);
    // A page's data is priced by the page's limit, not once more.
    expect(cost("{ page(limit: 5) { total data { child { id } } } }")).toBe(11);
  });

  it("prices nothing when the variables do not coerce: execution refuses them", () => {
    expect(cost("query($l: Int) { items(limit: $l) { child { id } } }", { l: "many" })).toBeNull();
    expect(cost("query($l: Int!) { items(limit: $l) { child { id } } }")).toBeNull();
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
