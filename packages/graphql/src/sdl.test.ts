import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type GraphQLField, getNamedType, getOperationAST, isObjectType, parse } from "graphql";
import { expect, it } from "vitest";
import { DEFAULT_LIMITS, operationCost } from "./limits";
import { GRAPHQL_MODULES } from "./modules";
import { createRegistry } from "./registry";
import { printServedSchema, SDL_PATH } from "./sdl";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

it("the checked-in SDL is the served schema (run npm run graphql:schema after changing it)", () => {
  expect(readFileSync(path.join(root, SDL_PATH), "utf8")).toBe(printServedSchema());
});

it("every list limit declares its default, so the cost model knows what an omitted or null limit runs with", () => {
  const registry = createRegistry();
  for (const module of GRAPHQL_MODULES) registry.register(module);
  const schema = registry.buildSchema();
  const undeclared: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const limit = field.args.find((arg) => arg.name === "limit");
      if (limit && typeof limit.defaultValue !== "number") undeclared.push(`${type.name}.${field.name}`);
    }
  }
  expect(undeclared).toEqual([]);
});

it("a query that nests the schema's pages with their default limits fits the cost limit", () => {
  const registry = createRegistry();
  for (const module of GRAPHQL_MODULES) registry.register(module);
  const schema = registry.buildSchema();
  const costOf = (query: string) => {
    const document = parse(query);
    const operation = getOperationAST(document);
    if (!operation) throw new Error("no operation");
    return operationCost(schema, document, operation, {}) ?? 0;
  };
  expect(costOf("{ chats { total data { subject messages { total data { body } } } } }")).toBeLessThanOrEqual(
    DEFAULT_LIMITS.maxCost,
  );
  // Every page inside every page of the root, each with its default limit.
  const over: string[] = [];
  const itemsOf = (field: GraphQLField<unknown, unknown>) => {
    const page = getNamedType(field.type);
    if (!isObjectType(page)) return undefined;
    const data = page.getFields().data;
    const item = data ? getNamedType(data.type) : undefined;
    return item && isObjectType(item) ? item : undefined;
  };
  for (const root of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    const item = root.args.some((arg) => arg.name === "limit") ? itemsOf(root) : undefined;
    if (!item) continue;
    for (const nested of Object.values(item.getFields())) {
      if (!nested.args.some((arg) => arg.name === "limit") || !itemsOf(nested)) continue;
      const query = `{ ${root.name} { data { ${nested.name} { data { __typename } } } } }`;
      if (costOf(query) > DEFAULT_LIMITS.maxCost) over.push(`${query}: ${costOf(query)}`);
    }
  }
  expect(over).toEqual([]);
});
