import { crudPermissions, recordOperationsOf } from "@hisob/crud";
import type { Permission } from "@hisob/kernel";
import { buildSchema, printType } from "graphql";
import { expect, it } from "vitest";
import { z } from "zod";
import { recordSdl } from "./records";

/** A record's catalog entry, declared as a module declares one (its service is never called here). */
const widgets = recordOperationsOf<unknown, Permission>()({
  path: "/widgets",
  tag: "widgets",
  service: () => {
    throw new Error("not called");
  },
  sortFields: ["name", "createdAt"],
  schemas: {
    create: z.object({ name: z.string().min(1), size: z.number().int().default(1) }).strict(),
    update: z.object({ name: z.string().min(1).optional(), size: z.number().int().optional() }).strict(),
    item: z.object({ id: z.uuid(), name: z.string(), size: z.number().int(), createdAt: z.iso.datetime() }),
  },
  permissions: crudPermissions("widgets"),
  summaries: { list: "List", get: "Get", create: "Create", update: "Update", delete: "Delete" },
});

const printedType = (schema: ReturnType<typeof schemaOf>, name: string) => {
  const type = schema.getType(name);
  if (!type) throw new Error(`no ${name}`);
  return printType(type);
};

const schemaOf = (sdl: string) =>
  buildSchema(`scalar Time\nscalar Int64\ninput Filter { field: String! }\n${sdl}`);

it("prints a record's types, sort fields, paging and permissions from its catalog entry", () => {
  const schema = schemaOf(
    recordSdl({
      type: "Widget",
      plural: "widgets",
      operations: widgets,
      types: { item: {} },
      filterFields: ["name"],
    }),
  );

  expect(printedType(schema, "Widget")).toBe(
    "type Widget {\n  id: ID!\n  name: String!\n  size: Int!\n  createdAt: Time!\n}",
  );
  expect(printedType(schema, "WidgetInput")).toBe("input WidgetInput {\n  name: String!\n  size: Int = 1\n}");
  expect(printedType(schema, "WidgetPatch")).toBe("input WidgetPatch {\n  name: String\n  size: Int\n}");
  const list = schema.getQueryType()?.getFields().widgets;
  // The paging defaults are the list query's (ZPagination's), the sort fields its enum.
  expect(list?.args.map((arg) => [arg.name, String(arg.type), arg.defaultValue])).toEqual([
    ["offset", "Int", 0],
    ["limit", "Int", 20],
    ["sortBy", "[String!]", undefined],
    ["ascending", "Boolean", true],
    ["filters", "[Filter!]", undefined],
  ]);
  expect(list?.description).toContain("(widgets:read:all). sortBy: name, createdAt");
  expect(schema.getMutationType()?.getFields().deleteWidget?.description).toContain("(widgets:delete:all)");
});

it("a field added to the catalog's DTO is served without touching the GraphQL module", () => {
  const grown = {
    ...widgets,
    get: { ...widgets.get, output: widgets.get.output.extend({ colour: z.string().nullable() }) },
  };
  const schema = schemaOf(
    recordSdl({
      type: "Widget",
      plural: "widgets",
      operations: grown,
      types: { item: {} },
      filterFields: [],
    }),
  );
  expect(printedType(schema, "Widget")).toContain("colour: String\n");
});
