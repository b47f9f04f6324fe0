import { expect } from "vitest";
import type { SeededUser, TestApp } from "./test-app";

/*
 * Helpers the REST suites share: inject a request as a seeded user (or nobody), and assert the
 * error envelope.
 */

export const MISSING_ID = "01900000-0000-7000-8000-000000000000";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export const caller =
  (t: () => TestApp) => (who: SeededUser | null, method: Method, url: string, payload?: unknown) =>
    t().app.inject({
      method,
      url,
      ...(who ? { headers: who.headers } : {}),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

export type ErrorResponse = {
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

/**
 * A 400 that names `field`. Only "is required" has a fixed wording at the REST edge; other messages
 * come from the schema library, so the test pins the field, not the phrase.
 */
export const expectValidationNaming = (res: ErrorResponse, field: string) => {
  const error = expectError(res, 400, "VALIDATION_ERROR");
  expect(error.message).toMatch(/^validation error: /);
  expect(JSON.stringify(res.json().error.issues)).toContain(field);
};
