import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROUTE_GROUPS, routeTable, withRouteTables } from "./route-tables";

const README = new URL("../../../../README.md", import.meta.url);

describe("the README's route tables", () => {
  it("are the ones the operation catalogs write (npm run readme:routes)", () => {
    const readme = readFileSync(README, "utf8");
    expect(withRouteTables(readme)).toBe(readme);
    for (const name of Object.keys(ROUTE_GROUPS)) expect(readme).toContain(`<!-- routes:${name} -->`);
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
