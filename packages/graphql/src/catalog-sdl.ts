import { type AnyOperation, describeAccess } from "@hisob/kernel";
import type { z } from "zod";
import { graphqlTypeOf, shapeOf } from "./zod-sdl";

/*
 * What the SDL of a catalog operation reads from its declaration (docs/decisions/0095-graphql-from-the-operation-catalog.md):
 * who may call it, its REST route, its paging defaults and whether it takes an idempotency key. The
 * words around them are GraphQL's; the facts are the catalog's, so they cannot drift apart.
 */

type Declared = Pick<AnyOperation, "access" | "http"> & { idempotent?: true };

/** Who may call, in the words the README's tables use. */
export const permissionsOf = (operation: Pick<AnyOperation, "access">): string =>
  describeAccess(operation.access);

/** `GET /finance/accounts`. */
export const routeOf = (operation: Declared): string => `${operation.http.method} ${operation.http.path}`;

/** A posting declared idempotent takes `idempotencyKey` (as its tRPC input and its REST header do). */
export const idempotencyArgSdl = (operation: Declared): string =>
  operation.idempotent ? ", idempotencyKey: String" : "";

/** The value a `.default()` fills in (behind optional wrappers). */
export const defaultOf = (schema: z.ZodType): unknown => {
  let current = schema as unknown as {
    _zod: { def: { type: string; innerType?: unknown; defaultValue?: unknown } };
  };
  for (;;) {
    const def = current._zod.def;
    if (def.type === "default") return def.defaultValue;
    if (!def.innerType) throw new Error(`no default in a zod ${def.type}`);
    current = def.innerType as typeof current;
  }
};

/** `offset: Int = 0, limit: Int = 20`: a list's paging with the defaults its query schema fills in. */
export const pageArgsSdl = (listQuery: z.ZodType | undefined): string => {
  const shape = shapeOf(listQuery, "input", "list query");
  return (["offset", "limit"] as const)
    .map((name) => {
      const field = shape[name];
      if (!field) throw new Error(`list query: no ${name}`);
      return `${name}: ${graphqlTypeOf(field, "input", `list query.${name}`)} = ${JSON.stringify(defaultOf(field))}`;
    })
    .join(", ");
};

/** The element schema of an array schema (behind wrappers). */
export const elementOf = (schema: z.ZodType, at: string): z.ZodType => {
  let current = schema as unknown as {
    _zod: { def: { type: string; element?: z.ZodType; innerType?: unknown } };
  };
  while (current._zod.def.type !== "array" && current._zod.def.innerType) {
    current = current._zod.def.innerType as typeof current;
  }
  const element = current._zod.def.element;
  if (!element) throw new Error(`${at}: not an array schema`);
  return element;
};

/** The item schema of a page (`ZPage(item)`: `{ items: item[], total, … }`). */
export const pageItemOf = (page: z.ZodType): z.ZodType =>
  elementOf(fieldOf(page, "items", "output"), "page.items");

/** One field of an object schema (behind refinements and wrappers). */
export const fieldOf = (
  schema: z.ZodType | undefined,
  name: string,
  side: "input" | "output" = "input",
): z.ZodType => {
  const field = shapeOf(schema, side, name)[name];
  if (!field) throw new Error(`no field ${name}`);
  return field;
};
