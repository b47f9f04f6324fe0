import { describe, expect, it } from "vitest";
import { type HttpProblem, localizeProblem } from "./errors";

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

  it("translates by reason and keeps code, reason and issues", () => {
    const issues = [{ path: "currentPassword", message: "is wrong" }];
    const p = problem({
      reason: "account.wrong_current_password",
      message: "validation error: currentPassword is wrong",
      issues,
    });
    expect(localizeProblem(p, "ru")).toEqual({
      ...p,
      message: "Ошибка проверки данных: текущий пароль указан неверно",
    });
  });

  it("names the field of a reason that takes one", () => {
    const issues = [{ path: "roleIds", message: "unknown: r-1" }];
    const p = problem({ reason: "user.unknown_role", issues });
    expect(localizeProblem(p, "uz").message).toBe(
      "Kiritilgan ma’lumotlarda xato: roleIds maydonida mavjud bo‘lmagan rollar ko‘rsatilgan",
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
      "Kiritilgan ma’lumotlarda xato: password maydoni noto‘g‘ri to‘ldirilgan",
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
    expect(localizeProblem(p, "ru")).toBe(p);
  });
});
