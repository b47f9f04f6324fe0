import type { Db } from "@hisob/db";
import { createTestDb, insertTenant } from "@hisob/db/testing";
import { newId } from "@hisob/kernel";
import { dateOf } from "@hisob/kernel/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statementSql } from "./account-statement.report";
import { queryRaw } from "./report-sql";

// The statement page runs as the tenant role, under row-level security: a condition PostgreSQL cannot
// prove leakproof (a cast from text, say) is checked only after the policy, so it cannot be an index
// condition. The page's lookup of the entry that reversed each transfer once compared against
// `id::text::uuid`: on 1,000,000 entries a sequential scan of the ledger per entry in the plan, whose
// cost (18 million) switched JIT compilation on — 350 ms for every page on PostgreSQL. The planner
// must be able to look the reversal up by the index on it: its condition must be the index scan's
// own, not a filter after reading every entry of the tenant.

let db: Db;
let tenantId: string;
const accountId = newId();

beforeAll(async () => {
  db = await createTestDb();
  tenantId = (await insertTenant(db, "Plans")).id;
  await db.withTenant(tenantId, async (tx) => {
    await tx.tenantCurrency.create({ data: { tenantId, currencyCode: "UZS" } });
    await tx.moneyAccount.create({
      data: { id: accountId, tenantId, name: "Till", currencyCode: "UZS", allowOverdraft: true },
    });
  });
});

afterAll(async () => {
  await db?.close();
});

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  Plans?: PlanNode[];
};
/** Every read of `transactions` in the plan: how, and by what index condition. */
const ledgerReads = (node: PlanNode): Array<{ how: string; cond: string }> => [
  ...(node["Relation Name"] === "transactions"
    ? [{ how: node["Node Type"], cond: node["Index Cond"] ?? "" }]
    : []),
  ...(node.Plans ?? []).flatMap(ledgerReads),
];

describe("the account statement page's plan", () => {
  it.each([
    { order: "asc" as const, offset: 0 },
    { order: "desc" as const, offset: 0 },
    { order: "asc" as const, offset: 700 },
    { order: "desc" as const, offset: 700 },
  ])("looks reversals up by their index under row-level security (%o)", async ({ order, offset }) => {
    const sql = statementSql({
      tenantId,
      accountId,
      start: dateOf("2026-01-01"),
      end: dateOf("2026-12-31"),
      order,
      limit: 500,
      offset,
    });
    const reads = await db.rawTx.withTenant(tenantId, async (tx) => {
      // Sequential scans priced out: what still scans is what no index can serve.
      await tx.query("SELECT set_config('enable_seqscan', 'off', true)");
      const [row] = await queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(tx, {
        ...sql,
        text: `EXPLAIN (FORMAT JSON) ${sql.text}`,
        values: sql.values,
      } as typeof sql);
      return ledgerReads(row?.["QUERY PLAN"][0].Plan as PlanNode);
    });
    // Both sides of the account and the reversal lookup, each through an index; the lookup by the
    // entry's id (which index the sides take depends on the statistics; this one does not).
    expect(reads).toHaveLength(3);
    for (const read of reads) expect(read.how).toMatch(/^Index( Only)? Scan$/);
    expect(reads.filter((read) => /\breversal_of_id = /.test(read.cond))).toHaveLength(1);
  });
});
