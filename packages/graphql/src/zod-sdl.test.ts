import { buildSchema, printType } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultOf, elementOf, fieldOf, pageArgsSdl, pageItemOf } from "./catalog-sdl";
import {
  argumentsSdl,
  enumTypeSdl,
  enumValuesOf,
  graphqlTypeOf,
  inputTypeSdl,
  objectTypeSdl,
} from "./zod-sdl";

const SCALARS = "scalar Time\nscalar Int64\n";

/** The SDL a mapper printed, parsed and printed again by graphql-js: what the served schema would hold. */
const printed = (sdl: string, name: string) => {
  const type = buildSchema(`${SCALARS}${sdl}\ntype Query { unused: Int }`).getType(name);
  if (!type) throw new Error(`no ${name}`);
  return printType(type);
};

const ZLine = z.string().trim().max(10);
const ZItem = z
  .object({
    id: z.uuid(),
    name: z.string(),
    amount: z.string(),
    count: z.number().int(),
    ratio: z.number(),
    done: z.boolean(),
    due: z.iso.date().nullable(),
    createdAt: z.iso.datetime(),
    tags: z.array(z.string()),
    kind: z.enum(["a", "b"]),
  })
  .meta({ id: "Item" });

describe("zod → GraphQL", () => {
  it("an output schema: formats, nullability, lists, and the leaf types named per field", () => {
    const sdl = objectTypeSdl("Item", ZItem, {
      description: "An item.",
      fields: { amount: { type: "Int64", description: "Minor units." }, kind: "Kind" },
      extra: "    parent: Item\n",
    });
    expect(printed(`${sdl}\nenum Kind { a b }`, "Item")).toBe(`"""An item."""
type Item {
  id: ID!
  name: String!

  """Minor units."""
  amount: Int64!
  count: Int!
  ratio: Float!
  done: Boolean!
  due: String
  createdAt: Time!
  tags: [String!]!
  kind: Kind!
  parent: Item
}`);
  });

  it("an input schema: optional, nullable and defaulted fields may be left out (with the default a primitive's is); pipes read their input", () => {
    const ZInput = z
      .object({
        name: ZLine,
        note: ZLine.default(""),
        kind: z.enum(["a", "b"]).default("b"),
        size: z.number().int().default(3),
        parentId: z
          .uuid()
          .transform((id) => id.toLowerCase())
          .nullable()
          .default(null),
        date: z.iso.date().describe("Calendar date"),
        count: z.coerce.number().int().optional(),
      })
      .strict()
      .refine((input) => input.name !== input.note);
    expect(
      printed(
        `${inputTypeSdl("ItemInput", ZInput, { fields: { kind: "Kind" } })}\nenum Kind { a b }`,
        "ItemInput",
      ),
    ).toBe(`input ItemInput {
  name: String!
  note: String = ""
  kind: Kind = b
  size: Int = 3
  parentId: ID

  """Calendar date"""
  date: String!
  count: Int
}`);
  });

  it("an output's default is always filled in: the field is required", () => {
    expect(graphqlTypeOf(z.string().default("x"), "output", "x")).toBe("String!");
    expect(graphqlTypeOf(z.string().default("x"), "input", "x")).toBe("String");
  });

  it("arguments, enums and paging defaults come from the schema", () => {
    const ZQuery = z.object({
      accountId: z.uuid(),
      limit: z.coerce.number().int().min(1).max(100).default(50),
      offset: z.coerce.number().int().min(0).default(0),
      sortBy: z.union([z.enum(["date", "amount"]), z.array(z.enum(["date", "amount"]))]).optional(),
    });
    expect(argumentsSdl(ZQuery, "q", { omit: ["limit", "offset", "sortBy"] })).toBe("accountId: ID!");
    expect(pageArgsSdl(ZQuery)).toBe("offset: Int = 0, limit: Int = 50");
    expect(enumValuesOf(fieldOf(ZQuery, "sortBy"), "q.sortBy")).toEqual(["date", "amount"]);
    expect(defaultOf(fieldOf(ZQuery, "limit"))).toBe(50);
    expect(printed(enumTypeSdl("Kind", ZItem.shape.kind, { values: { a: "The first." } }), "Kind")).toBe(
      'enum Kind {\n  """The first."""\n  a\n  b\n}',
    );
  });

  it("finds a page's item and an array's element", () => {
    const page = z.object({ items: z.array(ZItem), total: z.number().int() });
    expect(pageItemOf(page)).toBe(ZItem);
    expect(elementOf(ZItem.shape.tags.optional(), "tags")).toBe(ZItem.shape.tags.element);
  });

  it("refuses what GraphQL cannot express unnamed, and names where", () => {
    expect(() => objectTypeSdl("Item", ZItem)).toThrow("Item.kind: zod enum has no GraphQL type of its own");
    expect(() => objectTypeSdl("X", z.object({ nested: z.object({ a: z.string() }) }))).toThrow(
      "X.nested: zod object",
    );
    expect(() => objectTypeSdl("X", z.object({ a: z.string() }), { fields: { b: "Int" } })).toThrow(
      "X: no field b in the schema",
    );
    expect(() => objectTypeSdl("X", z.string())).toThrow("X: not an object schema (zod string)");
  });
});
