import { EMPLOYEE_SORT_FIELDS, hrmOperations } from "@hisob/hrm";
import { mergeResolvers, recordResolvers, recordSdl } from "../records";
import type { GraphqlModule } from "../registry";

/*
 * HRM: employees. A record of the building block; the service hides the salary from callers without
 * salaries:read:all (null), so the resolvers need nothing special.
 */

const typeDefs = /* GraphQL */ `
  type Employee {
    id: ID!
    firstName: String!
    lastName: String!
    position: String!
    department: String!
    "YYYY-MM-DD"
    hireDate: String!
    "Monthly, minor units of salaryCurrency. Null without salaries:read:all (or when not recorded)."
    salary: Int64
    salaryCurrency: String
    "The platform user this employee signs in as."
    userId: ID
    active: Boolean!
    createdAt: Time!
    updatedAt: Time!
  }

  "salary and salaryCurrency go together and need salaries:update:all."
  input EmployeeInput {
    firstName: String!
    lastName: String!
    position: String
    department: String
    hireDate: String!
    salary: Int64
    salaryCurrency: String
    userId: ID
    active: Boolean
  }

  input EmployeePatch {
    firstName: String
    lastName: String
    position: String
    department: String
    hireDate: String
    salary: Int64
    salaryCurrency: String
    userId: ID
    active: Boolean
  }
${recordSdl({
  type: "Employee",
  plural: "employees",
  operations: hrmOperations.employees,
  sortFields: EMPLOYEE_SORT_FIELDS,
  filterFields: ["firstName", "lastName", "position", "department", "hireDate", "active", "userId"],
})}
`;

export const hrmModule: GraphqlModule = {
  name: "hrm",
  typeDefs,
  resolvers: mergeResolvers(
    recordResolvers({ type: "Employee", plural: "employees" }, (services) => services.hrm.employees),
  ),
};
