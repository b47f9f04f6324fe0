import { Prisma, type Tx } from "@hisob/db";
import { AppError, type TenantContext } from "@hisob/kernel";

/** Whether the caller holds `name`; `resource:action:all` covers `resource:action:own`. */
export const holds = (ctx: TenantContext, name: string): boolean =>
  ctx.actor.permissions.has(name) ||
  (name.endsWith(":own") && ctx.actor.permissions.has(`${name.slice(0, -":own".length)}:all`));

/**
 * No one hands out more than they hold. Granting a permission to a role, a role to a user or a
 * group, or group membership needs every permission involved; otherwise anyone allowed to edit
 * roles or groups could make themselves an administrator. Administrators hold every permission,
 * so the rule never stands in their way.
 */
export const assertCanGrant = (ctx: TenantContext, permissions: Iterable<string>): void => {
  const missing = [...new Set(permissions)].filter((name) => !holds(ctx, name)).sort();
  if (missing.length > 0) {
    throw new AppError("FORBIDDEN", {
      reason: "auth.cannot_grant",
      message: "You cannot grant permissions you do not hold",
      params: { permissions: missing },
    });
  }
};

/** The permissions that roles (by id or name) and groups' roles would grant, in one query. */
export const permissionsGrantedBy = async (
  tx: Tx,
  tenantId: string,
  sources: { roleIds?: readonly string[]; roleNames?: readonly string[]; groupIds?: readonly string[] },
): Promise<string[]> => {
  const roleIds = sources.roleIds ?? [];
  const roleNames = sources.roleNames ?? [];
  const groupIds = sources.groupIds ?? [];
  if (roleIds.length + roleNames.length + groupIds.length === 0) return [];
  const uuids = (ids: readonly string[]) => Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));
  const rows = await tx.$queryRaw<Array<{ name: string }>>`
    SELECT DISTINCT p.name FROM role_permissions rp
    JOIN roles r ON r.tenant_id = rp.tenant_id AND r.id = rp.role_id
    JOIN permissions p ON p.id = rp.permission_id
    WHERE rp.tenant_id = ${tenantId}::uuid AND (
      ${roleIds.length > 0 ? Prisma.sql`r.id IN (${uuids(roleIds)})` : Prisma.sql`false`}
      OR ${roleNames.length > 0 ? Prisma.sql`r.name IN (${Prisma.join(roleNames)})` : Prisma.sql`false`}
      OR ${
        groupIds.length > 0
          ? Prisma.sql`r.id IN (SELECT gr.role_id FROM group_roles gr WHERE gr.tenant_id = ${tenantId}::uuid AND gr.group_id IN (${uuids(groupIds)}))`
          : Prisma.sql`false`
      })`;
  return rows.map((row) => row.name);
};
