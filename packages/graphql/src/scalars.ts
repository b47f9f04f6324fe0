import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";

/*
 * Time: an ISO 8601 timestamp in UTC (`2026-11-24T19:20:34.000Z`), as the spec says.
 * Int64: exact 64-bit integers (money in minor units) as decimal strings, never JSON numbers, which
 * lose precision above 2^53. Input takes the same decimal string; an Int literal is accepted too
 * (GraphQL Int literals are 32-bit, so they are exact).
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL = /^-?(0|[1-9][0-9]{0,18})$/;

const invalid = (message: string) =>
  new GraphQLError(message, { extensions: { code: "VALIDATION_ERROR", reason: "validation.invalid" } });

const toInt64 = (value: unknown): bigint => {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && DECIMAL.test(value)) return BigInt(value);
  throw invalid('Int64 must be a decimal string of an integer (e.g. "1250000")');
};

const inRange = (value: bigint): bigint => {
  if (value < INT64_MIN || value > INT64_MAX) throw invalid("Int64 is out of range");
  return value;
};

export const Int64Scalar = new GraphQLScalarType({
  name: "Int64",
  description:
    'A 64-bit integer as a decimal string (money in minor units: "1250000" is 12 500.00 UZS). ' +
    "Strings keep it exact above 2^53, where JSON numbers do not.",
  serialize: (value) => inRange(toInt64(value)).toString(),
  // Services take amounts as decimal strings (the REST wire form), so that is what resolvers get.
  parseValue: (value) => inRange(toInt64(value)).toString(),
  parseLiteral: (ast: ValueNode) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return inRange(toInt64(ast.value)).toString();
    throw invalid('Int64 must be a decimal string of an integer (e.g. "1250000")');
  },
});

const toTime = (value: unknown): Date => {
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) throw invalid("Time must be an ISO 8601 timestamp");
  return date;
};

export const TimeScalar = new GraphQLScalarType({
  name: "Time",
  description: "An ISO 8601 timestamp in UTC, e.g. 2026-11-24T19:20:34.000Z.",
  serialize: (value) => toTime(value).toISOString(),
  parseValue: (value) => {
    if (typeof value !== "string") throw invalid("Time must be an ISO 8601 timestamp string");
    return toTime(value);
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw invalid("Time must be an ISO 8601 timestamp string");
    return toTime(ast.value);
  },
});

/** A filter's value: a string, number or boolean, or a list of them (for `in`); typed by the field. */
export const FilterValueScalar = new GraphQLScalarType({
  name: "FilterValue",
  description: "A filter's value: String, Int, Float or Boolean, or a list of them for the `in` operator.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.ENUM:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.LIST:
        return ast.values.map((entry) => literal(entry));
      case Kind.NULL:
        return null;
      default:
        throw invalid("FilterValue must be a String, Int, Float, Boolean or a list of them");
    }
  },
});
