import { coreOperations } from "@hisob/core";
import { crmOperations } from "@hisob/crm";
import { financeOperations } from "@hisob/finance";
import { hrmOperations } from "@hisob/hrm";
import { projectsOperations } from "@hisob/projects";
import { warehouseOperations } from "@hisob/warehouse";
import { proceduresOf } from "./procedures";
import { router } from "./trpc";

/*
 * The accountant app's API, derived from the operation catalogs: the same zod schemas and service
 * calls as the REST routes (each service checks permissions and parses again); downloads answer with
 * their REST route's URL, taken from the catalog. A new procedure is a catalog entry picked here.
 */

export const appRouter = router({
  ...proceduresOf(
    {
      /** The signed-in user: name, language, roles and effective permissions (GET /account). */
      session: {
        me: coreOperations.profile.get,
        /** One's own name, language (the app's language switch) or password (PUT /account). */
        update: coreOperations.profile.update,
      },
      /**
       * The organization's currencies, what accounts may use (GET /tenant/currencies); the global list
       * and the selection's replacement are what the app's first-run setup chooses them with.
       */
      currencies: {
        selected: coreOperations.currencies.selected,
        all: coreOperations.currencies.all,
        select: coreOperations.currencies.select,
      },
      /**
       * The organization's base currency and its first-run setup's progress (GET/PUT /tenant/settings),
       * so another browser resumes the setup where it was left.
       */
      settings: {
        get: coreOperations.settings.get,
        update: coreOperations.settings.update,
      },
      /** The third-party applications the user allowed, and taking that back (/account/consents). */
      consents: {
        list: coreOperations.consents.listOwn,
        revoke: coreOperations.consents.revokeOwn,
      },
    },
    (services) => services,
  ),
  ...proceduresOf(financeOperations, (services) => services.finance),
  crm: proceduresOf(crmOperations, (services) => services.crm),
  warehouse: proceduresOf(warehouseOperations, (services) => services.warehouse),
  projects: proceduresOf(projectsOperations, (services) => services.projects),
  hrm: proceduresOf(hrmOperations, (services) => services.hrm),
});

/** The accountant app imports this type (never the code) to get a fully typed client. */
export type AppRouter = typeof appRouter;
