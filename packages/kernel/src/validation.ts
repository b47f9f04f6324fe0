import type { z } from "zod";
import { AppError, type FieldIssue, validationError } from "./errors";

type Issue = z.core.$ZodIssue;

/**
 * zod's own English messages start like this. They are rewritten to read after the field name
 * ("limit must be a number"); a message a schema chose itself ("must be positive") is kept.
 */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized key)/;

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "true or false",
  date: "a date",
  array: "a list",
  tuple: "a list",
  set: "a list",
  object: "an object",
  record: "an object",
  map: "an object",
  file: "a file",
};

const FORMAT_NAMES: Record<string, string> = {
  uuid: "a UUID",
  guid: "a UUID",
  email: "an email address",
  url: "a URL",
  datetime: "an ISO 8601 date-time",
  date: "a date (YYYY-MM-DD)",
  time: "a time (HH:MM:SS)",
  duration: "an ISO 8601 duration",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  base64: "base64 text",
  base64url: "base64url text",
  jwt: "a JWT",
};

/** A missing value: zod reports `undefined` input (with `reportInput`) or says so in its message. */
const isMissing = (issue: Issue): boolean => {
  if (issue.code !== "invalid_type" && issue.code !== "invalid_union") return false;
  if ("input" in issue && issue.input === undefined) return true;
  if (issue.code === "invalid_type") return /received undefined$/.test(issue.message);
  // A union none of whose options accepts a missing value.
  return (
    issue.errors.length > 0 &&
    issue.errors.every((option) => option.some((inner) => inner.path.length === 0 && isMissing(inner)))
  );
};

const SIZE_UNITS: Record<string, string> = { string: "character", array: "item", set: "item", file: "byte" };

const plural = (count: number | bigint, unit: string) => `${count} ${unit}${Number(count) === 1 ? "" : "s"}`;

const sizeMessage = (issue: Extract<Issue, { code: "too_small" | "too_big" }>): string => {
  const small = issue.code === "too_small";
  const limit = small ? issue.minimum : issue.maximum;
  const unit = SIZE_UNITS[issue.origin];
  if (unit) {
    if (issue.exact) return `must be exactly ${plural(limit, unit)}`;
    if (small && Number(limit) === 1) return "must not be empty";
    return `must have at ${small ? "least" : "most"} ${plural(limit, unit)}`;
  }
  if (issue.origin === "date") {
    const at = new Date(Number(limit)).toISOString();
    return small ? `must not be before ${at}` : `must not be after ${at}`;
  }
  if (issue.exact) return `must be exactly ${limit}`;
  if (issue.inclusive === false) return `must be ${small ? "greater" : "less"} than ${limit}`;
  return `must be at ${small ? "least" : "most"} ${limit}`;
};

const valueList = (values: readonly unknown[]) => values.map(String).join(", ");

/** The message for one issue, written to follow its field name. */
const messageFor = (issue: Issue): string => {
  if (isMissing(issue)) return "is required";
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
    case "too_big":
      return sizeMessage(issue);
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${valueList(issue.values)}`
        : `must be one of ${valueList(issue.values)}`;
    case "invalid_format": {
      const named = FORMAT_NAMES[issue.format];
      if (named) return `must be ${named}`;
      if ("prefix" in issue && typeof issue.prefix === "string") return `must start with "${issue.prefix}"`;
      if ("suffix" in issue && typeof issue.suffix === "string") return `must end with "${issue.suffix}"`;
      if ("includes" in issue && typeof issue.includes === "string")
        return `must contain "${issue.includes}"`;
      return "has an invalid format";
    }
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    default:
      return "is invalid";
  }
};

/**
 * Turns zod issues into our field issues: a dotted path and a message that reads after it
 * ("is required" for a missing value, "must be a number", "must be at most 100"); an unknown key
 * becomes its own issue ("<key> is not allowed").
 */
export const toFieldIssues = (issues: readonly Issue[]): FieldIssue[] =>
  issues.flatMap((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: "is not allowed" }));
    }
    return [{ path, message: messageFor(issue) }];
  });

/** Parses `input` with `schema`, throwing a VALIDATION_ERROR AppError on failure. */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  // reportInput: lets a missing value read "is required" even where the schema set its own message.
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw validationError(toFieldIssues(result.error.issues));
  return result.data;
};

export { AppError };
