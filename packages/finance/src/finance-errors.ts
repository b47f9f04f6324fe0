import { Prisma } from "@hisob/db";
import { AppError } from "@hisob/kernel";

/** A path id that names nothing in the caller's tenant (another tenant's ids included). */
export const notFound = (reason: string, message: string) => new AppError("NOT_FOUND", { reason, message });

/** A body field that is wrong for a reason only the database knows (an unknown id, a currency not selected). */
export const fieldError = (field: string, reason: string, problem: string) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: ${field} ${problem}`,
    params: { issues: [{ path: field, message: problem }] },
  });

export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * The constraint behind a foreign-key violation, from Prisma's error (P2003) or, for raw
 * queries, the driver's (SQLSTATE 23503); null for any other error.
 */
export const violatedForeignKey = (error: unknown): string | null => {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return null;
  const meta = (error.meta ?? {}) as Record<string, unknown>;
  const cause = (meta.driverAdapterError as { cause?: Record<string, unknown> } | undefined)?.cause;
  if (
    error.code === "P2003" ||
    cause?.originalCode === "23503" ||
    cause?.kind === "ForeignKeyConstraintViolation"
  ) {
    const constraint = meta.constraint ?? meta.field_name ?? cause?.constraint;
    if (typeof constraint === "string") return constraint;
    if (constraint && typeof constraint === "object" && "index" in constraint) {
      return String((constraint as { index: unknown }).index);
    }
    return error.message;
  }
  return null;
};

/** PostgreSQL's "bigint out of range" (22003): a balance that would leave int64. */
export const isNumericOverflow = (error: unknown): boolean => {
  const text = error instanceof Error ? error.message : String(error);
  return /out of range|22003/.test(text);
};
