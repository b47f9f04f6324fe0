import {
  FIRST_DATE,
  LAST_DATE,
  ZCreateDocumentInput,
  ZCreateMoneyAccountInput,
  ZReverseInput,
  ZUpdateMovementInput,
} from "@hisob/finance/schema";
import { type ApiFailure, DATE_RANGE } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { describe, expect, it } from "vitest";
import { setFormLocale } from "./form-locale";
import { checkWith, onReasonField, showFailure } from "./forms";

/** A form's setError/setFocus and alert, recording what showFailure did to them. */
const recorder = () => {
  const errors: Record<string, string> = {};
  const focused: string[] = [];
  let alert: string | null | undefined;
  return {
    form: {
      setError: (name: string, error: { message?: string }) => {
        errors[name] = error.message ?? "";
      },
      setFocus: (name: string) => {
        focused.push(name);
      },
    },
    setFormError: (message: string | null) => {
      alert = message;
    },
    result: () => ({ errors, focused, alert }),
  };
};

const failure = (message: string, issues: ApiFailure["issues"] = []): ApiFailure => ({
  code: "BUSINESS_RULE",
  reason: "test",
  message,
  issues,
});
const FIELDS = ["accountId", "amount", "date", "comment"] as const;

const dropData = (errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([path, message]) => [path.replace(/^data\./, ""), message]));

describe("showFailure", () => {
  it.each([
    {
      what: "a refusal that names no field: the alert shows its message, no field error, focus stays",
      failure: failure('Insufficient balance on account "Dollars"'),
      toForm: undefined,
      shown: { errors: {}, focused: [], alert: 'Insufficient balance on account "Dollars"' },
    },
    {
      what: "field issues go next to their fields, the first in the form's order gets the focus, no alert",
      failure: failure("Invalid input", [
        { path: "comment", message: "Too long" },
        { path: "amount", message: "Must be positive" },
      ]),
      toForm: undefined,
      shown: {
        errors: { comment: "Too long", amount: "Must be positive" },
        focused: ["amount"],
        alert: null,
      },
    },
    {
      what: "an issue no field shows puts the message in the alert; paths map through toForm",
      failure: failure("Invalid input", [
        { path: "data.amount", message: "Must be positive" },
        { path: "secret", message: "Nobody shows this" },
      ]),
      toForm: dropData,
      shown: { errors: { amount: "Must be positive" }, focused: ["amount"], alert: "Invalid input" },
    },
  ])("$what", ({ failure, toForm, shown }) => {
    const r = recorder();
    showFailure(failure, r.form, FIELDS, r.setFormError, toForm);
    expect(r.result()).toEqual(shown);
  });
});

describe("onReasonField", () => {
  const overSettled = {
    ...failure("The amount is more than what is outstanding"),
    reason: "finance.debt_over_settlement",
  };
  const fields = { "finance.debt_over_settlement": "amount" };

  it("a business rule about one field puts its message next to that field, not in the alert", () => {
    const r = recorder();
    showFailure(onReasonField(overSettled, fields), r.form, FIELDS, r.setFormError);
    expect(r.result()).toEqual({
      errors: { amount: "The amount is more than what is outstanding" },
      focused: ["amount"],
      alert: null,
    });
  });

  it("leaves other reasons, and failures that already name their fields, as they are", () => {
    const other = { ...failure("Insufficient balance"), reason: "finance.insufficient_funds" };
    expect(onReasonField(other, fields)).toBe(other);
    const named = { ...overSettled, issues: [{ path: "comment", message: "Too long" }] };
    expect(onReasonField(named, fields)).toBe(named);
  });
});

describe("checkWith: the server's schema, in the server's words and the user's language", () => {
  const tooLong = {
    accountId: "01900000-0000-7000-8000-000000000000",
    amount: "100",
    date: "2026-11-22",
    comment: "x".repeat(1001),
  };
  it.each([
    ["en", /^Must have at most 1000 characters$/],
    ["ru", /^Количество символов должно быть не больше 1000$/],
    // Whichever apostrophe letter the Uzbek catalogue settles on (ʻ or ‘).
    ["uz", /^Ko.pi bilan 1000 ta belgidan iborat bo.lishi kerak$/],
  ] as const)("a too-long comment in %s: our message, never the validator's own words", (locale, expected) => {
    setFormLocale(locale);
    const checked = checkWith(ZCreateDocumentInput, tooLong, () => undefined);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? null : checked.errors).toEqual({ comment: expect.stringMatching(expected) });
    setFormLocale("en");
  });
});

describe("the forms' limits come from the server's schemas", () => {
  it("maxLength of the texts the accountant types", () => {
    expect(maxLengthOf(ZCreateDocumentInput.shape.comment)).toBe(1000);
    expect(maxLengthOf(ZUpdateMovementInput.shape.comment)).toBe(1000);
    expect(maxLengthOf(ZReverseInput.shape.reason)).toBe(500);
    expect(maxLengthOf(ZCreateMoneyAccountInput.shape.name)).toBe(100);
  });

  it("the date fields' range is the books' (finance's FIRST_DATE … LAST_DATE)", () => {
    expect(DATE_RANGE).toEqual({ first: FIRST_DATE, last: LAST_DATE });
  });
});
