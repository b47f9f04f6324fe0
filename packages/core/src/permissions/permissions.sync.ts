import type { Db } from "@hisob/db";
import { listPermissions } from "@hisob/kernel";
import { ADMIN_ROLE_NAME } from "../tenants/provision-tenant";

/**
 * Writes the code's permission registry into the permissions table (new names added, descriptions
 * refreshed) and gives permissions that are new to this database to every tenant's admin role.
 * Run at every start, before anything grants permissions. Returns the names that were new.
 */
export const syncPermissions = async (db: Db): Promise<string[]> => {
  const definitions = listPermissions();
  // Every start: read on the driver first, and go through Prisma only when something is to be written
  // (a new permission or description), so a restarted idle server has not loaded Prisma's query
  // compiler (see README, "Memory"). The writes below read again in their own transaction.
  const current = await db.rawTx.withPlatform((tx) =>
    tx.query<{ name: string; description: string }>("SELECT name, description FROM permissions"),
  );
  const stored = new Map(current.map((row) => [row.name, row.description]));
  if (definitions.every((definition) => stored.get(definition.name) === definition.description)) return [];
  const added = await db.withPlatform(async (tx) => {
    const stored = await tx.permission.findMany({ select: { name: true, description: true } });
    const known = new Map(stored.map((row) => [row.name, row.description]));
    const fresh = definitions.filter((definition) => !known.has(definition.name));
    await tx.permission.createMany({
      data: fresh.map(({ name, resource, action, modifier, description }) => ({
        name,
        resource,
        action,
        modifier,
        description,
      })),
      skipDuplicates: true,
    });
    for (const definition of definitions) {
      const description = known.get(definition.name);
      if (description !== undefined && description !== definition.description) {
        await tx.permission.update({
          where: { name: definition.name },
          data: { description: definition.description },
        });
      }
    }
    return fresh;
  });
  if (added.length > 0) {
    await db.system.grantToAdminRoles({
      roleName: ADMIN_ROLE_NAME,
      permissions: added.map((definition) => definition.name),
      platformOnly: added
        .filter((definition) => definition.platformOnly)
        .map((definition) => definition.name),
    });
  }
  return added.map((definition) => definition.name);
};
