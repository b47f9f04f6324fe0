import type { RecordDeps } from "@hisob/crud";
import { createEmployeesService } from "./employees/employees.service";

/** The HRM module's services, shared by every transport. */
export const createHrmServices = (deps: RecordDeps) => ({ employees: createEmployeesService(deps) });

export type HrmServices = ReturnType<typeof createHrmServices>;
