import { ZodError } from "zod";
import {
  type AppError,
  type DateParam,
  type ErrorCode,
  type FieldIssue,
  isAppError,
  isDateParam,
  isMoneyParam,
  isQuoteParam,
  type MoneyParam,
  type QuoteParam,
  validationError,
} from "./errors";
import { toFieldIssues } from "./validation";

/**
 * What a caller may learn of a failure, whatever the transport: one of the closed codes, its stable
 * reason (also the i18n key), an English message, and field issues or a retry delay when they apply.
 * Each transport maps `code` to its own wire format (REST status, tRPC code, GraphQL extension, OIDC
 * error) with an exhaustive switch; none of them decides what a failure is.
 */
export type Problem = {
  code: ErrorCode;
  reason: string;
  message: string;
  issues?: FieldIssue[];
  /** Seconds a caller should wait before trying again (RATE_LIMITED, UNAVAILABLE). */
  retryAfterSeconds?: number;
  /** Values the localized message may name (amounts stay data until a language formats them); never sent. */
  params?: Record<string, MessageParam>;
};

/** A value a message names: text, a number, or data a language formats (an amount, a quote, a day). */
export type MessageParam = string | number | MoneyParam | QuoteParam | DateParam;

/** The error's params a message can name: text, numbers, amounts, quotes and days. */
const messageParams = (params: Record<string, unknown>): Record<string, MessageParam> =>
  Object.fromEntries(
    Object.entries(params).filter(
      ([, value]) =>
        typeof value === "string" ||
        typeof value === "number" ||
        isMoneyParam(value) ||
        isQuoteParam(value) ||
        isDateParam(value),
    ),
  ) as Record<string, MessageParam>;

/** Every unexpected failure: a bug whose details stay in the log. */
export const INTERNAL_PROBLEM: Problem = {
  code: "INTERNAL",
  reason: "internal",
  message: "Internal server error",
};

const isFieldIssue = (value: unknown): value is FieldIssue =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as FieldIssue).path === "string" &&
  typeof (value as FieldIssue).message === "string";

/** An AppError as its problem; INTERNAL is always masked (its message may carry details for logs only). */
export const problemOf = (error: AppError): Problem => {
  if (error.code === "INTERNAL") return INTERNAL_PROBLEM;
  const { issues, retryAfterSeconds } = error.params;
  const params = messageParams(error.params);
  return {
    code: error.code,
    reason: error.reason,
    message: error.message,
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...(error.code === "VALIDATION_ERROR" && Array.isArray(issues) && issues.every(isFieldIssue)
      ? { issues }
      : {}),
    ...(typeof retryAfterSeconds === "number" ? { retryAfterSeconds } : {}),
  };
};

/** Our own failures (an AppError, or a zod parse that escaped `parseInput`) as an AppError; null otherwise. */
export const appErrorOf = (error: unknown): AppError | null => {
  if (isAppError(error)) return error;
  if (error instanceof ZodError) return validationError(toFieldIssues(error.issues));
  return null;
};
