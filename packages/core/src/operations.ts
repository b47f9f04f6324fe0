import { crudOperationsOf, operationsOf } from "@hisob/kernel";
import type { CoreServices } from "./core-services";
import type { CorePermission } from "./permissions/core.permissions";

/** Declares a core operation (see `@hisob/kernel`'s operations): the core services and permissions. */
export const op = operationsOf<CoreServices, CorePermission>();

/** The five operations of a core record (`GET/POST path`, `GET/PUT/DELETE path/:id`). */
export const crudOperations = crudOperationsOf<CoreServices, CorePermission>();

export { withId } from "@hisob/kernel";
