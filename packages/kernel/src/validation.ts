import type { z } from "zod";
import { AppError, type FieldIssue, validationError } from "./errors";

/** Turns zod issues into our field issues: dotted path + message ("is required" for missing values). */
export const toFieldIssues = (issues: readonly z.core.$ZodIssue[]): FieldIssue[] =>
  issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
    return { path, message: missing ? "is required" : issue.message };
  });

/** Parses `input` with `schema`, throwing a VALIDATION_ERROR AppError on failure. */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(toFieldIssues(result.error.issues));
  return result.data;
};

export { AppError };
