import { coreOperations } from "@hisob/core";
import { crmOperations } from "@hisob/crm";
import { financeOperations } from "@hisob/finance";
import { hrmOperations } from "@hisob/hrm";
import { type AnyOperation, describeAccess, listOperations, type OperationCatalog } from "@hisob/kernel";
import { projectsOperations } from "@hisob/projects";
import { warehouseOperations } from "@hisob/warehouse";

/*
 * The route → permission tables of docs/api, written from the operation catalogs: between
 * `<!-- routes:NAME -->` and `<!-- /routes:NAME -->` stands the table of the named group.
 * `npm run docs:routes` rewrites them; a test fails when one is out of date.
 */

type Group = { catalog: OperationCatalog; tags: readonly string[] };

export const ROUTE_GROUPS: Record<string, Group> = {
  "core-account-currencies": { catalog: coreOperations, tags: ["account", "currencies"] },
  "core-users": { catalog: coreOperations, tags: ["users", "roles", "groups", "tenants", "sessions"] },
  "finance-ledger": {
    catalog: financeOperations,
    tags: ["finance: accounts", "finance: payments", "finance: expenses", "finance: closed periods"],
  },
  "finance-records": {
    catalog: financeOperations,
    tags: [
      "finance: counterparties",
      "finance: payment categories",
      "finance: expense categories",
      "finance: debts",
      "finance: inventory",
    ],
  },
  "finance-reports": { catalog: financeOperations, tags: ["finance: reports"] },
  "finance-general-ledger": { catalog: financeOperations, tags: ["finance: general ledger"] },
  "finance-journal": { catalog: financeOperations, tags: ["finance: journal entries"] },
  "finance-downloads": { catalog: financeOperations, tags: ["finance: downloads"] },
  crm: { catalog: crmOperations, tags: ["crm: clients", "crm: chats"] },
  warehouse: {
    catalog: warehouseOperations,
    tags: ["warehouse: products", "warehouse: locations", "warehouse: stock", "warehouse: orders"],
  },
  projects: { catalog: projectsOperations, tags: ["projects", "projects: stages"] },
  hrm: { catalog: hrmOperations, tags: ["hrm: employees"] },
};

const cell = (text: string) => text.replaceAll("|", "\\|");
const code = (text: string) => `\`${text}\``;

const row = (operation: AnyOperation) =>
  `| ${code(`${operation.http.method} ${operation.http.path}`)} | ${cell(operation.summary)} | ${cell(
    describeAccess(operation.access, code),
  )} |`;

/** The table of one group: its operations in catalog order, grouped by tag in the group's order. */
export const routeTable = (group: Group): string => {
  const operations = listOperations(group.catalog).map(({ operation }) => operation);
  const rows = group.tags.flatMap((tag) => operations.filter((operation) => operation.tag === tag).map(row));
  return ["| Route | What | Permission |", "|---|---|---|", ...rows].join("\n");
};

/** The README with every marked table written again from the catalogs. */
export const withRouteTables = (readme: string): string =>
  readme.replace(/<!-- routes:([a-z-]+) -->\n[\s\S]*?<!-- \/routes:\1 -->/g, (_whole, name: string) => {
    const group = ROUTE_GROUPS[name];
    if (!group) throw new Error(`a document names an unknown route table: ${name}`);
    return `<!-- routes:${name} -->\n${routeTable(group)}\n<!-- /routes:${name} -->`;
  });
