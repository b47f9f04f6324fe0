import type { CoreServices } from "@hisob/core";
import type { FinanceServices } from "@hisob/finance";

/** Every module's services, as the transports see them. */
export type AppServices = CoreServices & { finance: FinanceServices };
