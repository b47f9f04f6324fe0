import { PGlite } from "@electric-sql/pglite";
import { createDb, migrate, PGLITE_EXTENSIONS } from "@hisob/db";
import { pgliteConnection } from "../packages/db/src/sql-connection";
import { insertTenant } from "../packages/db/src/testing/insert-tenant";
import { opsPerSecond } from "./measure";
import type { Bench } from "./run";

/**
 * The cost of the tenancy wall: a primary-key read through withTenant (Prisma transaction,
 * set_config of tenant + role, RLS policy) beside the same read as raw SQL on the same PGlite,
 * with and without the transaction and settings.
 */
export const tenantTransactionBench: Bench = {
  name: "tenant-transaction",
  run: async ({ iterations = 2_000 }) => {
    const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    await migrate(pgliteConnection(pglite));
    const db = await createDb({ dataDir: "", pglite });
    const tenant = await insertTenant(db, "bench");
    const user = await db.withTenant(tenant.id, (tx) =>
      tx.user.create({
        data: { tenantId: tenant.id, email: "bench@example.com", firstName: "B", lastName: "B" },
      }),
    );

    const raw = await opsPerSecond(iterations, () =>
      pglite.query("SELECT id, email FROM users WHERE id = $1", [user.id]),
    );
    const rawScoped = await opsPerSecond(iterations, () =>
      pglite.transaction(async (tx) => {
        await tx.query(
          "SELECT set_config('app.tenant_id', $1, true), set_config('role', 'hisob_tenant', true)",
          [tenant.id],
        );
        return tx.query("SELECT id, email FROM users WHERE id = $1", [user.id]);
      }),
    );
    const withTenant = await opsPerSecond(iterations, () =>
      db.withTenant(tenant.id, (tx) =>
        tx.user.findUnique({ where: { id: user.id }, select: { id: true, email: true } }),
      ),
    );
    await db.close();
    await pglite.close();
    return {
      name: `Primary-key read, ${iterations} iterations (PGlite)`,
      rows: [
        { label: "raw SQL, no transaction (baseline)", opsPerSecond: raw, ratio: 1 },
        { label: "raw SQL in transaction + tenant role", opsPerSecond: rawScoped, ratio: raw / rawScoped },
        { label: "db.withTenant + Prisma findUnique", opsPerSecond: withTenant, ratio: raw / withTenant },
      ],
    };
  },
};
