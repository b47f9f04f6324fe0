import type { CrmServices } from "@hisob/crm";
import type { ApiServices } from "@hisob/trpc";

/** Every module's services, as the transports see them (tRPC names core and finance; GraphQL all of them). */
export type AppServices = ApiServices & { crm: CrmServices };
