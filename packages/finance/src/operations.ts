import { crudOperationsOf, operationsOf } from "@hisob/kernel";
import type { FinancePermission } from "./finance.permissions";
import type { FinanceServices } from "./finance-services";

export { withId } from "@hisob/kernel";

/** Declares a finance operation (see `@hisob/kernel`'s operations): the finance services and permissions. */
export const op = operationsOf<FinanceServices, FinancePermission>();

/** The five operations of a finance record (`GET/POST path`, `GET/PUT/DELETE path/:id`). */
export const crudOperations = crudOperationsOf<FinanceServices, FinancePermission>();
