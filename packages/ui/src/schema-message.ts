import { issueMessage } from "@hisob/i18n";
import { type Locale, toFieldIssues } from "@hisob/kernel/schema";
import type { ZodType } from "zod";

/** "must not be empty" → "Must not be empty": a message shown on its own line under a field. */
export const sentence = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/**
 * The first problem `schema` finds in `value`, as the server words it ("must not be empty"), in
 * `locale` and as a sentence; null when the value passes.
 */
export const schemaMessage = (schema: ZodType, value: unknown, locale: Locale): string | null => {
  // reportInput: a missing value reads "is required", as the server says it.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return null;
  const [issue] = toFieldIssues(result.error.issues);
  return sentence(issueMessage(locale, issue?.message ?? "is invalid"));
};

/**
 * Every problem `schema` finds in `value`, each as the server words it, in `locale` and as a sentence
 * ("Must have at most 1000 characters"); the parsed value when there is none.
 */
export const schemaCheck = <T>(
  schema: ZodType<T>,
  value: unknown,
  locale: Locale,
): { ok: true; data: T } | { ok: false; issues: { path: string; message: string }[] } => {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, data: result.data };
  return {
    ok: false,
    issues: toFieldIssues(result.error.issues).map((issue) => ({
      path: issue.path,
      message: sentence(issueMessage(locale, issue.message)),
    })),
  };
};

/** An issue's path as a form field's name: `admin.email` → ["admin", "email"], `roleIds.2` → ["roleIds"]. */
export const fieldName = (path: string): string[] => {
  const parts = path.split(".").filter(Boolean);
  const index = parts.findIndex((part) => /^\d+$/.test(part));
  return index === -1 ? parts : parts.slice(0, index);
};
