import { violatedForeignKey } from "@hisob/db";
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

export const currencyNotSelected = () =>
  fieldError("currency", "finance.currency_not_selected", "is not one of the organization's currencies");

/** What a finance row refers to through a tenant-scoped foreign key, each with the error its caller sees. */
const UNKNOWN_REFERENCE = {
  counterparty: () =>
    fieldError(
      "counterpartyId",
      "finance.unknown_counterparty",
      "is not a counterparty of this organization",
    ),
  category: () =>
    fieldError("categoryId", "finance.unknown_category", "is not a category of this organization"),
  account: () => fieldError("accountId", "finance.unknown_account", "is not an account of this organization"),
  currency: currencyNotSelected,
} as const;

export type FinanceReference = keyof typeof UNKNOWN_REFERENCE;

/**
 * The one mapping of a foreign-key violation to the field it came from: an id of another tenant, or one
 * deleted between a check and the write, fails the row's tenant-scoped foreign key and is answered as the
 * first of `references` its constraint names (constraint names carry the column: `…_counterparty_id_…`).
 * Any other error goes on unchanged.
 */
export const rethrowUnknownReference =
  (...references: FinanceReference[]) =>
  (error: unknown): never => {
    const constraint = violatedForeignKey(error);
    const reference = constraint ? references.find((name) => constraint.includes(name)) : undefined;
    if (reference) throw UNKNOWN_REFERENCE[reference]();
    throw error;
  };
