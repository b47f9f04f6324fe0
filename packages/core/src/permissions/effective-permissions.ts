import { Prisma, type Tx } from "@hisob/db";

/**
 * Effective permissions of users = the union over their roles and their groups' roles, as one
 * query for a whole page of users, sorted by name (the one stable order).
 */
export const loadEffectivePermissions = async (
  tx: Tx,
  tenantId: string,
  userIds: readonly string[],
): Promise<Map<string, string[]>> => {
  const result = new Map<string, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return result;
  const ids = Prisma.join(userIds.map((id) => Prisma.sql`${id}::uuid`));
  const rows = await tx.$queryRaw<Array<{ user_id: string; name: string }>>`
    SELECT DISTINCT granted.user_id, p.name
    FROM (
      SELECT ur.user_id, ur.role_id FROM user_roles ur
      WHERE ur.tenant_id = ${tenantId}::uuid AND ur.user_id IN (${ids})
      UNION
      SELECT gu.user_id, gr.role_id FROM group_users gu
      JOIN group_roles gr ON gr.tenant_id = gu.tenant_id AND gr.group_id = gu.group_id
      WHERE gu.tenant_id = ${tenantId}::uuid AND gu.user_id IN (${ids})
    ) granted
    JOIN role_permissions rp ON rp.tenant_id = ${tenantId}::uuid AND rp.role_id = granted.role_id
    JOIN permissions p ON p.id = rp.permission_id
    ORDER BY p.name`;
  for (const row of rows) result.get(row.user_id)?.push(row.name);
  return result;
};
