import { afterInOrder, type ExportColumn } from "@hisob/core";
import { recordOrder, recordWhere } from "@hisob/crud";
import type { Db, Prisma } from "@hisob/db";
import { type Clock, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { toIsoDate } from "@hisob/kernel/schema";
import type { z } from "zod";
import {
  type CounterpartyRow,
  counterpartiesWhere,
  counterpartySelect,
} from "../counterparties/counterparties.record";
import { type DebtExportRow as DebtRow, debtExportSelect, debtRecord } from "../debts/debts.repository";
import {
  type InventoryItemRow as ItemRow,
  inventoryRecord,
  itemSelect,
} from "../inventory/inventory.repository";
import {
  ZExportCounterpartiesQuery,
  ZExportDebtsQuery,
  ZExportInventoryQuery,
} from "./export-queries.schema";
import {
  createdAtColumn,
  currencyColumn,
  descriptionColumn,
  header,
  labelOf,
  listSheet,
  loadCurrencyFormats,
  moneyCell,
  type PreparedExport,
} from "./sheet-helpers";

/* Debts, counterparties and inventory as spreadsheets: the list's filters and order, keyset batches. */

export { ZExportCounterpartiesQuery, ZExportDebtsQuery, ZExportInventoryQuery };

/**
 * Debts after `last` in the list's order, where debts without a due date come last either way:
 * after a dated row come the later dates, then its ties by id, then every undated one.
 */
const debtsAfter = (last: DebtRow, sortBy: string, order: "asc" | "desc"): Prisma.DebtWhereInput => {
  if (sortBy !== "dueDate") return afterInOrder(sortBy as keyof DebtRow & string, last, order);
  const op = order === "asc" ? "gt" : "lt";
  if (last.dueDate === null) return { dueDate: null, id: { [op]: last.id } };
  return {
    OR: [
      { dueDate: { [op]: last.dueDate } },
      { dueDate: last.dueDate, id: { [op]: last.id } },
      { dueDate: null },
    ],
  };
};

export const createRecordExports = (deps: { db: Db; clock: Clock }) => {
  const { db, clock } = deps;
  const today = () => toIsoDate(clock.now());

  return {
    debts: async (ctx: TenantContext, raw: z.input<typeof ZExportDebtsQuery>): Promise<PreparedExport> => {
      requirePermission(ctx, "debts:read:all");
      const query = parseInput(ZExportDebtsQuery, raw);
      const where = recordWhere(debtRecord, ctx.tenantId, query) as Prisma.DebtWhereInput;
      const formats = await loadCurrencyFormats(db);
      const money = (value: (row: DebtRow) => bigint) => (row: DebtRow) =>
        moneyCell(formats, value(row), row.currencyCode);
      const columns: ExportColumn<DebtRow>[] = [
        {
          header: header(ctx.locale, "kind"),
          kind: "text",
          width: 14,
          value: (row) => labelOf(ctx.locale, "debtKinds", row.kind),
        },
        { header: header(ctx.locale, "counterparty"), kind: "text", value: (row) => row.counterparty.name },
        { header: header(ctx.locale, "amount"), kind: "money", value: money((row) => row.amount) },
        { header: header(ctx.locale, "outstanding"), kind: "money", value: money((row) => row.outstanding) },
        currencyColumn(ctx.locale),
        { header: header(ctx.locale, "dueDate"), kind: "date", value: (row) => row.dueDate },
        {
          header: header(ctx.locale, "status"),
          kind: "text",
          width: 18,
          value: (row) => labelOf(ctx.locale, "debtStatuses", row.status),
        },
        descriptionColumn(ctx.locale),
        createdAtColumn(ctx.locale),
      ];
      return listSheet(db, ctx, today(), {
        list: "debts",
        columns,
        where,
        after: (last) => debtsAfter(last, query.sortBy, query.order),
        find: (tx, args) =>
          tx.debt.findMany({
            ...args,
            select: debtExportSelect,
            orderBy: recordOrder(debtRecord, [{ field: query.sortBy, order: query.order }], query.order),
          }),
        query,
      });
    },

    counterparties: async (
      ctx: TenantContext,
      raw: z.input<typeof ZExportCounterpartiesQuery>,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "counterparties:read:all");
      const query = parseInput(ZExportCounterpartiesQuery, raw);
      const where = counterpartiesWhere(ctx.tenantId, query);
      const columns: ExportColumn<CounterpartyRow>[] = [
        { header: header(ctx.locale, "name"), kind: "text", width: 32, value: (row) => row.name },
        { header: header(ctx.locale, "tin"), kind: "text", width: 14, value: (row) => row.tin },
        {
          header: header(ctx.locale, "type"),
          kind: "text",
          width: 18,
          value: (row) => labelOf(ctx.locale, "counterpartyTypes", row.type),
        },
        { header: header(ctx.locale, "phone"), kind: "text", width: 18, value: (row) => row.phone },
        { header: header(ctx.locale, "email"), kind: "text", width: 28, value: (row) => row.email },
        { header: header(ctx.locale, "address"), kind: "text", width: 40, value: (row) => row.address },
        { header: header(ctx.locale, "notes"), kind: "text", width: 40, value: (row) => row.notes },
        createdAtColumn(ctx.locale),
      ];
      return listSheet(db, ctx, today(), {
        list: "counterparties",
        columns,
        where,
        after: (last) => afterInOrder(query.sortBy, last, query.order),
        find: (tx, args) =>
          tx.counterparty.findMany({
            ...args,
            select: counterpartySelect,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
          }),
        query,
      });
    },

    inventory: async (
      ctx: TenantContext,
      raw: z.input<typeof ZExportInventoryQuery>,
    ): Promise<PreparedExport> => {
      requirePermission(ctx, "inventory:read:all");
      const query = parseInput(ZExportInventoryQuery, raw);
      const where = recordWhere(inventoryRecord, ctx.tenantId, query) as Prisma.InventoryItemWhereInput;
      const formats = await loadCurrencyFormats(db);
      const columns: ExportColumn<ItemRow>[] = [
        { header: header(ctx.locale, "name"), kind: "text", width: 32, value: (row) => row.name },
        { header: header(ctx.locale, "sku"), kind: "text", width: 16, value: (row) => row.sku },
        { header: header(ctx.locale, "unit"), kind: "text", width: 10, value: (row) => row.unit },
        // A number: quantities have at most 6 decimals, well within a double's exact range.
        {
          header: header(ctx.locale, "quantity"),
          kind: "text",
          width: 14,
          value: (row) => Number(row.quantity.toFixed()),
        },
        {
          header: header(ctx.locale, "unitPrice"),
          kind: "money",
          value: (row) => moneyCell(formats, row.unitPrice, row.currencyCode),
        },
        currencyColumn(ctx.locale),
        descriptionColumn(ctx.locale),
        createdAtColumn(ctx.locale),
      ];
      return listSheet(db, ctx, today(), {
        list: "inventory",
        columns,
        where,
        after: (last) => afterInOrder(query.sortBy, last, query.order),
        find: (tx, args) =>
          tx.inventoryItem.findMany({
            ...args,
            select: itemSelect,
            orderBy: recordOrder(inventoryRecord, [{ field: query.sortBy, order: query.order }], query.order),
          }),
        query,
      });
    },
  };
};
