import { ADMIN_ROLE_NAME, provisionTenant, syncPermissions } from "@hisob/core";
import { createOutbox, type Db, type Outbox } from "@hisob/db";
import { createTestDb } from "@hisob/db/testing";
import { AppError, listPermissions, verifyPassword } from "@hisob/kernel";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import "./app-context"; // registers every module's permissions, as the server does
import { bootstrapPlatform, DEFAULT_ADMIN_EMAIL, generatePassword } from "./bootstrap";

let db: Db;
let outbox: Outbox;

beforeEach(async () => {
  db = await createTestDb();
  outbox = createOutbox(db);
  await syncPermissions(db);
});

afterEach(async () => {
  await db.close();
});

const rolePermissions = (tenantId: string) =>
  db.withTenant(tenantId, async (tx) => {
    const role = await tx.role.findFirstOrThrow({
      where: { tenantId, name: ADMIN_ROLE_NAME },
      select: { permissions: { select: { permission: { select: { name: true } } } } },
    });
    return role.permissions.map((entry) => entry.permission.name).sort();
  });

describe("first-start bootstrap", () => {
  it("creates the platform tenant, an admin role with every permission and an admin with a generated password", async () => {
    const result = await bootstrapPlatform({ db, outbox });
    expect(result?.email).toBe(DEFAULT_ADMIN_EMAIL);
    const password = result?.generatedPassword ?? "";
    expect(password.length).toBeGreaterThanOrEqual(20);
    const tenantId = result?.tenantId ?? "";

    const admin = await db.withTenant(tenantId, (tx) =>
      tx.user.findFirstOrThrow({
        select: { email: true, passwordHash: true, roles: { select: { role: { select: { name: true } } } } },
      }),
    );
    expect(admin.email).toBe(DEFAULT_ADMIN_EMAIL);
    expect(admin.passwordHash).not.toContain(password);
    expect(await verifyPassword(admin.passwordHash ?? "", password)).toBe(true);
    expect(admin.roles.map((r) => r.role.name)).toEqual([ADMIN_ROLE_NAME]);
    expect(await rolePermissions(tenantId)).toEqual(
      listPermissions()
        .map((p) => p.name)
        .sort(),
    );
    expect(await rolePermissions(tenantId)).toContain("tenants:create:all");
  });

  it("runs only once", async () => {
    expect(await bootstrapPlatform({ db, outbox })).not.toBeNull();
    expect(await bootstrapPlatform({ db, outbox })).toBeNull();
  });

  it("uses ADMIN_EMAIL and ADMIN_PASSWORD when given, and prints no password", async () => {
    const result = await bootstrapPlatform(
      { db, outbox },
      { email: "Boss@Firm.uz", password: "Very-Secret-123" },
    );
    expect(result).toEqual({ tenantId: expect.any(String), email: "boss@firm.uz" });
    expect(await db.system.findLoginByEmail("boss@firm.uz")).toMatchObject({ tenantId: result?.tenantId });
  });

  it("refuses a weak ADMIN_PASSWORD and leaves nothing behind", async () => {
    const attempt = bootstrapPlatform({ db, outbox }, { email: "boss@firm.uz", password: "short" });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await db.system.hasPlatformTenant()).toBe(false);
    expect(await bootstrapPlatform({ db, outbox })).not.toBeNull();
  });

  it("gives other tenants' admin roles every permission except the platform-only ones", async () => {
    const tenant = await provisionTenant({ db, outbox }, { name: "Client LLC" });
    const names = await rolePermissions(tenant.id);
    expect(names).toContain("payments:create:all");
    expect(names).not.toContain("tenants:create:all");
    expect(names.length).toBe(listPermissions().filter((p) => !p.platformOnly).length);
  });

  it("generated passwords satisfy the password rule", () => {
    for (let i = 0; i < 50; i++) expect(generatePassword()).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });
});
