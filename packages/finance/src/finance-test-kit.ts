import { createServiceTestKit, type ServiceTestKit } from "@hisob/core/testing";
import { createFinanceServices, type FinanceServices } from "./finance-services";
// Registers the finance permissions, which the kit syncs into the database: a tenant's admin role holds them.
import "./finance.permissions";

/*
 * The finance tests' kit: the shared one (@hisob/core/testing: a database per test file, tenants,
 * signed-in users and their contexts) with the finance services over the same database
 * (docs/decisions/0091-tests-beside-their-features.md).
 */

export type FinanceTestKit = ServiceTestKit<{ finance: FinanceServices }>;

export const createFinanceTestKit = (
  options: Omit<Parameters<typeof createServiceTestKit>[0] & object, "services"> = {},
): Promise<FinanceTestKit> =>
  createServiceTestKit({ ...options, services: (deps) => ({ finance: createFinanceServices(deps) }) });
