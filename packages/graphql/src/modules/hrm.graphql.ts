import { hrmOperations } from "@hisob/hrm";
import { mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";

/*
 * HRM: employees. A record of the building block; the service hides the salary from callers without
 * salaries:read:all (null), so the resolvers need nothing special.
 */

const typeDefs = recordSdl({
  type: "Employee",
  plural: "employees",
  operations: hrmOperations.employees,
  types: {
    item: {
      fields: {
        hireDate: { description: "YYYY-MM-DD" },
        salary: {
          type: "Int64",
          description:
            "Monthly, minor units of salaryCurrency. Null without salaries:read:all (or when not recorded).",
        },
        userId: { description: "The platform user this employee signs in as." },
      },
    },
    input: {
      description: "salary and salaryCurrency go together and need salaries:update:all.",
      fields: { salary: "Int64" },
    },
    patch: { fields: { salary: "Int64" } },
  },
  filterFields: ["firstName", "lastName", "position", "department", "hireDate", "active", "userId"],
});

export const hrmModule: GraphqlModule = {
  name: "hrm",
  typeDefs,
  resolvers: mergeResolvers(
    recordResolvers({ type: "Employee", plural: "employees" }, (services) => services.hrm.employees),
  ),
};
