import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "./errors";
import { ZLocale } from "./locale";
import { ZPositiveMinorAmount } from "./money";
import { ZPagination } from "./pagination";
import { parseInput, toFieldIssues } from "./validation";

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a validation failure");
  return toFieldIssues(result.error.issues);
};

const messageOf = (schema: z.ZodType, input: unknown): string => {
  try {
    parseInput(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
  throw new Error("expected a validation failure");
};

describe("toFieldIssues", () => {
  it("says `is required` for a missing field, with a dotted path", () => {
    const schema = z.object({ name: z.string(), address: z.object({ city: z.string() }) });
    expect(issuesOf(schema, { address: {} })).toEqual([
      { path: "name", message: "is required" },
      { path: "address.city", message: "is required" },
    ]);
  });

  it("words zod's type errors after the field name", () => {
    const schema = z.object({
      limit: z.coerce.number(),
      count: z.number(),
      whole: z.number().int(),
      name: z.string(),
      active: z.boolean(),
      tags: z.array(z.string()),
      when: z.date(),
    });
    const input = { limit: "abc", count: "3", whole: 1.5, name: 5, active: "yes", tags: "a", when: "today" };
    expect(issuesOf(schema, input)).toEqual([
      { path: "limit", message: "must be a number" },
      { path: "count", message: "must be a number" },
      { path: "whole", message: "must be an integer" },
      { path: "name", message: "must be a string" },
      { path: "active", message: "must be true or false" },
      { path: "tags", message: "must be a list" },
      { path: "when", message: "must be a date" },
    ]);
  });

  it("words sizes and bounds", () => {
    const schema = z.object({
      limit: z.number().min(1).max(100),
      rate: z.number().positive(),
      share: z.number().lt(1),
      name: z.string().min(2).max(5),
      title: z.string().min(1),
      code: z.string().length(3),
      lines: z.array(z.string()).min(1),
      few: z.array(z.string()).max(1),
    });
    const tooSmall = {
      limit: 0,
      rate: 0,
      share: 1,
      name: "a",
      title: "",
      code: "ab",
      lines: [],
      few: ["a", "b"],
    };
    expect(issuesOf(schema, tooSmall)).toEqual([
      { path: "limit", message: "must be at least 1" },
      { path: "rate", message: "must be greater than 0" },
      { path: "share", message: "must be less than 1" },
      { path: "name", message: "must have at least 2 characters" },
      { path: "title", message: "must not be empty" },
      { path: "code", message: "must be exactly 3 characters" },
      { path: "lines", message: "must not be empty" },
      { path: "few", message: "must have at most 1 item" },
    ]);
    expect(issuesOf(schema, { ...tooSmall, limit: 101, name: "abcdef" }).slice(0, 4)).toEqual([
      { path: "limit", message: "must be at most 100" },
      { path: "rate", message: "must be greater than 0" },
      { path: "share", message: "must be less than 1" },
      { path: "name", message: "must have at most 5 characters" },
    ]);
  });

  it("words choices, formats and multiples", () => {
    const schema = z.object({
      locale: ZLocale,
      kind: z.literal("payment"),
      id: z.uuid(),
      email: z.email(),
      site: z.url(),
      at: z.iso.datetime(),
      code: z.string().regex(/^[A-Z]+$/),
      ref: z.string().startsWith("INV-"),
      step: z.number().multipleOf(5),
    });
    const input = {
      locale: "de",
      kind: "refund",
      id: "x",
      email: "x",
      site: "x",
      at: "x",
      code: "x",
      ref: "x",
      step: 3,
    };
    expect(issuesOf(schema, input)).toEqual([
      { path: "locale", message: "must be one of en, ru, uz" },
      { path: "kind", message: "must be payment" },
      { path: "id", message: "must be a UUID" },
      { path: "email", message: "must be an email address" },
      { path: "site", message: "must be a URL" },
      { path: "at", message: "must be an ISO 8601 date-time" },
      { path: "code", message: "has an invalid format" },
      { path: "ref", message: 'must start with "INV-"' },
      { path: "step", message: "must be a multiple of 5" },
    ]);
  });

  it("keeps a message the schema chose itself", () => {
    const schema = z.object({
      amount: ZPositiveMinorAmount,
      nick: z.string().refine((value) => value !== "admin", { message: "is reserved" }),
    });
    expect(issuesOf(schema, { amount: "0", nick: "admin" })).toEqual([
      { path: "amount", message: "must be positive" },
      { path: "nick", message: "is reserved" },
    ]);
  });

  it("reports each unknown key of a strict object on its own", () => {
    const schema = z.strictObject({ name: z.string(), meta: z.strictObject({ a: z.string() }) });
    expect(issuesOf(schema, { name: "x", meta: { a: "y", b: 1 }, role: "admin" })).toEqual([
      { path: "meta.b", message: "is not allowed" },
      { path: "role", message: "is not allowed" },
    ]);
  });

  it("paths into arrays, and says `is invalid` where there is nothing more precise", () => {
    const schema = z.object({
      lines: z.array(z.object({ amount: z.string() })),
      value: z.union([z.string(), z.number()]),
      check: z.string().refine(() => false),
    });
    expect(issuesOf(schema, { lines: [{ amount: "1" }, {}], value: true, check: "x" })).toEqual([
      { path: "lines.1.amount", message: "is required" },
      { path: "value", message: "is invalid" },
      { path: "check", message: "is invalid" },
    ]);
    expect(issuesOf(z.object({ value: z.union([z.string(), z.number()]) }), {})).toEqual([
      { path: "value", message: "is required" },
    ]);
  });

  it("names the whole input by an empty path", () => {
    expect(issuesOf(z.object({ a: z.string() }), null)).toEqual([{ path: "", message: "must be an object" }]);
  });
});

describe("parseInput", () => {
  it("returns the parsed value", () => {
    expect(parseInput(ZPagination, { limit: "5" })).toEqual({ limit: 5, offset: 0 });
  });

  it("throws VALIDATION_ERROR `validation error: <field> is required` with every issue", () => {
    const schema = z.object({ email: z.email(), password: z.string() });
    let caught: unknown;
    try {
      parseInput(schema, { email: "nope" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      reason: "validation.invalid",
      message: "validation error: email must be an email address",
      params: {
        issues: [
          { path: "email", message: "must be an email address" },
          { path: "password", message: "is required" },
        ],
      },
    });
  });

  it("reads well for the common cases", () => {
    expect(messageOf(z.object({ name: z.string() }), {})).toBe("validation error: name is required");
    expect(messageOf(ZPagination, { limit: "abc" })).toBe("validation error: limit must be a number");
    expect(messageOf(ZPagination, { limit: "500" })).toBe("validation error: limit must be at most 100");
    expect(messageOf(z.object({ a: z.string() }), "x")).toBe("validation error: input must be an object");
  });

  it("says `is required` for a missing field even when the schema has its own type message", () => {
    const schema = z.object({ name: z.string({ message: "must be text" }) });
    expect(messageOf(schema, {})).toBe("validation error: name is required");
    expect(messageOf(schema, { name: 5 })).toBe("validation error: name must be text");
  });
});
