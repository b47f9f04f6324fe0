import { toProblem } from "@hisob/db";
import {
  AppError,
  ERROR_STATUS,
  type ErrorCode,
  type FieldIssue,
  type Locale,
  type Problem,
  problemOf,
} from "@hisob/kernel";
import { GraphQLError } from "graphql";
import { type OwnRefusal, ownRefusal } from "./refusals";

/*
 * The one GraphQL error mapping. A processed request answers 200 with
 * `errors: [{ message, locations, path, extensions: { code, reason, localizedMessage, requestId, issues? } }]`:
 * `code` is one of the platform's closed set (the spec's NOT_FOUND, UNAUTHENTICATED, VALIDATION_ERROR,
 * FORBIDDEN, plus CONFLICT, BUSINESS_RULE, RATE_LIMITED, UNAVAILABLE, INTERNAL), `message` is the spec's
 * English text ("Unauthorized", "Forbidden", "validation error: <field> is required") and
 * `localizedMessage` the same in the caller's language. Anything unexpected is INTERNAL with a masked
 * message; the host logs it with the request id.
 */

/** The host's wording of a problem in a language (the localisation REST uses too). */
export type DescribeError = (problem: Problem, locale: Locale) => { message: string; issues?: FieldIssue[] };

export type ErrorMappingOptions = {
  describe: DescribeError;
  /** Called for failures that are our bugs (masked for the client). */
  logUnexpected: (error: unknown, requestId: string) => void;
};

export type MappedExtensions = {
  code: ErrorCode;
  reason: string;
  localizedMessage: string;
  requestId: string;
  issues?: FieldIssue[];
  retryAfterSeconds?: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isGraphQLError = (error: unknown): error is GraphQLError => error instanceof GraphQLError;

/**
 * Maps one execution error. GraphQL's own errors that carry a code already (argument coercion of our
 * scalars, limits) keep it; other GraphQL errors without an original error are input problems
 * (VALIDATION_ERROR); everything else goes through the AppError mapping.
 */
export const mapExecutionError = (
  error: GraphQLError,
  context: { locale: Locale; requestId: string },
  options: ErrorMappingOptions,
): GraphQLError => {
  const original = error.originalError;
  let problem: Problem;
  if (original === undefined || original === null || isGraphQLError(original)) {
    const source = isGraphQLError(original) ? original : error;
    const code = source.extensions?.code;
    // Only our closed set: graphql-yoga's own codes (BAD_REQUEST for an operation name the document
    // lacks) are input problems like the rest.
    if (typeof code === "string" && Object.hasOwn(ERROR_STATUS, code) && code !== "VALIDATION_ERROR") {
      problem = problemOf(
        new AppError(code as ErrorCode, {
          reason: typeof source.extensions.reason === "string" ? source.extensions.reason : undefined,
          message: source.message,
        }),
      );
    } else if (ownRefusal(source.message)) {
      const own = ownRefusal(source.message) as OwnRefusal;
      problem = problemOf(
        new AppError("VALIDATION_ERROR", {
          reason: own.reason,
          message: own.message,
          ...(own.params ? { params: own.params } : {}),
        }),
      );
    } else {
      const input = inputProblem(error.message) ?? inputProblem(source.message);
      const issues = input?.issues ?? source.extensions?.issues;
      problem = problemOf(
        new AppError("VALIDATION_ERROR", {
          reason:
            typeof source.extensions?.reason === "string" ? source.extensions.reason : "validation.invalid",
          message: input?.message ?? prefixed(source.message),
          params: {
            ...(isRecord(source.extensions?.params) ? source.extensions.params : {}),
            ...(Array.isArray(issues) ? { issues } : {}),
          },
        }),
      );
    }
  } else {
    // What a resolver threw: the one transport-agnostic mapping.
    problem = toProblem(original);
  }
  if (problem.code === "INTERNAL") options.logUnexpected(original ?? error, context.requestId);
  const described = options.describe(problem, context.locale);
  const issues = problem.code === "VALIDATION_ERROR" ? described.issues : undefined;
  const extensions: MappedExtensions = {
    code: problem.code,
    reason: problem.reason,
    localizedMessage: described.message,
    requestId: context.requestId,
    ...(issues ? { issues } : {}),
    ...(problem.retryAfterSeconds !== undefined ? { retryAfterSeconds: problem.retryAfterSeconds } : {}),
  };
  return new GraphQLError(problem.message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions,
  });
};

const MISSING_ARGUMENT =
  /^Field "[^"]+" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\.$/;
const MISSING_VARIABLE = /^Variable "\$([^"]+)" of required type "[^"]+" was not provided\.$/;
const INVALID_VARIABLE = /^Variable "\$([^"]+)" got invalid value/;

/**
 * GraphQL's own wording of input problems in the spec's form: a missing argument or variable is
 * "validation error: <name> is required"; a wrongly typed variable "validation error: <name> is
 * invalid" (GraphQL's text stays in `issues`).
 */
export const inputProblem = (message: string): { message: string; issues: FieldIssue[] } | null => {
  const missing = MISSING_ARGUMENT.exec(message) ?? MISSING_VARIABLE.exec(message);
  if (missing?.[1]) {
    return {
      message: `validation error: ${missing[1]} is required`,
      issues: [{ path: missing[1], message: "is required" }],
    };
  }
  const invalid = INVALID_VARIABLE.exec(message);
  if (invalid?.[1]) {
    return { message: `validation error: ${invalid[1]} is invalid`, issues: [{ path: invalid[1], message }] };
  }
  return null;
};

const prefixed = (message: string) =>
  message.startsWith("validation error") ? message : `validation error: ${message}`;

/** Errors raised before execution (parse, validation, limits): all VALIDATION_ERROR with a reason. */
export const documentError = (error: GraphQLError, reason: string): GraphQLError => {
  const input = inputProblem(error.message);
  const own = input ? null : ownRefusal(error.message);
  return new GraphQLError(input?.message ?? own?.message ?? prefixed(error.message), {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    extensions: {
      code: "VALIDATION_ERROR",
      reason: input ? "validation.invalid" : (own?.reason ?? reason),
      ...(input ? { issues: input.issues } : {}),
      ...(own?.params ? { params: own.params } : {}),
    },
  });
};
