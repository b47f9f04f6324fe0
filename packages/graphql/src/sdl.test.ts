import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isObjectType } from "graphql";
import { expect, it } from "vitest";
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
