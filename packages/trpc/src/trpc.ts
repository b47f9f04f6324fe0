import type { CoreServices } from "@hisob/core";
import type { CrmServices } from "@hisob/crm";
import { databaseUnavailable, toProblem } from "@hisob/db";
import type { FinanceServices } from "@hisob/finance";
import type { HrmServices } from "@hisob/hrm";
import {
  AppError,
  ERROR_STATUS,
  type ErrorCode,
  type FieldIssue,
  type Problem,
  problemOf,
  type TenantContext,
} from "@hisob/kernel";
import type { ProjectsServices } from "@hisob/projects";
import type { WarehouseServices } from "@hisob/warehouse";
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";

/** Every module's services: the same ones REST and GraphQL call. */
export type ApiServices = CoreServices & {
  finance: FinanceServices;
  crm: CrmServices;
  warehouse: WarehouseServices;
  projects: ProjectsServices;
  hrm: HrmServices;
};

/** What the host (the Fastify server) tells us about an error, with the message in the caller's language. */
export type DescribedError = {
  status: number;
  code: ErrorCode;
  reason: string;
  message: string;
  issues?: FieldIssue[];
};

export type ApiContext = {
  /** The caller, resolved from a session cookie or a first-party bearer token; null without valid credentials. */
  caller: TenantContext | null;
  /** A cookie-authenticated change that is not a JSON request (the REST CSRF rule): refused. */
  csrfRefused: boolean;
  requestId: string;
  services: ApiServices;
  /** The host's wording of a problem, shared with REST: status, code, reason, localized message. */
  describe: (problem: Problem) => DescribedError;
  /** Procedure calls in this HTTP request (a batch holds several); over MAX_BATCH_CALLS every one is refused. */
  calls: number;
  /** Set when the caller is past the host's rate limit (it counted this request): every call is refused. */
  rateLimited: { retryAfterSeconds: number } | null;
  /** The host could not reach the database to resolve the caller: every call is refused (503). */
  callerUnavailable?: boolean;
  /**
   * Runs a call with its caller. The host may have taken the caller from its cache, still to be
   * confirmed by the database: a query (`rerunnable`) may then run a second time with the caller
   * resolved afresh, a mutation gets its caller confirmed before it runs. Without it, `caller` is used.
   */
  withCaller?: <T>(rerunnable: boolean, run: (caller: TenantContext | null) => Promise<T>) => Promise<T>;
  /** Why the host refused the caller's bearer token (decision 0038): its reason and message replace the generic 401's. */
  callerRefused?: { reason: string; message: string; wwwAuthenticate: string } | null;
};

/**
 * The most calls one request may batch (`/trpc/a,b,c?batch=1`): a larger batch is refused whole,
 * each call answering 400 `trpc.batch_too_large`, before any input is read. tRPC's own
 * `maxBatchSize` refuses earlier but before the context exists, so without our reason, request id
 * or language (docs/decisions/0004-api-rate-limits.md).
 */
export const MAX_BATCH_CALLS = 10;

/** tRPC's code for each of ours: an exhaustive switch, so a new code cannot go unmapped. */
const trpcCodeOf = (code: ErrorCode): TRPC_ERROR_CODE_KEY => {
  switch (code) {
    case "VALIDATION_ERROR":
      return "BAD_REQUEST";
    case "UNAUTHENTICATED":
      return "UNAUTHORIZED";
    case "FORBIDDEN":
      return "FORBIDDEN";
    case "NOT_FOUND":
      return "NOT_FOUND";
    case "CONFLICT":
      return "CONFLICT";
    case "BUSINESS_RULE":
      return "UNPROCESSABLE_CONTENT";
    case "RATE_LIMITED":
      return "TOO_MANY_REQUESTS";
    case "INTERNAL":
      return "INTERNAL_SERVER_ERROR";
    case "UNAVAILABLE":
      return "SERVICE_UNAVAILABLE";
    default: {
      const unmapped: never = code;
      throw new Error(`No tRPC code for ${String(unmapped)}`);
    }
  }
};

/**
 * Anything a procedure or tRPC itself threw, as a problem: what a procedure threw goes through the
 * one mapping (`toProblem`); tRPC's own failures (no such procedure, unreadable request) are worded here,
 * and a bug is INTERNAL.
 */
const problemOfTrpc = (error: TRPCError): Problem => {
  // tRPC wraps what it could not read (a SyntaxError for broken JSON) as a cause too: only a cause
  // the mapping knows decides; otherwise tRPC's own code says what happened.
  const fromCause = error.cause === undefined ? null : toProblem(error.cause);
  if (fromCause && fromCause.code !== "INTERNAL") return fromCause;
  switch (error.code) {
    case "PARSE_ERROR":
    case "BAD_REQUEST":
      return problemOf(
        new AppError("VALIDATION_ERROR", { reason: "request.invalid", message: error.message }),
      );
    case "NOT_FOUND":
      return problemOf(
        new AppError("NOT_FOUND", { reason: "route.not_found", message: "No such procedure" }),
      );
    case "METHOD_NOT_SUPPORTED":
      return problemOf(
        new AppError("VALIDATION_ERROR", { reason: "request.invalid", message: error.message }),
      );
    case "PAYLOAD_TOO_LARGE":
      return problemOf(
        new AppError("VALIDATION_ERROR", {
          reason: "request.too_large",
          message: "Request body is too large",
        }),
      );
    case "UNSUPPORTED_MEDIA_TYPE":
      return problemOf(
        new AppError("VALIDATION_ERROR", {
          reason: "request.unsupported_media_type",
          message: "Unsupported media type",
        }),
      );
    case "UNAUTHORIZED":
      return problemOf(new AppError("UNAUTHENTICATED"));
    default:
      return problemOf(new AppError("INTERNAL"));
  }
};

export const t = initTRPC.context<ApiContext>().create({
  /**
   * Errors leave as tRPC errors whose `data` carries what REST's envelope carries: our code, the
   * stable reason, field issues and the request id; the message is in the caller's language.
   */
  errorFormatter: ({ shape, error, ctx }) => {
    const problem = problemOfTrpc(error);
    const described: DescribedError = ctx
      ? ctx.describe(problem)
      : {
          status: ERROR_STATUS[problem.code],
          code: problem.code,
          reason: problem.reason,
          message: problem.message,
        };
    return {
      ...shape,
      message: described.message,
      data: {
        ...shape.data,
        code: trpcCodeOf(described.code),
        httpStatus: described.status,
        stack: undefined,
        appCode: described.code,
        reason: described.reason,
        requestId: ctx?.requestId ?? "",
        ...(described.issues ? { issues: described.issues } : {}),
      },
    };
  },
});

export const router = t.router;

/** Services throw AppError; tRPC hears the matching code, so HTTP statuses are REST's. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    // The HTTP status follows the tRPC code: give every known failure its own (a bug stays 500).
    const cause = result.error.cause;
    const problem = cause === undefined ? null : toProblem(cause);
    if (problem && problem.code !== "INTERNAL") {
      throw new TRPCError({ code: trpcCodeOf(problem.code), message: problem.message, cause });
    }
  }
  return result;
});

/** Every procedure needs a signed-in caller; changes over a cookie session must be JSON (CSRF). */
export const authed = t.procedure.use(mapErrors).use(({ ctx, next, type }) => {
  if (ctx.calls > MAX_BATCH_CALLS) {
    throw new AppError("VALIDATION_ERROR", {
      reason: "trpc.batch_too_large",
      message: `validation error: a batch may hold at most ${MAX_BATCH_CALLS} calls (this one holds ${ctx.calls})`,
      params: { max: MAX_BATCH_CALLS, calls: ctx.calls },
    });
  }
  if (ctx.callerUnavailable) throw databaseUnavailable();
  if (ctx.rateLimited) {
    throw new AppError("RATE_LIMITED", {
      message: `Too many requests; retry after ${ctx.rateLimited.retryAfterSeconds} seconds`,
      params: { retryAfterSeconds: ctx.rateLimited.retryAfterSeconds },
    });
  }
  const call = async (caller: TenantContext | null) => {
    if (!caller) {
      const refused = ctx.callerRefused;
      throw new AppError(
        "UNAUTHENTICATED",
        refused ? { reason: refused.reason, message: refused.message } : {},
      );
    }
    if (type === "mutation" && ctx.csrfRefused) {
      throw new AppError("FORBIDDEN", {
        reason: "auth.csrf_required",
        message: "Cookie-authenticated changes need a JSON body or the x-csrf-token header",
      });
    }
    return next({ ctx: { ...ctx, caller } });
  };
  return ctx.withCaller ? ctx.withCaller(type === "query", call) : call(ctx.caller);
});
