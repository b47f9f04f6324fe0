import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTE_GROUPS, routeTable, withRouteTables } from "./route-tables";

const API_DOCS = new URL("../../../../docs/api/", import.meta.url);
const apiDocs = readdirSync(API_DOCS)
  .filter((name) => name.endsWith(".md"))
  .map((name) => ({ name, text: readFileSync(new URL(name, API_DOCS), "utf8") }));

describe("the route tables of docs/api", () => {
  it("are the ones the operation catalogs write (npm run docs:routes)", () => {
    for (const doc of apiDocs) expect(withRouteTables(doc.text), doc.name).toBe(doc.text);
  });

  it("stand each in exactly one document", () => {
    for (const name of Object.keys(ROUTE_GROUPS)) {
      const holders = apiDocs.filter((doc) => doc.text.includes(`<!-- routes:${name} -->`));
      expect(
        holders.map((doc) => doc.name),
        name,
      ).toHaveLength(1);
    }
  });

  it("list every operation of a group once, with its permission", () => {
    const table = routeTable(ROUTE_GROUPS["finance-records"] ?? { catalog: {}, tags: [] });
    expect(table).toContain(
      "| `POST /finance/debts/:id/settle` | Settle all or part of a debt from an account in its currency",
    );
    expect(table).toContain(
      "`debts:update:all` and `payments:create:all` (receivable) or `expenses:create:all` (payable) |",
    );
    const ledger = routeTable(ROUTE_GROUPS["finance-ledger"] ?? { catalog: {}, tags: [] });
    expect(ledger).toContain(
      "| `GET /finance/payments` | List payments | `payments:read:all`; with only `payments:read:own`, those one created |",
    );
    expect(ledger.split("\n").filter((line) => line.startsWith("| `DELETE "))).toHaveLength(3);
  });
});
