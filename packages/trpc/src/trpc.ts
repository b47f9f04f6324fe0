import type { CoreServices } from "@hisob/core";
import { appErrorFromDatabase } from "@hisob/db";
import type { FinanceServices } from "@hisob/finance";
import {
  AppError,
  type ErrorCode,
  type FieldIssue,
  type TenantContext,
  toFieldIssues,
  validationError,
} from "@hisob/kernel";
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";

/** Every module's services: the same ones REST and GraphQL call. */
export type ApiServices = CoreServices & { finance: FinanceServices };

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
  /** The host's one error mapping, shared with REST: status, code, reason, localized message. */
  describe: (error: AppError) => DescribedError;
};

const TRPC_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  VALIDATION_ERROR: "BAD_REQUEST",
  UNAUTHENTICATED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  BUSINESS_RULE: "UNPROCESSABLE_CONTENT",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/** Anything a procedure or tRPC itself threw, as one of our AppErrors. */
const toAppError = (error: TRPCError): AppError => {
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  if (cause instanceof ZodError) return validationError(toFieldIssues(cause.issues));
  switch (error.code) {
    case "PARSE_ERROR":
    case "BAD_REQUEST":
      return new AppError("VALIDATION_ERROR", { reason: "request.invalid", message: error.message });
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", { reason: "route.not_found", message: "No such procedure" });
    case "METHOD_NOT_SUPPORTED":
      return new AppError("VALIDATION_ERROR", { reason: "request.invalid", message: error.message });
    case "PAYLOAD_TOO_LARGE":
      return new AppError("VALIDATION_ERROR", {
        reason: "request.too_large",
        message: "Request body is too large",
      });
    case "UNSUPPORTED_MEDIA_TYPE":
      return new AppError("VALIDATION_ERROR", {
        reason: "request.unsupported_media_type",
        message: "Unsupported media type",
      });
    case "UNAUTHORIZED":
      return new AppError("UNAUTHENTICATED");
    default:
      return new AppError("INTERNAL");
  }
};

export const t = initTRPC.context<ApiContext>().create({
  /**
   * Errors leave as tRPC errors whose `data` carries what REST's envelope carries: our code, the
   * stable reason, field issues and the request id; the message is in the caller's language.
   */
  errorFormatter: ({ shape, error, ctx }) => {
    const appError = toAppError(error);
    const described: DescribedError = ctx
      ? ctx.describe(appError)
      : { status: appError.status, code: appError.code, reason: appError.reason, message: appError.message };
    return {
      ...shape,
      message: described.message,
      data: {
        ...shape.data,
        code: TRPC_CODE[described.code],
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
    // A database failure that is the input's fault or worth a retry becomes that AppError too.
    const cause = result.error.cause;
    const appError = cause instanceof AppError ? cause : appErrorFromDatabase(cause);
    if (appError) {
      throw new TRPCError({ code: TRPC_CODE[appError.code], message: appError.message, cause: appError });
    }
  }
  return result;
});

/** Every procedure needs a signed-in caller; changes over a cookie session must be JSON (CSRF). */
export const authed = t.procedure.use(mapErrors).use(({ ctx, next, type }) => {
  if (!ctx.caller) throw new AppError("UNAUTHENTICATED");
  if (type === "mutation" && ctx.csrfRefused) {
    throw new AppError("FORBIDDEN", {
      reason: "auth.csrf_required",
      message: "Cookie-authenticated changes need a JSON body or the x-csrf-token header",
    });
  }
  return next({ ctx: { ...ctx, caller: ctx.caller } });
});
