import { AppError } from "@hisob/kernel";
import { Prisma } from "./client";
/** A database problem an operator can act on: printed as a clear message, never a bare stack. */
export class DatabaseSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseSetupError";
  }
}

const describe = (error: unknown): string => {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as Error & { code?: string }).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
};

/** Rewrites a failed PostgreSQL connection into a message naming the server (never the password). */
/** `host:port/database as user` of a connection string: never its password. */
export const describeServer = (connectionString: string): string => {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || "5432"}/${url.pathname.replace(/^\//, "")} as ${decodeURIComponent(url.username) || "(default user)"}`;
  } catch {
    return "the configured server"; // the URL itself was validated at boot
  }
};

export const connectionError = (connectionString: string, error: unknown): DatabaseSetupError => {
  const where = describeServer(connectionString);
  return new DatabaseSetupError(
    `Cannot connect to PostgreSQL at ${where} (${describe(error)}). Is the server running and DATABASE_URL right?`,
    { cause: error },
  );
};

/**
 * An error straight from a driver (`pg`'s or PGlite's DatabaseError, raw-tenant.ts): PostgreSQL's
 * SQLSTATE in `code` and the violated constraint's name in `constraint`.
 */
const driverError = (error: unknown): { code: string; constraint?: string } | null => {
  if (!(error instanceof Error) || error instanceof Prisma.PrismaClientKnownRequestError) return null;
  const { code, constraint, severity } = error as Error & {
    code?: unknown;
    constraint?: unknown;
    severity?: unknown;
  };
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code) || typeof severity !== "string") return null;
  return { code, ...(typeof constraint === "string" ? { constraint } : {}) };
};

/** PostgreSQL's own code behind a Prisma error (driver adapters put it in meta), or Prisma's code. */
const codesOf = (error: unknown): { prisma?: string; postgres?: string } => {
  const driver = driverError(error);
  if (driver) return { postgres: driver.code };
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return {};
  const cause = (
    error.meta?.driverAdapterError as { cause?: { originalCode?: unknown; code?: unknown } } | undefined
  )?.cause;
  const postgres = cause?.originalCode ?? cause?.code;
  return { prisma: error.code, ...(typeof postgres === "string" ? { postgres } : {}) };
};

/** A unique constraint refused the write (Prisma P2002, or SQLSTATE 23505 from a raw query). */
export const isUniqueViolation = (error: unknown): boolean => {
  const { prisma, postgres } = codesOf(error);
  return prisma === "P2002" || postgres === "23505";
};

/**
 * The constraint behind a foreign-key violation (Prisma P2003, or SQLSTATE 23503 from a raw
 * query), so a caller can name the field it came from; null for any other error.
 */
export const violatedForeignKey = (error: unknown): string | null => {
  const driver = driverError(error);
  if (driver) return driver.code === "23503" ? (driver.constraint ?? (error as Error).message) : null;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  const meta = (error.meta ?? {}) as Record<string, unknown>;
  const cause = (meta.driverAdapterError as { cause?: Record<string, unknown> } | undefined)?.cause;
  const { prisma, postgres } = codesOf(error);
  if (prisma !== "P2003" && postgres !== "23503" && cause?.kind !== "ForeignKeyConstraintViolation")
    return null;
  const constraint = meta.constraint ?? meta.field_name ?? cause?.constraint;
  if (typeof constraint === "string") return constraint;
  if (constraint && typeof constraint === "object" && "index" in constraint) {
    return String((constraint as { index: unknown }).index);
  }
  return error.message;
};

/** A number left its column's range (SQLSTATE 22003: a bigint or numeric overflow; Prisma P2020). */
export const isNumericOverflow = (error: unknown): boolean => {
  const { prisma, postgres } = codesOf(error);
  return prisma === "P2020" || postgres === "22003";
};

/**
 * Database failures that are not bugs, as the AppError a caller should see; null for everything
 * else (which stays an internal error). Both transports ask this before giving up with a 500:
 * - text PostgreSQL cannot store (a NUL character): the input is wrong → VALIDATION_ERROR;
 * - any other data exception (SQLSTATE class 22: a date or number out of range, a malformed
 *   value): the input got past validation but is still wrong → VALIDATION_ERROR;
 * - no connection or transaction slot in time, a deadlock or serialization failure: the request
 *   may simply be retried → UNAVAILABLE (503).
 */
export const appErrorFromDatabase = (error: unknown): AppError | null => {
  const { prisma, postgres } = codesOf(error);
  if (postgres === "22021" || postgres === "22P05") {
    return new AppError("VALIDATION_ERROR", {
      reason: "request.invalid_text",
      message: "validation error: text must not contain NUL characters",
    });
  }
  if (postgres?.startsWith("22")) {
    return new AppError("VALIDATION_ERROR", {
      reason: "request.invalid_value",
      message: "validation error: a value is out of the range the database can hold",
    });
  }
  if (
    prisma === "P2028" ||
    prisma === "P2024" ||
    prisma === "P2034" ||
    postgres === "40001" ||
    postgres === "40P01" ||
    postgres === "55P03" ||
    postgres === "57014"
  ) {
    return new AppError("UNAVAILABLE", {
      reason: "unavailable",
      message: "The service is busy; try again in a moment",
      params: { retryAfterSeconds: 1 },
    });
  }
  return null;
};

const UNREACHABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TlsConnectionError",
]);
const UNREACHABLE_PRISMA = new Set(["P1001", "P1002", "P1017"]);
const UNREACHABLE_SYSTEM = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH"]);
/**
 * node-postgres's own words when the server goes away mid-connection, when a client it already lost is
 * used again, or when no connection could be had in time (it sets no code on any).
 */
const PG_TERMINATED =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect)$/;

/**
 * The database cannot be reached right now (refused, dropped, timed out, out of connections): a
 * retry later may succeed. Read from structured codes (the driver adapter's kind, Prisma's P1xxx,
 * SQLSTATE 08xxx/53300/57P0x, the socket's errno) — never from arbitrary message text.
 */
export const isDatabaseUnreachable = (error: unknown): boolean => {
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnreachable);
  if (typeof error !== "object" || error === null) return false;
  const { postgres } = codesOf(error);
  if (postgres && (postgres.startsWith("08") || postgres === "53300" || /^57P0[1-3]$/.test(postgres)))
    return true;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } }).meta;
  const kind = meta?.driverAdapterError?.cause?.kind ?? (error as { cause?: { kind?: unknown } }).cause?.kind;
  if (typeof kind === "string" && UNREACHABLE_KINDS.has(kind)) return true;
  const code =
    (error as { code?: unknown; errorCode?: unknown }).code ?? (error as { errorCode?: unknown }).errorCode;
  if (typeof code === "string" && (UNREACHABLE_PRISMA.has(code) || UNREACHABLE_SYSTEM.has(code))) return true;
  return error instanceof Error && PG_TERMINATED.test(error.message);
};

/** Seconds a caller is asked to wait when the database is away: a restart or a failover takes a moment. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** What a request that lost its database connection answers: 503 with Retry-After, never a 500. */
export const databaseUnavailable = (): AppError =>
  new AppError("UNAVAILABLE", {
    reason: "database.unavailable",
    message: "The database cannot be reached right now; try again in a moment",
    params: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
  });
