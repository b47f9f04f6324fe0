import type { FormInstance } from "antd";
import type { ZodType } from "zod";
import { ApiError } from "./api";

/**
 * An antd Form rule over one of the server's own zod schemas (from a browser-safe `./schema` entry):
 * the field is checked inline with exactly the rule the server applies.
 */
export const zodRule = (schema: ZodType, optional = false) => ({
  validator: async (_: unknown, value: unknown) => {
    if (optional && (value === undefined || value === "")) return;
    const result = schema.safeParse(value);
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? "invalid");
  },
});

/**
 * Puts a server error next to the field it names (what the user typed stays in the form); answers
 * the message when no field of the form matches, for a banner.
 */
export const showServerError = (form: FormInstance, error: unknown, fields: string[]): string | null => {
  if (!(error instanceof ApiError)) return String(error);
  const named = error.issues.filter((issue) => fields.includes(issue.path.split(".")[0] ?? ""));
  if (named.length > 0) {
    form.setFields(named.map((issue) => ({ name: issue.path.split(".")[0] ?? "", errors: [issue.message] })));
    return null;
  }
  // Conflicts name their field in the reason (user.email_taken, role.name_taken…).
  const taken = /\.(\w+)_taken$/.exec(error.reason)?.[1];
  if (taken && fields.includes(taken)) {
    form.setFields([{ name: taken, errors: [error.message] }]);
    return null;
  }
  return error.message;
};
