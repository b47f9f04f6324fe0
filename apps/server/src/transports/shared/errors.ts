import { toProblem } from "@hisob/db";
import { errorMessage, issueMessage, t } from "@hisob/i18n";
import {
  AppError,
  type DateParam,
  ERROR_STATUS,
  type ErrorCode,
  type FieldIssue,
  isAppError,
  isDateParam,
  type Locale,
  type Problem,
  toFieldIssues,
  validationError,
} from "@hisob/kernel";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { App } from "../../app";
import { requestLocale } from "./locale";

/*
 * The REST error mapping. What a failure is comes from the transport-agnostic `toProblem` (packages/db);
 * here only Fastify's own failures are recognised and each code gets its status. Every failure leaves as
 * `{ error: { code, reason, message, requestId, issues? } }` with the status of its code.
 * `message` and the issues' messages are in the caller's language (see `localizeProblem`); `code`,
 * `reason` and the issues' paths never change.
 */

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ZFieldIssue = z.object({ path: z.string(), message: z.string() });

export const ZErrorResponse = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      reason: z.string().describe("Stable machine key, also the i18n key"),
      message: z.string(),
      requestId: z.string(),
      issues: z.array(ZFieldIssue).optional().describe("Field problems; only for VALIDATION_ERROR"),
    }),
  })
  .describe("Error envelope");
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

/** What a failure turns into, before the request id is attached (`retryAfterSeconds` is sent as Retry-After). */
export type HttpProblem = Problem & { status: number };

/** The HTTP status of each code: an exhaustive switch, so a new code cannot go unmapped. */
export const httpStatusOf = (code: ErrorCode): number => {
  switch (code) {
    case "VALIDATION_ERROR":
      return 400;
    case "UNAUTHENTICATED":
      return 401;
    case "FORBIDDEN":
      return 403;
    case "NOT_FOUND":
      return 404;
    case "CONFLICT":
      return 409;
    case "BUSINESS_RULE":
      return 422;
    case "RATE_LIMITED":
      return 429;
    case "INTERNAL":
      return 500;
    case "UNAVAILABLE":
      return 503;
    default: {
      const unmapped: never = code;
      throw new Error(`No HTTP status for ${String(unmapped)}`);
    }
  }
};

/** Fastify's own errors whose text we replace with a stable reason and a message we control. */
const FASTIFY_ERRORS: Record<string, Omit<HttpProblem, "issues">> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: "VALIDATION_ERROR",
    reason: "request.invalid_json",
    message: "validation error: request body is not valid JSON",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: "VALIDATION_ERROR",
    reason: "request.empty_body",
    message: "validation error: request body is empty",
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: "VALIDATION_ERROR",
    reason: "request.unsupported_media_type",
    message: "Unsupported media type",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: "VALIDATION_ERROR",
    reason: "request.too_large",
    message: "Request body is too large",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: "VALIDATION_ERROR",
    reason: "request.invalid_content_length",
    message: "Request body size did not match Content-Length",
  },
  FST_ERR_BAD_URL: {
    status: 400,
    code: "VALIDATION_ERROR",
    reason: "request.bad_url",
    message: "Invalid URL",
  },
  FST_ERR_NOT_FOUND: {
    status: 404,
    code: "NOT_FOUND",
    reason: "route.not_found",
    message: "Route not found",
  },
};

/** The closest code for a 4xx status we did not produce ourselves. */
const CODE_BY_STATUS: Partial<Record<number, { code: ErrorCode; reason: string }>> = {
  401: { code: "UNAUTHENTICATED", reason: "auth.unauthenticated" },
  403: { code: "FORBIDDEN", reason: "auth.forbidden" },
  404: { code: "NOT_FOUND", reason: "not_found" },
  409: { code: "CONFLICT", reason: "conflict" },
  429: { code: "RATE_LIMITED", reason: "rate_limited" },
};

type ErrorLike = { code?: unknown; statusCode?: unknown; message?: unknown; validation?: unknown };
const asErrorLike = (error: unknown): ErrorLike =>
  typeof error === "object" && error !== null ? (error as ErrorLike) : {};

/** Fastify's name for the request part that failed, as the client knows it. */
const CONTEXT_NAMES = new Map([
  ["querystring", "query"],
  ["body", "body"],
  ["params", "params"],
  ["headers", "headers"],
]);

const ZValidationEntry = z.object({
  instancePath: z.string(),
  keyword: z.string(),
  message: z.string().optional(),
  /** The rest of zod's issue (fastify-type-provider-zod keeps it here). */
  params: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Field issues from a Fastify validation error: fastify-type-provider-zod splits each zod issue into
 * keyword, path, message and params; put it back together and let the kernel's `toFieldIssues`
 * word it, so the REST edge and the services say the same thing ("must be a date (YYYY-MM-DD)",
 * "is not allowed" per unknown key, "is required").
 */
const toFieldIssuesFromValidation = (entries: unknown[], context: unknown): FieldIssue[] =>
  entries.flatMap((entry) => {
    const parsed = ZValidationEntry.safeParse(entry);
    const fallbackPath = (typeof context === "string" && CONTEXT_NAMES.get(context)) || "input";
    if (!parsed.success) return [{ path: fallbackPath, message: "is invalid" }];
    const { instancePath, keyword, message = "is invalid", params = {} } = parsed.data;
    const segments = instancePath.split("/").filter(Boolean);
    // Fastify hands a route `null` when the request has no body at all: that body is missing too.
    if (segments.length === 0 && keyword === "invalid_type" && /received null/.test(message)) {
      return [{ path: fallbackPath, message: "is required" }];
    }
    const issue = { ...params, code: keyword, path: segments, message } as unknown as z.core.$ZodIssue;
    return toFieldIssues([issue]).map((field) => ({ ...field, path: field.path || fallbackPath }));
  });

/** Reasons whose HTTP status is more precise than their code's (the code stays the same). */
const STATUS_BY_REASON: Record<string, number> = { "upload.too_large": 413 };

/** A transport-agnostic problem with its REST status. */
export const withStatus = (problem: Problem): HttpProblem => ({
  ...problem,
  status: STATUS_BY_REASON[problem.reason] ?? httpStatusOf(problem.code),
});

/** Maps anything thrown to the problem we report. Pure: no reply, no logging. */
export const toHttpProblem = (error: unknown): HttpProblem => {
  if (isAppError(error)) return withStatus(toProblem(error));

  const like = asErrorLike(error);
  if (Array.isArray(like.validation) && like.validation.length > 0) {
    const context = (error as { validationContext?: unknown }).validationContext;
    const issues = toFieldIssuesFromValidation(like.validation, context);
    const appError = validationError(issues);
    return {
      status: 400,
      code: "VALIDATION_ERROR",
      reason: appError.reason,
      message: appError.message,
      issues,
    };
  }

  // hasOwn: an error whose code is "constructor" must not match Object.prototype.
  const known =
    typeof like.code === "string" && Object.hasOwn(FASTIFY_ERRORS, like.code)
      ? FASTIFY_ERRORS[like.code]
      : undefined;
  if (known) return known;

  // Other client errors raised by Fastify or a plugin: keep their status and (client-facing) message.
  const status = like.statusCode;
  if (typeof status === "number" && Number.isInteger(status) && status >= 400 && status < 500) {
    const mapped = CODE_BY_STATUS[status] ?? { code: "VALIDATION_ERROR", reason: "request.invalid" };
    const message = typeof like.message === "string" && like.message !== "" ? like.message : "Bad request";
    return { status, ...mapped, message };
  }

  // Database failures, zod errors that escaped, and bugs — including response-serialization
  // failures (FST_ERR_RESPONSE_SERIALIZATION), ours and not the client's: INTERNAL, masked.
  return withStatus(toProblem(error));
};

/**
 * The problem in `locale`: its message translated by `reason`, and each field issue's message by
 * its text (see `issueMessage`). A VALIDATION_ERROR without a reason of its own keeps the form that
 * names the first field ("validation error: email is required"). English keeps the original
 * message: it is the source text and may carry detail (values, names) a translation by reason
 * cannot. Without a translation the English text stays.
 */
export const localizeProblem = <P extends Problem>(problem: P, locale: Locale): P => {
  const days = daysOf(problem);
  if (locale === "en" && Object.keys(days).length === 0) return problem;
  // A day the problem carries as data is written as the language writes dates, English's too.
  const message =
    locale === "en"
      ? (errorMessage(locale, problem.reason, problem.params) ?? problem.message)
      : localizeMessage(problem, locale);
  if (!problem.issues) return { ...problem, message };
  const issues = problem.issues.map((issue) => ({
    ...issue,
    message: issueMessage(locale, issue.message, days),
  }));
  return { ...problem, message, issues };
};

/** The days a problem names as data (`{ isoDate }`), by their placeholder's name. */
const daysOf = (problem: Problem): Record<string, DateParam> =>
  Object.fromEntries(
    Object.entries(problem.params ?? {}).filter(([, value]) => isDateParam(value)),
  ) as Record<string, DateParam>;

const localizeMessage = (problem: Problem, locale: Locale): string => {
  const first = problem.issues?.[0];
  const field = first?.path || "input";
  const byReason = errorMessage(locale, problem.reason, { ...problem.params, field });
  const isGenericValidation =
    problem.code === "VALIDATION_ERROR" &&
    (problem.reason === "validation.invalid" || byReason === undefined);
  if (first && isGenericValidation) {
    // The top message says required or invalid; the detail is the (translated) issue itself.
    const kind =
      first.message === "is required" ? "validation.problem.required" : "validation.problem.invalid";
    return t(locale, "validation.field", { field, problem: t(locale, kind) });
  }
  return byReason ?? problem.message;
};

export const toErrorResponse = (problem: HttpProblem, requestId: string): TErrorResponse => ({
  error: {
    code: problem.code,
    reason: problem.reason,
    message: problem.message,
    requestId,
    ...(problem.issues ? { issues: problem.issues } : {}),
  },
});

/** Sends the envelope for `error`; also the `frameworkErrors` handler for errors raised before routing. */
export const sendError = (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
  const locale = requestLocale(request);
  const problem = localizeProblem(toHttpProblem(error), locale);
  if (problem.status >= 500) {
    request.log.error({ err: error }, "request failed");
  } else {
    request.log.info(
      { code: problem.code, reason: problem.reason, status: problem.status },
      "request rejected",
    );
  }
  if (problem.retryAfterSeconds !== undefined) reply.header("retry-after", String(problem.retryAfterSeconds));
  // Pre-serialized: a route's response schema for this status must not reshape or reject the envelope.
  return reply
    .code(problem.status)
    .header("x-request-id", request.id)
    .header("content-language", locale)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(toErrorResponse(problem, request.id)));
};

export const registerErrorHandlers = (app: App): void => {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      new AppError("NOT_FOUND", { reason: "route.not_found", message: "Route not found" }),
      request,
      reply,
    ),
  );
};
