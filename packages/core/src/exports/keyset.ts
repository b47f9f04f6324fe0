import type { Db, Tx } from "@hisob/db";
import { EXPORT_MAX_ROWS } from "@hisob/kernel";

export { EXPORT_MAX_ROWS };
const EXPORT_BATCH = 1_000;

/**
 * Rows in batches by keyset: each call gets the last row of the previous batch (undefined first).
 * Each batch is one short query, so memory holds one batch and a long export never holds a transaction.
 */
export async function* keysetBatches<Row>(
  fetch: (after: Row | undefined, take: number) => Promise<Row[]>,
  limit: number,
): AsyncGenerator<Row[]> {
  let last: Row | undefined;
  let remaining = Math.min(limit, EXPORT_MAX_ROWS);
  while (remaining > 0) {
    const take = Math.min(EXPORT_BATCH, remaining);
    const rows = await fetch(last, take);
    if (rows.length === 0) return;
    yield rows;
    remaining -= rows.length;
    if (rows.length < take) return;
    last = rows[rows.length - 1];
  }
}

/**
 * Rows strictly after `last` in (field, id) order — the keyset condition an index on (…, field, id)
 * serves. Prisma's own `cursor` turns a non-unique sort into a filter that rescans what came before.
 */
export const afterInOrder = <Row extends { id: string }>(
  field: keyof Row & string,
  last: Row,
  order: "asc" | "desc",
) => {
  const op = order === "asc" ? "gt" : "lt";
  return { OR: [{ [field]: { [op]: last[field] } }, { [field]: last[field], id: { [op]: last.id } }] };
};

/**
 * A list's rows for its download: the list's `where` and order, in keyset batches, each batch its
 * own tenant transaction. `after(last)` is the keyset condition; `find` runs one batch.
 */
export const listRows =
  <Row, Where extends object>(
    db: Db,
    tenantId: string,
    options: {
      where: Where;
      after: (last: Row) => Where;
      find: (
        tx: Tx,
        args: { where: Where | { AND: Where[] }; take: number; skip?: number },
      ) => Promise<Row[]>;
      limit: number | undefined;
      offset: number;
    },
  ) =>
  () =>
    keysetBatches<Row>(
      (last, take) =>
        db.withTenant(tenantId, (tx) =>
          options.find(tx, {
            where: last ? { AND: [options.where, options.after(last)] } : options.where,
            take,
            ...(last ? {} : { skip: options.offset }),
          }),
        ),
      options.limit ?? EXPORT_MAX_ROWS,
    );
