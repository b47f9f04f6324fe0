import { type Db, isUniqueViolation, type Outbox, type Tx } from "@hisob/db";
import { AppError, isPlatformOnlyPermission, newId, parseInput } from "@hisob/kernel";
import { type TProvisionTenantInput, ZProvisionTenantInput } from "./tenants.schema";

export const ADMIN_ROLE_NAME = "admin";

export { type TProvisionTenantInput, ZProvisionTenantInput };

export type ProvisionedTenant = {
  id: string;
  name: string;
  domain: string | null;
  isPlatform: boolean;
  adminRoleId: string;
};

/**
 * A new tenant with its `admin` role holding every registered permission (platform-only ones
 * just for the platform tenant), in ONE transaction: the tenant role may insert exactly the
 * tenant row whose id it is scoped to, so no system access is needed.
 * Permissions must be synced first (syncPermissions).
 */
export const provisionTenant = async (
  deps: { db: Db; outbox: Outbox },
  rawInput: TProvisionTenantInput,
  /** More setup that must commit or fail together with the tenant (e.g. its first user). */
  alsoInTransaction?: (tx: Tx, tenant: ProvisionedTenant) => Promise<void>,
): Promise<ProvisionedTenant> => {
  const input = parseInput(ZProvisionTenantInput, rawInput);
  const tenantId = newId();
  try {
    return await deps.db.withTenant(tenantId, async (tx) => {
      const tenant = await tx.tenant.create({
        data: { id: tenantId, name: input.name, domain: input.domain ?? null, isPlatform: input.isPlatform },
      });
      const permissions = (await tx.permission.findMany({ select: { id: true, name: true } })).filter(
        (permission) => input.isPlatform || !isPlatformOnlyPermission(permission.name),
      );
      const role = await tx.role.create({
        data: {
          tenantId,
          name: ADMIN_ROLE_NAME,
          description: "Every permission of the tenant",
          permissions: {
            create: permissions.map((permission) => ({ tenantId, permissionId: permission.id })),
          },
        },
      });
      const codes = [...new Set(input.currencies)];
      const known = await tx.currency.findMany({
        where: { code: { in: codes }, isActive: true },
        select: { code: true },
      });
      const missing = codes.filter((code) => !known.some((currency) => currency.code === code));
      if (missing.length > 0) {
        throw new AppError("VALIDATION_ERROR", {
          reason: "currency.unknown",
          message: `validation error: currencies has unknown or inactive codes: ${missing.join(", ")}`,
          params: { issues: [{ path: "currencies", message: `unknown or inactive: ${missing.join(", ")}` }] },
        });
      }
      await tx.tenantCurrency.createMany({ data: codes.map((currencyCode) => ({ tenantId, currencyCode })) });
      await deps.outbox.raise(tx, {
        type: "TenantCreated",
        tenantId,
        payload: { tenantId, name: tenant.name },
      });
      const provisioned = {
        id: tenant.id,
        name: tenant.name,
        domain: tenant.domain,
        isPlatform: tenant.isPlatform,
        adminRoleId: role.id,
      };
      await alsoInTransaction?.(tx, provisioned);
      return provisioned;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", {
        reason: "tenant.domain_taken",
        message: "Another tenant already uses this domain",
      });
    }
    throw error;
  }
};
