import { describe, expect, it } from "vitest";
import { AppError, ERROR_STATUS, type ErrorCode, isAppError, validationError } from "./errors";

describe("AppError", () => {
  it("maps every code to its REST status", () => {
    expect(ERROR_STATUS).toEqual({
      VALIDATION_ERROR: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      CONFLICT: 409,
      BUSINESS_RULE: 422,
      RATE_LIMITED: 429,
      INTERNAL: 500,
      UNAVAILABLE: 503,
    });
    for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][]) {
      expect(new AppError(code).status, code).toBe(status);
    }
  });

  it("has a default reason (a dotted i18n key) and message per code", () => {
    const defaults = Object.fromEntries(
      (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => {
        const error = new AppError(code);
        return [code, { reason: error.reason, message: error.message }];
      }),
    );
    expect(defaults).toEqual({
      VALIDATION_ERROR: { reason: "validation.invalid", message: "validation error" },
      UNAUTHENTICATED: { reason: "auth.unauthenticated", message: "Unauthorized" },
      FORBIDDEN: { reason: "auth.forbidden", message: "Forbidden" },
      NOT_FOUND: { reason: "not_found", message: "Not found" },
      CONFLICT: { reason: "conflict", message: "Conflict" },
      BUSINESS_RULE: { reason: "business_rule", message: "The operation breaks a business rule" },
      RATE_LIMITED: { reason: "rate_limited", message: "Too many requests" },
      INTERNAL: { reason: "internal", message: "Internal server error" },
      UNAVAILABLE: { reason: "unavailable", message: "Service unavailable" },
    });
  });

  it("keeps the reason, message, params and cause it is given", () => {
    const cause = new Error("balance 5 < 10");
    const error = new AppError("BUSINESS_RULE", {
      reason: "finance.insufficient_balance",
      message: "Insufficient balance",
      params: { accountId: "a-1" },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "AppError",
      code: "BUSINESS_RULE",
      reason: "finance.insufficient_balance",
      message: "Insufficient balance",
      params: { accountId: "a-1" },
      status: 422,
    });
    expect(error.cause).toBe(cause);
    expect(new AppError("NOT_FOUND").params).toEqual({});
    expect("cause" in new AppError("NOT_FOUND")).toBe(false);
  });

  it("is recognised by isAppError, and nothing else is", () => {
    expect(isAppError(new AppError("CONFLICT"))).toBe(true);
    expect(isAppError(new Error("CONFLICT"))).toBe(false);
    expect(isAppError({ code: "CONFLICT", reason: "conflict", status: 409 })).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});

describe("validationError", () => {
  it("reads `validation error: <field> <message>` from the first issue and keeps them all", () => {
    const issues = [
      { path: "name", message: "is required" },
      { path: "lines.0.amount", message: "must be positive" },
    ];
    const error = validationError(issues);
    expect(error).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 400,
      reason: "validation.invalid",
      message: "validation error: name is required",
      params: { issues },
    });
  });

  it("names the whole input when the issue has no path, and takes a specific reason", () => {
    expect(validationError([{ path: "", message: "must be an object" }]).message).toBe(
      "validation error: input must be an object",
    );
    expect(
      validationError([{ path: "password", message: "is too weak" }], "auth.weak_password"),
    ).toMatchObject({
      reason: "auth.weak_password",
      message: "validation error: password is too weak",
    });
  });

  it("is plain `validation error` without issues", () => {
    expect(validationError([])).toMatchObject({ message: "validation error", params: { issues: [] } });
  });
});
