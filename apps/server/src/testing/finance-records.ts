import { expect } from "vitest";
import { type ErrorResponse, expectError } from "./rest";

/*
 * Small helpers the finance-records suites share, beside the REST ones (./rest): a date, field
 * errors by issue path, unique names and hostile text.
 */

export { caller, expectError, type Method, MISSING_ID } from "./rest";

export const TODAY = "2026-11-22";

export const expectFieldError = (res: ErrorResponse, field: string, reason?: string) => {
  const error = expectError(res, 400, "VALIDATION_ERROR", reason);
  expect(
    error.issues?.map((issue) => issue.path),
    res.body,
  ).toContain(field);
  return error;
};

let sequence = 0;
export const unique = (prefix: string) => `${prefix} ${++sequence}-${Math.random().toString(36).slice(2, 7)}`;

/** Hostile or broken text every free-text field must refuse with a field error (never a 500). */
export const HOSTILE_TEXT: Array<[string, unknown]> = [
  ["a NUL character", "a\u0000b"],
  ["a control character", "a\u0007b"],
  ["a lone surrogate", "a\ud800b"],
  ["a number", 42],
  ["an object", { $ne: "" }],
  ["a list", ["x"]],
  ["null", null],
];
