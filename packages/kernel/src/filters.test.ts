import { describe, expect, it } from "vitest";
import { isAppError } from "./errors";
import {
  containsText,
  type FilterSpec,
  filterConditions,
  likeLiteral,
  parseFilters,
  parseSort,
  searchIn,
} from "./filters";

const SPEC: FilterSpec = {
  email: { kind: "string" },
  active: { kind: "boolean", column: "isActive" },
  createdAt: { kind: "time" },
  amount: { kind: "int64" },
  lang: { kind: "enum", values: ["en", "ru"] },
  date: { kind: "date", operators: ["gte", "lte"] },
};

const problem = (raw: unknown) => {
  try {
    parseFilters(SPEC, raw);
  } catch (error) {
    if (isAppError(error)) return error.message;
    throw error;
  }
  throw new Error("accepted");
};

describe("parseFilters", () => {
  it("types values by field and maps columns", () => {
    const filters = parseFilters(SPEC, [
      { field: "active", operator: "eq", value: false },
      { field: "createdAt", operator: "gte", value: "2026-01-01T00:00:00Z" },
      { field: "amount", operator: "in", value: ["9223372036854775807", 5] },
      { field: "email", operator: "like", value: "x" },
    ]);
    expect(filters[0]).toEqual({ column: "isActive", operator: "eq", value: false });
    expect(filters[1]?.value).toEqual(new Date("2026-01-01T00:00:00Z"));
    expect(filters[2]?.value).toEqual([9223372036854775807n, 5n]);
    expect(filterConditions(filters)).toEqual([
      { isActive: { equals: false } },
      { createdAt: { gte: new Date("2026-01-01T00:00:00Z") } },
      { amount: { in: [9223372036854775807n, 5n] } },
      { email: { contains: "x", mode: "insensitive" } },
    ]);
  });

  it("names the field, operator or value that is wrong", () => {
    expect(problem([{ field: "password", operator: "eq", value: "x" }])).toMatch(
      /^validation error: filters\.0\.field/,
    );
    expect(problem([{ field: "email", operator: "regex", value: "x" }])).toMatch(/filters\.0\.operator/);
    expect(problem([{ field: "active", operator: "gt", value: true }])).toMatch(/filters\.0\.operator/);
    expect(problem([{ field: "date", operator: "eq", value: "2026-01-01" }])).toMatch(/filters\.0\.operator/);
    expect(problem([{ field: "amount", operator: "eq", value: "9223372036854775808" }])).toMatch(
      /filters\.0\.value/,
    );
    expect(problem([{ field: "amount", operator: "eq", value: 1.5 }])).toMatch(/filters\.0\.value/);
    expect(problem([{ field: "lang", operator: "eq", value: "fr" }])).toMatch(/filters\.0\.value/);
    expect(problem([{ field: "date", operator: "gte", value: "2026-02-30" }])).toMatch(/filters\.0\.value/);
    expect(problem([{ field: "email", operator: "in", value: [] }])).toMatch(/filters\.0\.value/);
    expect(problem([{ field: "email", operator: "in", value: ["a", 1] }])).toMatch(/filters\.0\.value\.1/);
    expect(problem([{ field: "email", operator: "eq", value: "a\u0000" }])).toMatch(/filters\.0\.value/);
    expect(
      problem(Array.from({ length: 21 }, () => ({ field: "email", operator: "eq", value: "a" }))),
    ).toMatch(/at most 20/);
    expect(problem([{ field: "constructor", operator: "eq", value: "a" }])).toMatch(/filters\.0\.field/);
  });

  it("sorts only by allowed fields", () => {
    expect(parseSort(["email", "createdAt"], ["createdAt", "email"], "desc")).toEqual([
      { field: "createdAt", order: "desc" },
      { field: "email", order: "desc" },
    ]);
    expect(() => parseSort(["email"], ["password"], "asc")).toThrow(/sortBy\.0/);
  });
});

describe("substring search", () => {
  it("escapes LIKE's wildcards and its escape character, nothing else", () => {
    expect(likeLiteral("50% off")).toBe("50\\% off");
    expect(likeLiteral("a_b")).toBe("a\\_b");
    expect(likeLiteral("C:\\temp")).toBe("C:\\\\temp");
    expect(likeLiteral("Ёлка o‘g‘il [x]*")).toBe("Ёлка o‘g‘il [x]*");
  });

  it("gives Prisma escaped conditions, the filter grammar's `like` included", () => {
    expect(containsText("100%")).toEqual({ contains: "100\\%", mode: "insensitive" });
    expect(searchIn(["name", "number"], "_")).toEqual([
      { name: { contains: "\\_", mode: "insensitive" } },
      { number: { contains: "\\_", mode: "insensitive" } },
    ]);
    const [like] = parseFilters(SPEC, [{ field: "email", operator: "like", value: "a_b%" }]);
    expect(filterConditions(like ? [like] : [])).toEqual([
      { email: { contains: "a\\_b\\%", mode: "insensitive" } },
    ]);
  });
});
