import { coreOperations } from "@hisob/core";
import { financeOperations } from "@hisob/finance";
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
      /** The organization's currencies, what accounts may use (GET /tenant/currencies). */
      currencies: { selected: coreOperations.currencies.selected },
    },
    (services) => services,
  ),
  ...proceduresOf(financeOperations, (services) => services.finance),
});

/** The accountant app imports this type (never the code) to get a fully typed client. */
export type AppRouter = typeof appRouter;
