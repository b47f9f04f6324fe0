import { newId } from "@hisob/kernel/schema";
import type { ApiFailure } from "@hisob/ui";
import { schemaCheck } from "@hisob/ui/forms";
import { useRef, useState } from "react";
import type { FieldValues, Path, UseFormReturn, UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { formLocale } from "./form-locale";

/*
 * Forms check their input with the server's own zod schema before posting (the same rules the server
 * applies), and the server's answer is put back next to the field it names. The form keeps every value.
 */

export type Checked<T> = { ok: true; input: T } | { ok: false; errors: Record<string, string> };

/**
 * Parses `input` with the server's schema; each failing path gets `messageFor(path)` (our own,
 * translated text for the fields a person types) or the message the server would send, in the
 * user's language ("Must have at most 1000 characters"), never the validator's own words.
 */
export const checkWith = <S extends z.ZodType>(
  schema: S,
  input: unknown,
  messageFor: (path: string) => string | undefined,
): Checked<z.output<S>> => {
  const result = schemaCheck(schema, input, formLocale());
  if (result.ok) return { ok: true, input: result.data as z.output<S> };
  const errors: Record<string, string> = {};
  for (const issue of result.issues) {
    const path = issue.path || "form";
    errors[path] ??= messageFor(path) ?? issue.message;
  }
  return { ok: false, errors };
};

/** Puts field errors on the form; returns the ones no field of `fields` shows (for the form's alert). */
export const showFieldErrors = <V extends FieldValues>(
  setError: UseFormSetError<V>,
  fields: readonly string[],
  errors: Record<string, string>,
): string[] => {
  const rest: string[] = [];
  for (const [path, message] of Object.entries(errors)) {
    if (fields.includes(path)) setError(path as Path<V>, { type: "server", message });
    else rest.push(message);
  }
  return rest;
};

/** A failure from the server → its field issues as errors (message in the user's language). */
export const failureErrors = (failure: ApiFailure): Record<string, string> =>
  Object.fromEntries(failure.issues.map((issue) => [issue.path, issue.message]));

/**
 * A business-rule refusal that is about one field (the server names no issue for it, only its reason,
 * e.g. a settlement over what is outstanding): its message goes next to that field, like a check's.
 */
export const onReasonField = (failure: ApiFailure, fieldOf: Record<string, string>): ApiFailure => {
  const field = fieldOf[failure.reason];
  return field && failure.issues.length === 0
    ? { ...failure, issues: [{ path: field, message: failure.message }] }
    : failure;
};

/**
 * The server refused a save: its field issues go next to the fields of `fields` that show them (the
 * first of those, in `fields`' order, gets the focus; otherwise focus stays where it was, in the field
 * Enter was pressed in), and the form's alert shows its message when an issue has no field here or it
 * named none. `toForm` maps the server's paths to the form's where they differ. The form keeps every value.
 */
export const showFailure = <V extends FieldValues>(
  failure: ApiFailure,
  form: Pick<UseFormReturn<V>, "setError" | "setFocus">,
  fields: readonly string[],
  setFormError: (message: string | null) => void,
  toForm: (errors: Record<string, string>) => Record<string, string> = (errors) => errors,
): void => {
  const errors = toForm(failureErrors(failure));
  const rest = showFieldErrors(form.setError, fields, errors);
  setFormError(rest.length || failure.issues.length === 0 ? failure.message : null);
  const first = fields.find((field) => field in errors);
  if (first) form.setFocus(first as Path<V>);
};

/**
 * One submission per intent: `run` does nothing while the last run is still going — a second click
 * or Enter arriving before the first one's re-render included (`busy` disables the button, but only
 * from the next render on). `key` is the form's idempotency key (docs/decisions/0018-one-posting-per-intent.md):
 * the same for every retry of this intent, so the server posts it at most once even when an answer is
 * lost on the way back; `renew` starts a new intent (after a posting, for the next entry).
 */
export const useSubmitOnce = () => {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(newId);
  const run = async (work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { run, busy, key, renew: () => setKey(newId()) };
};
