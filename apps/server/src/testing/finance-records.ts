import { expect } from "vitest";
import type { SeededUser, TestApp } from "./test-app";

/*
 * Small helpers the finance-records suites share: inject a request as a seeded user (or nobody),
 * and assert the error envelope.
 */

export const MISSING_ID = "01900000-0000-7000-8000-000000000000";
export const TODAY = "2026-11-22";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export const caller =
  (t: () => TestApp) => (who: SeededUser | null, method: Method, url: string, payload?: unknown) =>
    t().app.inject({
      method,
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

type ErrorResponse = {
  statusCode: number;
  body: string;
  json(): { error: { code: string; reason: string; message: string; issues?: Array<{ path: string }> } };
};

export const expectError = (res: ErrorResponse, status: number, code: string, reason?: string) => {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error.code).toBe(code);
  if (reason) expect(res.json().error.reason, res.body).toBe(reason);
  return res.json().error;
};

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
