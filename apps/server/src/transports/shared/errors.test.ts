import { Prisma } from "@hisob/db";
import { describe, expect, it } from "vitest";
import { type HttpProblem, localizeProblem, toHttpProblem } from "./errors";

const problem = (overrides: Partial<HttpProblem>): HttpProblem => ({
  status: 400,
  code: "VALIDATION_ERROR",
  reason: "validation.invalid",
  message: "validation error",
  ...overrides,
});

describe("localizeProblem", () => {
  it("leaves English exactly as raised", () => {
    const p = problem({
      status: 404,
      code: "NOT_FOUND",
      reason: "tenant.not_found",
      message: "Tenant t-1 not found",
    });
    expect(localizeProblem(p, "en")).toBe(p);
  });

  it("translates by reason, keeps code, reason and the issues' paths, and translates the issues' messages", () => {
    const issues = [{ path: "currentPassword", message: "is wrong" }];
    const p = problem({
      reason: "account.wrong_current_password",
      message: "validation error: currentPassword is wrong",
      issues,
    });
    expect(localizeProblem(p, "ru")).toEqual({
      ...p,
      message: "Ошибка проверки данных: текущий пароль указан неверно",
      issues: [{ path: "currentPassword", message: "указан неверно" }],
    });
  });

  it("names the field of a reason that takes one", () => {
    const issues = [{ path: "roleIds", message: "unknown: r-1" }];
    const p = problem({ reason: "user.unknown_role", issues });
    expect(localizeProblem(p, "uz").message).toBe(
      "Kiritilgan maʼlumotlarda xato: roleIds maydonida mavjud boʻlmagan rollar koʻrsatilgan",
    );
  });

  it("uses the field-naming form for generic and untranslated validation errors", () => {
    const required = problem({ issues: [{ path: "items.0.amount", message: "is required" }] });
    expect(localizeProblem(required, "ru").message).toBe(
      "Ошибка проверки данных: поле items.0.amount обязательно для заполнения",
    );
    const weak = problem({
      reason: "auth.weak_password",
      issues: [{ path: "password", message: "is too weak" }],
    });
    expect(localizeProblem(weak, "uz").message).toBe(
      "Kiritilgan maʼlumotlarda xato: password maydoni notoʻgʻri toʻldirilgan",
    );
    expect(localizeProblem(problem({}), "ru").message).toBe("Ошибка проверки данных");
  });

  it("keeps the English message when there is no translation", () => {
    const p = problem({
      status: 422,
      code: "BUSINESS_RULE",
      reason: "finance.some_future_rule",
      message: "A rule without a translation yet",
    });
    expect(localizeProblem(p, "ru")).toEqual(p);
  });

  it("translates zod's and the services' field details, and leaves an unknown detail in English", () => {
    const p = problem({
      issues: [
        { path: "id", message: "must be a UUID" },
        { path: "name", message: "must have at most 200 characters" },
        { path: "currency", message: "must be the account's currency USD" },
        { path: "x", message: "a detail nobody translated" },
      ],
    });
    expect(localizeProblem(p, "ru").issues).toEqual([
      { path: "id", message: "должно быть UUID" },
      { path: "name", message: "количество символов должно быть не больше 200" },
      { path: "currency", message: "должно совпадать с валютой счёта (USD)" },
      { path: "x", message: "a detail nobody translated" },
    ]);
    expect(localizeProblem(p, "uz").issues?.[0]).toEqual({ path: "id", message: "UUID boʻlishi kerak" });
    expect(localizeProblem(p, "en")).toBe(p);
  });
});

describe("toHttpProblem and database failures", () => {
  const prismaError = (code: string, postgres?: string) =>
    new Prisma.PrismaClientKnownRequestError("failed", {
      code,
      clientVersion: "7",
      ...(postgres
        ? { meta: { driverAdapterError: { cause: { originalCode: postgres, kind: "postgres" } } } }
        : {}),
    });

  it("text PostgreSQL cannot store is the client's mistake: 400", () => {
    expect(toHttpProblem(prismaError("P2039", "22021"))).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      reason: "request.invalid_text",
    });
  });

  it("no transaction slot, no pooled connection, a deadlock or a serialization failure: 503 with Retry-After", () => {
    for (const error of [
      prismaError("P2028"),
      prismaError("P2024"),
      prismaError("P2034"),
      prismaError("P2010", "40P01"),
    ]) {
      expect(toHttpProblem(error)).toMatchObject({ status: 503, code: "UNAVAILABLE", retryAfterSeconds: 1 });
    }
  });

  it("any other database error stays a masked 500", () => {
    expect(toHttpProblem(prismaError("P2002"))).toMatchObject({
      status: 500,
      code: "INTERNAL",
      message: "Internal server error",
    });
  });
});
