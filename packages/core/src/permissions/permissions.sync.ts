import type { Db } from "@hisob/db";
import { listPermissions } from "@hisob/kernel";

/**
 * Writes the code's permission registry into the permissions table (new names added,
 * descriptions refreshed). Run at every start, before anything grants permissions.
 */
export const syncPermissions = async (db: Db): Promise<number> => {
  const definitions = listPermissions();
  await db.withPlatform(async (tx) => {
    await tx.permission.createMany({
      data: definitions.map(({ name, resource, action, modifier, description }) => ({
        name,
        resource,
        action,
        modifier,
        description,
      })),
      skipDuplicates: true,
    });
    const stored = await tx.permission.findMany({ select: { name: true, description: true } });
    const wanted = new Map<string, string>(definitions.map((d) => [d.name, d.description]));
    for (const row of stored) {
      const description = wanted.get(row.name);
      if (description !== undefined && description !== row.description) {
        await tx.permission.update({ where: { name: row.name }, data: { description } });
      }
    }
  });
  return definitions.length;
};
