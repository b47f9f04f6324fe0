import type { Tx } from "@hisob/db";
import type { TDebtHistoryEntryDto } from "./debts.schema";

/*
 * A debt's history is read from the audit log, which every change of a debt writes in its own
 * transaction (debts.service, debt-settlements.service): nothing can change a debt without an entry,
 * and an entry cannot be altered, so the history needs no table of its own.
 */

const ACTIONS: Record<string, TDebtHistoryEntryDto["action"]> = {
  create: "created",
  update: "updated",
  settle: "settled",
  reverse_settlement: "settlement_reversed",
  write_off: "written_off",
};

type Change = Record<string, unknown> | null;

const text = (value: unknown): string | null =>
  typeof value === "string" || typeof value === "number" || typeof value === "bigint" ? String(value) : null;

const isoDate = (value: unknown): string | null => {
  const date = text(value);
  return date && /^\d{4}-\d{2}-\d{2}/.test(date) ? date.slice(0, 10) : null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = (value: unknown): string | null => {
  const id = text(value);
  return id && UUID.test(id) ? id : null;
};

/** The facts one audit entry of a debt carries, by action (see what each service writes). */
const factsOf = (action: TDebtHistoryEntryDto["action"], before: Change, after: Change) => {
  switch (action) {
    case "created":
      return { amount: text(after?.amount), date: null, settlementId: null, reason: null, fields: [] };
    case "settled":
      return {
        amount: text(after?.amount),
        date: isoDate(after?.date),
        settlementId: uuid(after?.settlementId),
        reason: null,
        fields: [],
      };
    case "settlement_reversed":
      return {
        amount: text(before?.amount),
        date: isoDate(before?.date),
        settlementId: uuid(before?.settlementId),
        reason: null,
        fields: [],
      };
    case "written_off":
      return {
        amount: text(after?.amount),
        date: null,
        settlementId: null,
        reason: text(after?.reason),
        fields: [],
      };
    case "updated":
      return {
        amount: null,
        date: null,
        settlementId: null,
        reason: null,
        fields: Object.keys(after ?? {}).sort(),
      };
  }
};

/** Every entry of the debt, oldest first, with the acting user's name (email when it has none). */
export const readDebtHistory = async (
  tx: Tx,
  tenantId: string,
  debtId: string,
): Promise<TDebtHistoryEntryDto[]> => {
  const rows = await tx.auditEntry.findMany({
    where: { tenantId, entity: "debt", entityId: debtId, action: { in: Object.keys(ACTIONS) } },
    orderBy: [{ occurredAt: "asc" }, { id: "asc" }],
    select: { id: true, occurredAt: true, userId: true, action: true, before: true, after: true },
  });
  const userIds = [...new Set(rows.map((row) => row.userId).filter((id): id is string => id !== null))];
  const users =
    userIds.length === 0
      ? []
      : await tx.user.findMany({
          where: { tenantId, id: { in: userIds } },
          select: { id: true, email: true, firstName: true, lastName: true },
        });
  const names = new Map(
    users.map((user) => [user.id, `${user.firstName} ${user.lastName}`.trim() || user.email]),
  );
  return rows.flatMap((row) => {
    const action = ACTIONS[row.action];
    if (!action) return [];
    return [
      {
        id: row.id,
        action,
        at: row.occurredAt.toISOString(),
        userId: row.userId,
        userName: row.userId ? (names.get(row.userId) ?? null) : null,
        ...factsOf(action, row.before as Change, row.after as Change),
      },
    ];
  });
};
