import type { Tx } from "@hisob/db";

/**
 * One stock truth: a SKU is counted either by finance's inventory or by the warehouse, never both. Each
 * side checks the other's table before it writes a SKU; this transaction-scoped lock on (tenant, SKU),
 * taken first on both sides, makes the check and the write one step, so two writers racing with the same
 * SKU from the two sides cannot both pass. It lives with the warehouse, which owns stock; finance
 * imports it through the `@hisob/warehouse/sku-lock` entry (this file alone, none of the services).
 */
export const lockSku = async (tx: Tx, tenantId: string, sku: string): Promise<void> => {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hisob.sku'), hashtext(${`${tenantId}:${sku}`}))`;
};
