import type { z } from "zod";

/*
 * Our own small zod → GraphQL SDL mapper (docs/decisions/0095-graphql-from-the-operation-catalog.md):
 * the GraphQL object types, input types and arguments of catalog operations are printed from the same
 * zod schemas REST, tRPC and OpenAPI read. It knows what the catalog uses (objects, strings and their
 * uuid/datetime formats, numbers, booleans, enums, arrays, optional, nullable, default, pipes) and
 * refuses anything else by its path, so a schema GraphQL cannot express is named at start, not served
 * wrong. What zod cannot tell (a decimal string that is money, the name of an enum or a nested
 * object) the caller names per field.
 */

/** A field's GraphQL leaf type (`Int64`, `ClientKind`, `Role`), or that and its description. */
export type FieldSpec = string | { type?: string; description?: string | null };

export type ShapeOptions = {
  /** What zod cannot tell, per field: the leaf type (nullability and lists stay the schema's) and words. */
  fields?: Readonly<Record<string, FieldSpec>>;
  /** The schema's fields GraphQL does not serve. */
  omit?: readonly string[];
  /** SDL lines of fields GraphQL adds (a record another type points to, resolved by a loader). */
  extra?: string;
  /** The type's description. */
  description?: string;
};

type Side = "input" | "output";

// zod's own definition object: what every schema carries in `_zod.def` (zod 4).
type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string | number>;
  options?: z.ZodType[];
  format?: string;
  values?: unknown[];
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
/** A string's or number's format (`uuid`, `datetime`, `safeint`): its definition's, or what its checks set. */
const formatOf = (schema: z.ZodType): string | undefined => {
  const inner = schema as unknown as { format?: string | null; _zod: { bag?: { format?: string } } };
  return defOf(schema).format ?? inner._zod.bag?.format ?? inner.format ?? undefined;
};

/** Wrappers that say nothing of the type, only whether a value may be missing. */
const OPTIONAL = new Set(["optional", "nullable", "default", "prefault", "catch"]);
const TRANSPARENT = new Set(["readonly", "nonoptional"]);

/** The schema a side reads: a pipe's input for an input, its output for an output (a transform: the other). */
const throughPipe = (schema: z.ZodType, side: Side): z.ZodType => {
  const def = defOf(schema);
  if (def.type !== "pipe" || !def.in || !def.out) return schema;
  const first = side === "input" ? def.in : def.out;
  const other = side === "input" ? def.out : def.in;
  return throughPipe(defOf(first).type === "transform" ? other : first, side);
};

/** Unwraps what only says "may be missing"; whether it may is the GraphQL nullability. */
const unwrap = (
  schema: z.ZodType,
  side: Side,
): { core: z.ZodType; nullable: boolean; description?: string } => {
  let current = throughPipe(schema, side);
  let nullable = false;
  let description = current.description;
  for (;;) {
    const def = defOf(current);
    if (OPTIONAL.has(def.type) && def.innerType) {
      // An output's default is always filled in; an input's may be left out.
      if (def.type !== "default" || side === "input") nullable = true;
      current = throughPipe(def.innerType, side);
    } else if (TRANSPARENT.has(def.type) && def.innerType) {
      current = throughPipe(def.innerType, side);
    } else break;
    description ??= current.description;
  }
  return { core: current, nullable, description };
};

/** The GraphQL type of a schema, `!` where it is required (`leaf` names what zod cannot). */
export const graphqlTypeOf = (schema: z.ZodType, side: Side, at: string, leaf?: string): string => {
  const { core, nullable } = unwrap(schema, side);
  const bang = nullable ? "" : "!";
  const def = defOf(core);
  if (def.type === "array" && def.element)
    return `[${graphqlTypeOf(def.element, side, `${at}[]`, leaf)}]${bang}`;
  if (leaf) return `${leaf}${bang}`;
  switch (def.type) {
    case "string": {
      const format = formatOf(core);
      if (format === "uuid" || format === "guid") return `ID${bang}`;
      if (format === "datetime") return `Time${bang}`;
      return `String${bang}`;
    }
    case "number":
      return `${formatOf(core)?.includes("int") ? "Int" : "Float"}${bang}`;
    case "boolean":
      return `Boolean${bang}`;
    default:
      throw new Error(
        `${at}: zod ${def.type} has no GraphQL type of its own; name it in the field's \`fields\` entry`,
      );
  }
};

const specOf = (spec: FieldSpec | undefined): { type?: string; description?: string | null } =>
  typeof spec === "string" ? { type: spec } : (spec ?? {});

const described = (text: string | null | undefined, indent: string): string => {
  if (!text) return "";
  return text.includes("\n") || text.includes('"')
    ? `${indent}"""\n${indent}${text.replaceAll("\n", `\n${indent}`)}\n${indent}"""\n`
    : `${indent}"${text}"\n`;
};

/** The object schema's fields (an object behind refinements, pipes and wrappers). */
export const shapeOf = (schema: z.ZodType | undefined, side: Side, at: string): Record<string, z.ZodType> => {
  // An operation without input declares none (`input` is optional in the catalog's types).
  if (!schema) throw new Error(`${at}: the operation takes no input`);
  const { core } = unwrap(schema, side);
  const shape = defOf(core).shape;
  if (!shape) throw new Error(`${at}: not an object schema (zod ${defOf(core).type})`);
  return shape;
};

/** The default an input field's schema fills in, as GraphQL writes it (` = outbound`); none for null or objects. */
const defaultSdl = (schema: z.ZodType, leaf: string | undefined): string => {
  let def = defOf(throughPipe(schema, "input"));
  while (def.type !== "default" && (OPTIONAL.has(def.type) || TRANSPARENT.has(def.type)) && def.innerType)
    def = defOf(throughPipe(def.innerType, "input"));
  if (def.type !== "default") return "";
  const value = (def as Def & { defaultValue?: unknown }).defaultValue;
  if (typeof value === "number" || typeof value === "boolean") return ` = ${value}`;
  if (typeof value !== "string") return "";
  // A named leaf that is not a scalar is an enum: its value is written bare.
  return leaf && !["String", "ID", "Int64", "Time"].includes(leaf)
    ? ` = ${value}`
    : ` = ${JSON.stringify(value)}`;
};

const fieldLines = (schema: z.ZodType | undefined, side: Side, at: string, options: ShapeOptions): string => {
  const shape = shapeOf(schema, side, at);
  const unknown = Object.keys({ ...options.fields }).filter(
    (name) => !(name in shape) && !options.omit?.includes(name),
  );
  if (unknown.length > 0) throw new Error(`${at}: no field ${unknown.join(", ")} in the schema`);
  return Object.entries(shape)
    .filter(([name]) => !options.omit?.includes(name))
    .map(([name, field]) => {
      const spec = specOf(options.fields?.[name]);
      const description = spec.description === undefined ? unwrap(field, side).description : spec.description;
      const fallback = side === "input" ? defaultSdl(field, spec.type) : "";
      return `${described(description, "    ")}    ${name}: ${graphqlTypeOf(field, side, `${at}.${name}`, spec.type)}${fallback}\n`;
    })
    .join("");
};

/** `type Name { … }` from an operation's output schema. */
export const objectTypeSdl = (name: string, schema: z.ZodType, options: ShapeOptions = {}): string =>
  `${described(options.description, "  ")}  type ${name} {\n${fieldLines(schema, "output", name, options)}${options.extra ?? ""}  }\n`;

/** `input Name { … }` from an operation's input schema. */
export const inputTypeSdl = (
  name: string,
  schema: z.ZodType | undefined,
  options: ShapeOptions = {},
): string =>
  `${described(options.description, "  ")}  input ${name} {\n${fieldLines(schema, "input", name, options)}  }\n`;

/** A field's arguments from an input schema: `accountId: ID!, query: …` (as `fields` names them). */
export const argumentsSdl = (schema: z.ZodType | undefined, at: string, options: ShapeOptions = {}): string =>
  Object.entries(shapeOf(schema, "input", at))
    .filter(([name]) => !options.omit?.includes(name))
    .map(
      ([name, field]) =>
        `${name}: ${graphqlTypeOf(field, "input", `${at}.${name}`, specOf(options.fields?.[name]).type)}`,
    )
    .join(", ");

/** The values of an enum schema (behind wrappers). */
export const enumValuesOf = (schema: z.ZodType, at: string): string[] => {
  const { core } = unwrap(schema, "input");
  const def = defOf(core);
  if (def.type === "enum" && def.entries) return Object.values(def.entries).map(String);
  if (def.type === "union" && def.options) {
    // `one field or a list of them` (a list's sortBy): the field enum's values.
    for (const option of def.options) {
      const inner = unwrap(option, "input").core;
      const element = defOf(inner).element;
      if (defOf(inner).type === "enum") return enumValuesOf(inner, at);
      if (element) return enumValuesOf(element, at);
    }
  }
  throw new Error(`${at}: not an enum schema (zod ${def.type})`);
};

/** `enum Name { … }` from an enum schema, with a description per value where given. */
export const enumTypeSdl = (
  name: string,
  schema: z.ZodType,
  options: { description?: string; values?: Readonly<Record<string, string>> } = {},
): string =>
  `${described(options.description, "  ")}  enum ${name} {\n${enumValuesOf(schema, name)
    .map((value) => `${described(options.values?.[value], "    ")}    ${value}\n`)
    .join("")}  }\n`;
