import { AppError, validationError } from "@hisob/kernel";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Prisma } from "./client";
import { toProblem } from "./problem";

const knownRequestError = (meta: Record<string, unknown>, code = "P2010") =>
  new Prisma.PrismaClientKnownRequestError("query failed", { code, clientVersion: "7.10.0", meta });

describe("toProblem", () => {
  it("keeps an AppError's code, reason, message, issues and retry delay", () => {
    expect(
      toProblem(new AppError("NOT_FOUND", { reason: "payment.not_found", message: "Payment not found" })),
    ).toEqual({
      code: "NOT_FOUND",
      reason: "payment.not_found",
      message: "Payment not found",
    });
    expect(toProblem(validationError([{ path: "amount", message: "must be positive" }]))).toEqual({
      code: "VALIDATION_ERROR",
      reason: "validation.invalid",
      message: "validation error: amount must be positive",
      issues: [{ path: "amount", message: "must be positive" }],
    });
    expect(toProblem(new AppError("RATE_LIMITED", { params: { retryAfterSeconds: 7 } }))).toMatchObject({
      code: "RATE_LIMITED",
      retryAfterSeconds: 7,
    });
  });

  it("masks INTERNAL and anything unknown, whatever its message says", () => {
    const masked = { code: "INTERNAL", reason: "internal", message: "Internal server error" };
    expect(toProblem(new AppError("INTERNAL", { message: "ledger out of balance in tenant 42" }))).toEqual(
      masked,
    );
    expect(toProblem(new Error("connect ECONNREFUSED postgres://app:hunter2@db:5432"))).toEqual(masked);
    expect(toProblem("a string")).toEqual(masked);
    expect(toProblem(null)).toEqual(masked);
  });

  it("names the field of a zod error that escaped parseInput", () => {
    const result = z.object({ amount: z.string() }).safeParse({});
    expect(result.success).toBe(false);
    expect(toProblem(result.error)).toMatchObject({ code: "VALIDATION_ERROR", issues: [{ path: "amount" }] });
  });

  it("turns database failures that are the input's fault into VALIDATION_ERROR, retryable ones into UNAVAILABLE", () => {
    expect(
      toProblem(knownRequestError({ driverAdapterError: { cause: { originalCode: "22021" } } })),
    ).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "request.invalid_text",
    });
    expect(
      toProblem(knownRequestError({ driverAdapterError: { cause: { originalCode: "40001" } } })),
    ).toMatchObject({
      code: "UNAVAILABLE",
      retryAfterSeconds: 1,
    });
  });

  it("a database that cannot be reached is UNAVAILABLE, read from codes, never from free text", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    for (const error of [
      refused,
      new AggregateError([refused], "all attempts failed"),
      knownRequestError({ driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } }),
      knownRequestError({ driverAdapterError: { cause: { originalCode: "57P01" } } }),
      Object.assign(new Error("Can't reach database server"), { errorCode: "P1001" }),
      knownRequestError({ driverAdapterError: { cause: { originalCode: "57P02" } } }),
      knownRequestError({ driverAdapterError: { cause: { originalCode: "57P03" } } }),
      knownRequestError({ driverAdapterError: { cause: { originalCode: "08006" } } }),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("timeout exceeded when trying to connect"),
    ]) {
      expect(toProblem(error), String(error)).toMatchObject({
        code: "UNAVAILABLE",
        reason: "database.unavailable",
        retryAfterSeconds: 2,
      });
    }
  });
});
