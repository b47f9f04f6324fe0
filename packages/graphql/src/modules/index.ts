import type { GraphqlModule } from "../registry";
import { coreModule } from "./core.graphql";
import { crmModule } from "./crm.graphql";
import { financeModule } from "./finance.graphql";
import { hrmModule } from "./hrm.graphql";
import { journalModule } from "./journal.graphql";
import { ledgerModule } from "./ledger.graphql";
import { projectsModule } from "./projects.graphql";
import { reportsModule } from "./reports.graphql";
import { warehouseModule } from "./warehouse.graphql";

/** The modules the server serves; a module adds its file and one line here. */
export const GRAPHQL_MODULES: readonly GraphqlModule[] = [
  coreModule,
  financeModule,
  journalModule,
  reportsModule,
  ledgerModule,
  crmModule,
  warehouseModule,
  projectsModule,
  hrmModule,
];
