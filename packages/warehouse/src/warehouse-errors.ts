import { AppError } from "@hisob/kernel";

/** A field whose value only the database can judge (a currency the organization has not selected). */
export const fieldError = (field: string, reason: string, problem: string) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: ${field} ${problem}`,
    params: { issues: [{ path: field, message: problem }] },
  });

export const currencyNotSelected = (field: string) =>
  fieldError(field, "warehouse.currency_not_selected", "is not one of the organization's currencies");
