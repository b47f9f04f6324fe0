import type { Locale } from "@hisob/kernel/schema";
import type { FormInstance } from "antd";
import { useState } from "react";
import type { ZodType } from "zod";
import { useLocale } from "./i18n";
import { RestError } from "./rest";
import { fieldName, schemaMessage, sentence } from "./schema-message";

export { schemaCheck } from "./schema-message";

/*
 * Forms over the server's own zod schemas (imported from the packages' browser-safe `./schema`
 * entries): a field is checked with exactly the rule the server applies, and its message is the one
 * the server would send, in the user's language, shown next to the field. Forms using these set
 * `noValidate`: the browser's own checks (English bubbles whatever the language) never run.
 *
 * Its own entry (`@hisob/ui/forms`), not the package index: the message catalogue comes with it.
 */

export type SchemaRuleOptions<V> = {
  /** An empty value ("" or nothing) passes: the field may be left out. */
  optional?: boolean;
  /** What the form holds → what the server receives (lines of a text area → a list). */
  toInput?: (value: V) => unknown;
};

/** An antd Form rule over a zod schema, its message in `locale`. */
export const schemaRule = <V = unknown>(
  schema: ZodType,
  locale: Locale,
  options: SchemaRuleOptions<V> = {},
) => ({
  validator: async (_: unknown, value: V) => {
    if (options.optional && (value === undefined || value === null || value === "")) return;
    const message = schemaMessage(schema, options.toInput ? options.toInput(value) : value, locale);
    if (message) throw new Error(message);
  },
});

/** `rule(schema, options)`: schemaRule in the current language. */
export const useSchemaRule = () => {
  const locale = useLocale();
  return <V = unknown>(schema: ZodType, options?: SchemaRuleOptions<V>) =>
    schemaRule(schema, locale, options);
};

/**
 * Puts a server error next to the field it names (what the user typed stays in the form); answers
 * the message when no field of the form matches, for a banner above the form.
 */
export const showServerError = (
  form: FormInstance,
  error: unknown,
  fields: readonly string[],
): string | null => {
  if (!(error instanceof RestError)) return error instanceof Error ? error.message : String(error);
  const named = error.issues.filter((issue) => fields.includes(issue.path.split(".")[0] ?? ""));
  if (named.length > 0) {
    form.setFields(
      named.map((issue) => ({
        name: fieldName(issue.path),
        errors: [sentence(issue.message)],
      })),
    );
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

/**
 * A form's save: checks every field (the messages stay beside them), then `work`; a server error goes
 * next to the field it names or, naming none of `fields`, into `banner`. What was typed stays.
 */
export const useFormSave = <V>(
  form: FormInstance,
  fields: readonly string[],
  work: (values: V) => Promise<void>,
) => {
  const [banner, setBanner] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = (await form.validateFields().catch(() => null)) as V | null;
    if (values === null) return;
    setSaving(true);
    setBanner(null);
    try {
      await work(values);
    } catch (caught) {
      setBanner(showServerError(form, caught, fields));
    } finally {
      setSaving(false);
    }
  };
  return { save, saving, banner };
};
