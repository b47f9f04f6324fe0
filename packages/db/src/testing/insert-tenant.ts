import { newId } from "@hisob/kernel";
import type { Db } from "../create-db";

/**
 * A bare tenant row for tests below the core module, written the way provisioning writes it: inside
 * the new tenant's own transaction (the tenant role may insert exactly the row it is scoped to).
 */
export const insertTenant = (db: Db, name: string) => {
  const id = newId();
  return db.withTenant(id, (tx) => tx.tenant.create({ data: { id, name } }));
};
