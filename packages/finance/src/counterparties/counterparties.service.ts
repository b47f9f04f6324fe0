import { createRecordService, crudPermissions } from "@hisob/crud";
import type { Db, Outbox } from "@hisob/db";
import { type Clock, type Page, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import {
  type CounterpartyRow,
  counterpartyFilters,
  counterpartySelect,
  toDto,
} from "./counterparties.record";
import {
  COUNTERPARTY_SORT_FIELDS,
  type TCounterpartyDto,
  type TListCounterpartiesQuery,
  ZCreateCounterpartyInput,
  ZListCounterpartiesQuery,
  ZUpdateCounterpartyInput,
} from "./counterparties.schema";

export { counterpartiesWhere } from "./counterparties.record";

/**
 * Customers and suppliers, a record of the building block (`@hisob/crud`): permission first, the
 * tenant in every statement, NOT_FOUND for another organization's id, `Counterparty{Created,Updated,
 * Deleted}` in the outbox. Payments, expenses and debts refer to them; deleting one they refer to is
 * refused by the foreign keys, race-free. What is particular: the list's named filters (`type`, `tin`,
 * `search`) instead of the shared grammar, parsed here as the REST query and tRPC input send them.
 */
export const createCounterpartiesService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const records = createRecordService(
    {
      name: "Counterparty",
      auditEntity: "counterparty",
      missing: { reason: "finance.counterparty_not_found", message: "Counterparty not found" },
      permissions: crudPermissions("counterparties"),
      model: (tx) => tx.counterparty,
      select: counterpartySelect,
      toDto: (row: CounterpartyRow) => toDto(row),
      createInput: ZCreateCounterpartyInput,
      updateInput: ZUpdateCounterpartyInput,
      sortFields: COUNTERPARTY_SORT_FIELDS,
      filters: {},
      listWhere: (query) => counterpartyFilters(query as Parameters<typeof counterpartyFilters>[0]),
      conflicts: {
        inUse: {
          reason: "finance.counterparty_in_use",
          message: "Payments, expenses or debts refer to the counterparty; it cannot be deleted",
        },
      },
    },
    deps,
  );

  return {
    ...records,
    list: async (ctx: TenantContext, rawQuery: TListCounterpartiesQuery): Promise<Page<TCounterpartyDto>> => {
      requirePermission(ctx, "counterparties:read:all");
      return records.list(ctx, parseInput(ZListCounterpartiesQuery, rawQuery));
    },
  };
};

export type CounterpartiesService = ReturnType<typeof createCounterpartiesService>;
