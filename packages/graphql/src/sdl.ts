import { lexicographicSortSchema, printSchema } from "graphql";
import { GRAPHQL_MODULES } from "./modules";
import { createRegistry } from "./registry";

/** Where the printed schema is checked in (relative to the repository root). */
export const SDL_PATH = "packages/graphql/schema.graphql";

/** The served schema as SDL, sorted so the file changes only when the schema does. */
export const printServedSchema = (): string => {
  const registry = createRegistry();
  for (const module of GRAPHQL_MODULES) registry.register(module);
  return `${printSchema(lexicographicSortSchema(registry.buildSchema()))}\n`;
};
