import type { ApiFailure } from "@hisob/ui";
import { describe, expect, it } from "vitest";
import { showFailure } from "./forms";

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
