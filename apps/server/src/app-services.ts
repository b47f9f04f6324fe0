import type { CrmServices } from "@hisob/crm";
import type { HrmServices } from "@hisob/hrm";
import type { ProjectsServices } from "@hisob/projects";
import type { ApiServices } from "@hisob/trpc";
import type { WarehouseServices } from "@hisob/warehouse";

/** Every module's services, as the transports see them (tRPC names core and finance; GraphQL all of them). */
export type AppServices = ApiServices & {
  crm: CrmServices;
  warehouse: WarehouseServices;
  projects: ProjectsServices;
  hrm: HrmServices;
};
