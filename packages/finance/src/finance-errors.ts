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
