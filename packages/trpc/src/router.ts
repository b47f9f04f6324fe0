import { ZAccountDto, ZCurrencyDto } from "@hisob/core";
import { financeOperations } from "@hisob/finance";
import { z } from "zod";
import { proceduresOf } from "./procedures";
import { authed, router } from "./trpc";

/*
 * The accountant app's API. Finance procedures are derived from the finance operation catalog:
 * the same zod schemas and service calls as the REST routes (each service checks permissions and
 * parses again); downloads answer with their REST route's URL, taken from the catalog.
 */

export const appRouter = router({
  session: router({
    /** The signed-in user: name, language, roles and effective permissions. */
    me: authed.output(ZAccountDto).query(({ ctx }) => ctx.services.account.get(ctx.caller)),
  }),
  currencies: router({
    /** The organization's currencies (what accounts may use). */
    selected: authed
      .output(z.array(ZCurrencyDto))
      .query(({ ctx }) => ctx.services.currencies.listSelected(ctx.caller)),
  }),
  ...proceduresOf(financeOperations, (services) => services.finance),
});

/** The accountant app imports this type (never the code) to get a fully typed client. */
export type AppRouter = typeof appRouter;
