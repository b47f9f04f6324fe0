import { createOutbox, type Db } from "@hisob/db";
import { createTestDb } from "@hisob/db/testing";
import { registerPermissions } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionTenant } from "../tenants/provision-tenant";
import "./core.permissions";
import { syncPermissions } from "./permissions.sync";

let db: Db;

beforeAll(async () => {
  db = await createTestDb();
});

afterAll(async () => {
  await db?.close();
});

const adminPermissions = (tenantId: string) =>
  db.withTenant(tenantId, async (tx) =>
    (
      await tx.rolePermission.findMany({
        where: { tenantId, role: { name: "admin" } },
        select: { permission: { select: { name: true } } },
      })
    )
      .map((row) => row.permission.name)
      .sort(),
  );

describe("syncPermissions", () => {
  it("gives permissions that a new module version registers to existing admin roles", async () => {
    await syncPermissions(db);
    const outbox = createOutbox(db);
    const client = await provisionTenant({ db, outbox }, { name: "Client" });
    const platform = await provisionTenant({ db, outbox }, { name: "Platform", isPlatform: true });
    expect(await adminPermissions(client.id)).not.toContain("widgets:read:all");

    // A later release adds a module with new permissions.
    registerPermissions("widgets", { "widgets:read:all": "Read widgets" });
    registerPermissions(
      "widgets-platform",
      { "widgets:create:all": "Create widgets everywhere" },
      { platformOnly: true },
    );
    expect((await syncPermissions(db)).sort()).toEqual(["widgets:create:all", "widgets:read:all"]);

    expect(await adminPermissions(client.id)).toContain("widgets:read:all");
    expect(await adminPermissions(client.id)).not.toContain("widgets:create:all");
    expect(await adminPermissions(platform.id)).toEqual(
      expect.arrayContaining(["widgets:read:all", "widgets:create:all"]),
    );
    // Nothing new the second time.
    expect(await syncPermissions(db)).toEqual([]);
  });
});
