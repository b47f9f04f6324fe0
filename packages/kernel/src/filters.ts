import { z } from "zod";
import { validationError } from "./errors";

/*
 * The list filter grammar (GraphQL `filters: [{ field, operator, value }]`): every condition must hold.
 * Each list declares which fields may be filtered and their type; a value is checked against that type.
 *   eq, neq          any type (booleans: only these two)
 *   gt, gte, lt, lte strings, times, dates, integers, int64
 *   like             strings: case-insensitive "contains"
 *   in               a list of 1–100 values of the field's type
 * An unknown field or operator, or a wrongly typed value, is a VALIDATION_ERROR naming it.
 */

export const FILTER_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "like", "in"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterFieldType =
  | { kind: "string" }
  | { kind: "uuid" }
  | { kind: "boolean" }
  | { kind: "time" }
  | { kind: "date" }
  | { kind: "int64" }
  | { kind: "enum"; values: readonly string[] };

/** A filterable field: its type, the column (Prisma field) it reads, and optionally fewer operators. */
export type FilterField = FilterFieldType & { column?: string; operators?: readonly FilterOperator[] };
export type FilterSpec = Readonly<Record<string, FilterField>>;

export type FilterValue = string | boolean | Date | bigint;
export type TypedFilter = {
  /** The Prisma field to compare. */
  column: string;
  operator: FilterOperator;
  value: FilterValue | FilterValue[];
};

export const MAX_FILTERS = 20;
const MAX_IN_VALUES = 100;

const ZFilterEntry = z.object({ field: z.string(), operator: z.string(), value: z.unknown().optional() });

const ORDERED = new Set<FilterOperator>(["gt", "gte", "lt", "lte"]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INT64 = /^-?(0|[1-9][0-9]{0,18})$/;

const allows = (type: FilterFieldType, operator: FilterOperator): boolean => {
  if (operator === "like") return type.kind === "string";
  if (ORDERED.has(operator)) return type.kind !== "boolean" && type.kind !== "uuid" && type.kind !== "enum";
  if (operator === "in") return type.kind !== "boolean";
  return true;
};

/** One value of the field's type, or the problem with it. */
const typedValue = (type: FilterFieldType, value: unknown): FilterValue | string[] | { problem: string } => {
  switch (type.kind) {
    case "string":
      return typeof value === "string" && value.length <= 254 && !value.includes("\u0000")
        ? value
        : { problem: "must be a string of at most 254 characters" };
    case "uuid":
      return typeof value === "string" && z.uuid().safeParse(value).success
        ? value.toLowerCase()
        : { problem: "must be a UUID" };
    case "boolean":
      return typeof value === "boolean" ? value : { problem: "must be a boolean" };
    case "time": {
      if (typeof value !== "string" || !z.iso.datetime({ offset: true }).safeParse(value).success)
        return { problem: "must be an ISO 8601 timestamp" };
      return new Date(value);
    }
    case "date": {
      if (typeof value !== "string" || !DATE.test(value) || !z.iso.date().safeParse(value).success)
        return { problem: "must be a date (YYYY-MM-DD)" };
      return new Date(`${value}T00:00:00.000Z`);
    }
    case "int64": {
      const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value;
      if (typeof text !== "string" || !INT64.test(text)) return { problem: "must be an integer string" };
      const parsed = BigInt(text);
      if (parsed > 2n ** 63n - 1n || parsed < -(2n ** 63n)) return { problem: "is out of range" };
      return parsed;
    }
    case "enum":
      return typeof value === "string" && type.values.includes(value)
        ? value
        : { problem: `must be one of ${type.values.join(", ")}` };
  }
};

const isProblem = (value: unknown): value is { problem: string } =>
  typeof value === "object" && value !== null && "problem" in value;

/** Checks raw filters against a list's spec; throws a VALIDATION_ERROR naming the first bad part. */
export const parseFilters = (spec: FilterSpec, raw: unknown, path = "filters"): TypedFilter[] => {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw validationError([{ path, message: "must be a list" }]);
  if (raw.length > MAX_FILTERS)
    throw validationError([{ path, message: `must have at most ${MAX_FILTERS} conditions` }]);
  return raw.map((entry, index) => {
    const at = `${path}.${index}`;
    const parsed = ZFilterEntry.safeParse(entry);
    if (!parsed.success) throw validationError([{ path: at, message: "must be { field, operator, value }" }]);
    const { field, operator, value } = parsed.data;
    if (!Object.hasOwn(spec, field)) {
      throw validationError([
        {
          path: `${at}.field`,
          message: `"${field}" is not filterable; use one of ${Object.keys(spec).join(", ")}`,
        },
      ]);
    }
    const type = spec[field] as FilterField;
    if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
      throw validationError([
        {
          path: `${at}.operator`,
          message: `"${operator}" is not an operator; use one of ${FILTER_OPERATORS.join(", ")}`,
        },
      ]);
    }
    const op = operator as FilterOperator;
    if (!allows(type, op) || (type.operators && !type.operators.includes(op))) {
      throw validationError([
        { path: `${at}.operator`, message: `"${op}" does not apply to ${field} (${type.kind})` },
      ]);
    }
    if (value === undefined || value === null)
      throw validationError([{ path: `${at}.value`, message: "is required" }]);
    const column = type.column ?? field;
    if (op === "in") {
      if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES) {
        throw validationError([
          { path: `${at}.value`, message: `must be a list of 1 to ${MAX_IN_VALUES} values` },
        ]);
      }
      const values = value.map((item, itemIndex) => {
        const typed = typedValue(type, item);
        if (isProblem(typed))
          throw validationError([{ path: `${at}.value.${itemIndex}`, message: typed.problem }]);
        return typed as FilterValue;
      });
      return { column, operator: op, value: values };
    }
    const typed = typedValue(type, value);
    if (isProblem(typed)) throw validationError([{ path: `${at}.value`, message: typed.problem }]);
    return { column, operator: op, value: typed as FilterValue };
  });
};

/**
 * `value` as literal text inside a LIKE/ILIKE pattern: `%`, `_` and `\` match themselves (PostgreSQL's
 * default escape character is the backslash). A search for "50%" or "a_b" finds those characters,
 * not "500" or "axb".
 */
export const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, "\\$&");

/**
 * A case-insensitive substring condition in Prisma's shape. Prisma turns `contains` into
 * `ILIKE '%…%'` without escaping the value (prisma/prisma#19506), so the value is escaped here:
 * every search of every list goes through this.
 */
export const containsText = (value: string) => ({
  contains: likeLiteral(value),
  mode: "insensitive" as const,
});

/** `text` in any of `fields` (Prisma's `OR`), each as `containsText`. */
export const searchIn = <F extends string>(fields: readonly F[], text: string) =>
  fields.map((field) => ({ [field]: containsText(text) }) as Record<F, ReturnType<typeof containsText>>);

/** The filters as where-conditions in Prisma's shape (`{ column: { gte: value } }`), to AND together. */
export const filterConditions = (filters: readonly TypedFilter[]): Record<string, unknown>[] =>
  filters.map(({ column, operator, value }) => {
    switch (operator) {
      case "eq":
        return { [column]: { equals: value } };
      case "neq":
        return { [column]: { not: value } };
      case "like":
        return { [column]: containsText(String(value)) };
      case "in":
        return { [column]: { in: value } };
      default:
        return { [column]: { [operator]: value } };
    }
  });

/** Sort entries: whitelisted fields, one direction; the caller appends `id` as the tie-breaker. */
export const parseSort = <F extends string>(
  allowed: readonly F[],
  raw: unknown,
  order: "asc" | "desc",
  path = "sortBy",
): { field: F; order: "asc" | "desc" }[] => {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > 5) throw validationError([{ path, message: "must name at most 5 fields" }]);
  return list.map((field, index) => {
    if (typeof field !== "string" || !(allowed as readonly string[]).includes(field)) {
      throw validationError([
        {
          path: `${path}.${index}`,
          message: `"${String(field)}" is not sortable; use one of ${allowed.join(", ")}`,
        },
      ]);
    }
    return { field: field as F, order };
  });
};
