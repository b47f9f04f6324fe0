// Shared by every finance download: currency formats, localized headers and labels, file names.
import { type ExportColumn, listRows, type PreparedExport, prepareXlsx } from "@hisob/core";
import type { Db, Tx } from "@hisob/db";
import { type MessageKey, type Messages, t } from "@hisob/i18n";
import type { Locale, TenantContext } from "@hisob/kernel";

export type { PreparedExport };

export type CurrencyFormat = { minorUnits: number };

/** Minor units of every currency (money cells carry their own currency's format). */
export const loadCurrencyFormats = async (db: Db): Promise<Map<string, CurrencyFormat>> => {
  const rows = await db.withPlatform((tx) =>
    tx.currency.findMany({ select: { code: true, minorUnits: true } }),
  );
  return new Map(rows.map((row) => [row.code, { minorUnits: row.minorUnits }]));
};

/**
 * A money cell: the amount in major units, formatted with the currency's digits and its code, as
 * the apps show money ("1 234,56 UZS"; never a symbol such as "soʻm" or "$").
 */
export const moneyCell = (formats: Map<string, CurrencyFormat>, minor: bigint | string, currency: string) => {
  const format = formats.get(currency) ?? { minorUnits: 2 };
  return { minor: BigInt(minor), currency, minorUnits: format.minorUnits };
};

export const exportFileName = (base: string, day: string) => `${base}-${day}.xlsx`;

/** One batch of rows that are already in memory (reports: a handful of aggregate rows). */
export async function* inMemory<Row>(rows: Row[]): AsyncGenerator<Row[]> {
  if (rows.length > 0) yield rows;
}

type FinanceExportTexts = Messages["export"]["finance"];
export type ColumnKey = keyof FinanceExportTexts["columns"];

/** A localized column header. */
export const header = (locale: Locale, key: ColumnKey) => t(locale, `export.finance.columns.${key}`);
export const typeLabel = (locale: Locale, key: keyof FinanceExportTexts["types"]) =>
  t(locale, `export.finance.types.${key}`);
export const rowLabel = (locale: Locale, key: keyof FinanceExportTexts["rows"]) =>
  t(locale, `export.finance.rows.${key}`);
export const labelOf = <G extends "debtKinds" | "debtStatuses" | "counterpartyTypes">(
  locale: Locale,
  group: G,
  key: keyof FinanceExportTexts[G] & string,
) => t(locale, `export.finance.${group}.${key}` as MessageKey);
export const sheetName = (locale: Locale, key: keyof FinanceExportTexts["sheets"]) =>
  t(locale, `export.finance.sheets.${key}`);

export const prepared = <Row>(options: {
  fileName: string;
  locale: Locale;
  sheet: string;
  columns: ExportColumn<Row>[];
  rows: () => AsyncIterable<Row[]>;
}): PreparedExport =>
  prepareXlsx({
    fileName: options.fileName,
    locale: options.locale,
    sheetName: options.sheet,
    columns: options.columns,
    rows: options.rows,
  });

/**
 * A list's download: one sheet (and file) named for the list, its rows in keyset batches in the
 * list's filter and order (`after(last)` is the keyset condition; `find` runs one batch).
 */
export const listSheet = <Row, Where extends object>(
  db: Db,
  ctx: TenantContext,
  day: string,
  options: {
    list: keyof FinanceExportTexts["sheets"] & string;
    columns: ExportColumn<Row>[];
    where: Where;
    after: (last: Row) => Where;
    find: (tx: Tx, args: { where: Where | { AND: Where[] }; take: number; skip?: number }) => Promise<Row[]>;
    query: { limit?: number | undefined; offset: number };
  },
): PreparedExport =>
  prepared({
    fileName: exportFileName(options.list, day),
    locale: ctx.locale,
    sheet: sheetName(ctx.locale, options.list),
    columns: options.columns,
    rows: listRows<Row, Where>(db, ctx.tenantId, {
      where: options.where,
      after: options.after,
      find: options.find,
      limit: options.query.limit,
      offset: options.query.offset,
    }),
  });

/** The columns several lists show alike: a record's currency, description and creation time. */
export const currencyColumn = <Row extends { currencyCode: string }>(locale: Locale): ExportColumn<Row> => ({
  header: header(locale, "currency"),
  kind: "text",
  width: 10,
  value: (row) => row.currencyCode,
});
export const descriptionColumn = <Row extends { description: string }>(
  locale: Locale,
): ExportColumn<Row> => ({
  header: header(locale, "description"),
  kind: "text",
  width: 40,
  value: (row) => row.description,
});
export const createdAtColumn = <Row extends { createdAt: Date }>(locale: Locale): ExportColumn<Row> => ({
  header: header(locale, "createdAt"),
  kind: "datetime",
  value: (row) => row.createdAt,
});
