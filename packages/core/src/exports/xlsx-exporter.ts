import { once } from "node:events";
import { finished, type Writable } from "node:stream";
import { type Locale, minorToMajorString } from "@hisob/kernel";
import { addWorksheetWithBackpressure } from "./worksheet-backpressure";

/**
 * The one spreadsheet exporter (users now, every finance list and report later). Built on exceljs's
 * streaming WorkbookWriter: each row is committed to the zip stream as soon as it is written, rows
 * arrive in batches from an async iterator, and the producer waits whenever compression falls behind
 * (see worksheet-backpressure.ts), so memory stays flat however many rows there are.
 * Cells carry real types: dates are dates, money is a number with the currency's format, flags
 * are booleans. The header row is frozen, has an auto-filter, and columns get sensible widths.
 */

export type Money = { minor: bigint; currency: string; minorUnits: number };
export type CellValue = string | number | boolean | Date | Money | null;

export type ExportColumn<Row> = {
  /** Header text, already in the reader's language. */
  header: string;
  kind: "text" | "integer" | "date" | "datetime" | "money" | "boolean";
  /** Width in characters; defaults by kind. */
  width?: number;
  value: (row: Row) => CellValue;
  /**
   * In a total row (see `ExportSheet.isTotal`), a money column marked "sum" is written as
   * SUBTOTAL(9, …) over the rows since the previous total row, with the exact figure as its cached
   * result: the total checks itself, and SUBTOTAL over the whole column skips total rows, so the
   * column sums to the detail once.
   */
  total?: "sum";
};

/** One worksheet of an export. */
export type ExportSheet<Row> = {
  name: string;
  columns: ExportColumn<Row>[];
  /** Batches of rows, e.g. one page of a keyset query at a time. */
  rows: AsyncIterable<Row[]>;
  /** A total row closes the block of rows above it: bold, its "sum" columns as formulas. */
  isTotal?: (row: Row) => boolean;
};

/** A sheet whatever its row type: a workbook's sheets each have their own. */
// biome-ignore lint/suspicious/noExplicitAny: each sheet of a workbook has its own row type
export type AnyExportSheet = ExportSheet<any>;

const DEFAULT_WIDTH: Record<ExportColumn<unknown>["kind"], number> = {
  text: 24,
  integer: 12,
  date: 12,
  datetime: 18,
  money: 18,
  boolean: 10,
};

/**
 * Dates as the reader's language writes them on screen (packages/ui's formatDate): "Mar 6, 2026" in
 * English, dd.mm.yyyy in Russian and Uzbek, with a 24-hour clock. The cells stay real dates (they
 * sort and filter as dates); only their display follows the language.
 */
export const DATE_FORMATS: Record<Locale, { date: string; datetime: string }> = {
  en: { date: "mmm d, yyyy", datetime: "mmm d, yyyy hh:mm" },
  ru: { date: "dd.mm.yyyy", datetime: "dd.mm.yyyy hh:mm" },
  uz: { date: "dd.mm.yyyy", datetime: "dd.mm.yyyy hh:mm" },
};

const formatOf = (kind: ExportColumn<unknown>["kind"], locale: Locale): string | undefined =>
  kind === "integer" ? "0" : kind === "date" || kind === "datetime" ? DATE_FORMATS[locale][kind] : undefined;

/**
 * An Excel number format for a currency: thousands separators, its minor units, its code ("UZS",
 * "USD": the apps show codes, never symbols such as "soʻm" or "$", so a file reads like the screen).
 */
export const moneyFormat = (minorUnits: number, currency: string): string => {
  const decimals = minorUnits > 0 ? `.${"0".repeat(minorUnits)}` : "";
  const escaped = currency.replace(/"/g, "");
  return `#,##0${decimals} "${escaped}";-#,##0${decimals} "${escaped}"`;
};

const isMoney = (value: CellValue): value is Money =>
  typeof value === "object" && value !== null && !(value instanceof Date) && "minor" in value;

/** Excel's column letters for a 1-based index (1 → A, 27 → AA). */
const columnLetter = (index: number): string => {
  let letters = "";
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
};

/** A single-sheet export (lists). */
export const writeXlsx = async <Row>(options: {
  output: Writable;
  /** The reader's language: how dates are shown. */
  locale: Locale;
  sheetName: string;
  columns: ExportColumn<Row>[];
  /** Batches of rows, e.g. one page of a keyset query at a time. */
  rows: AsyncIterable<Row[]>;
}): Promise<{ rowCount: number }> =>
  writeXlsxSheets({
    output: options.output,
    locale: options.locale,
    sheets: [{ name: options.sheetName, columns: options.columns, rows: options.rows }],
  });

/** An export of one or more sheets, written one after the other; rowCount counts every sheet's rows. */
export const writeXlsxSheets = async (options: {
  output: Writable;
  /** The reader's language: how dates are shown. */
  locale: Locale;
  sheets: AnyExportSheet[];
}): Promise<{ rowCount: number }> => {
  // Loaded on the first export, not at start: exceljs and its zip/XML dependencies are code an idle
  // server never runs (alone, importing it adds 28 MiB RSS after a full GC; bench/HISTORY.md).
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: options.output,
    useStyles: true,
    useSharedStrings: false, // shared strings are held in memory until the end
  });

  // If the output is destroyed (the client went away) or fails, stop: nothing would drain any more,
  // and the waits below (and exceljs's own wait for the output's 'finish') would hang for ever.
  const outputGone = new AbortController();
  const stopWatching = finished(options.output, { readable: false }, (error) => {
    if (error) outputGone.abort(error);
  });
  const aborted = new Promise<never>((_, reject) => {
    outputGone.signal.addEventListener("abort", () => reject(outputGone.signal.reason), { once: true });
  });
  aborted.catch(() => {}); // observed where it is raced; never an unhandled rejection

  let rowCount = 0;
  try {
    for (const spec of options.sheets) {
      // Sheet names: at most 31 characters, none of []:*?/\
      const { sheet, entry } = addWorksheetWithBackpressure(
        workbook,
        spec.name.replace(/[[\]:*?/\\]/g, " ").slice(0, 31),
        { views: [{ state: "frozen", ySplit: 1 }] },
      );
      sheet.columns = spec.columns.map((column, index) => {
        const numFmt = formatOf(column.kind, options.locale);
        return {
          header: column.header,
          key: String(index),
          width: column.width ?? Math.max(DEFAULT_WIDTH[column.kind], Math.min(40, column.header.length + 4)),
          ...(numFmt ? { style: { numFmt } } : {}),
        };
      });
      const header = sheet.getRow(1);
      header.font = { bold: true };
      header.commit();
      sheet.autoFilter = {
        from: { row: 1, column: 1 },
        to: { row: 1, column: Math.max(1, spec.columns.length) },
      };
      let rowNumber = 1;
      let blockStart = 2;
      for await (const batch of spec.rows) {
        for (const record of batch) {
          rowNumber++;
          const isTotal = spec.isTotal?.(record) === true;
          const values = spec.columns.map((column) => column.value(record));
          const row = sheet.addRow(
            values.map((value, index) => {
              if (!isMoney(value)) return value;
              const result = Number(minorToMajorString(value.minor, value.minorUnits));
              const column = spec.columns[index];
              if (!isTotal || column?.total !== "sum") return result;
              const letter = columnLetter(index + 1);
              const range =
                blockStart < rowNumber ? `${letter}${blockStart}:${letter}${rowNumber - 1}` : null;
              // exceljs 4.4 drops a cached result of 0 (readers would see an empty cell): a zero total stays a number.
              return range && result !== 0 ? { formula: `SUBTOTAL(9,${range})`, result } : result;
            }),
          );
          values.forEach((value, index) => {
            // Per cell: one money column may hold several currencies (each keeps its own format).
            if (isMoney(value)) row.getCell(index + 1).numFmt = moneyFormat(value.minorUnits, value.currency);
          });
          if (isTotal) {
            row.font = { bold: true };
            blockStart = rowNumber + 1;
          }
          row.commit();
          rowCount++;
          // Backpressure: while zlib (or, behind it, the reader) is behind, wait instead of piling up
          // uncompressed XML. The wait also gives the event loop to other requests.
          if (entry.writableNeedDrain)
            await once(entry, "drain", { signal: outputGone.signal }).catch((error: unknown) => {
              throw outputGone.signal.aborted ? outputGone.signal.reason : error;
            });
        }
      }
      sheet.commit();
    }
    await Promise.race([workbook.commit(), aborted]);
    return { rowCount };
  } finally {
    stopWatching();
  }
};

export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A spreadsheet ready to stream: permission and input were checked when it was made. */
export type PreparedExport = {
  fileName: string;
  /**
   * Runs the export's first query. A route awaits it before answering, so a query that cannot run
   * fails with a proper status instead of cutting a download whose 200 was already sent.
   */
  open(): Promise<void>;
  write(output: Writable): Promise<{ rowCount: number }>;
};

/**
 * Batches whose first one is already fetched (its failure surfaces here, not mid-stream). `close`
 * ends the source's iteration, so what it holds (a cursor's transaction) is let go even when the
 * writer stopped before reading it to the end.
 */
const withFirstBatch = async <Row>(
  rows: AsyncIterable<Row[]>,
): Promise<AsyncIterable<Row[]> & { close(): Promise<void> }> => {
  const iterator = rows[Symbol.asyncIterator]();
  const head = await iterator.next();
  return {
    close: async () => {
      await iterator.return?.();
    },
    async *[Symbol.asyncIterator]() {
      if (head.done) return;
      yield head.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    },
  };
};

/** An export of `rows` (a function, so nothing runs until the download is opened). */
export const prepareXlsx = <Row>(options: {
  fileName: string;
  locale: Locale;
  sheetName: string;
  columns: ExportColumn<Row>[];
  rows: () => AsyncIterable<Row[]>;
}): PreparedExport => {
  let opened: ReturnType<typeof withFirstBatch<Row>> | undefined;
  const open = () => {
    opened ??= withFirstBatch(options.rows());
    return opened;
  };
  return {
    fileName: options.fileName,
    open: async () => {
      await open();
    },
    write: async (output) => {
      const rows = await open();
      try {
        return await writeXlsx({
          output,
          locale: options.locale,
          sheetName: options.sheetName,
          columns: options.columns,
          rows,
        });
      } finally {
        await rows.close();
      }
    },
  };
};

/**
 * A workbook of several sheets computed together (a report and its sections): `load` runs once, at
 * open, so a failure still gets a proper status; the sheets are then written from what it returned.
 */
export const prepareXlsxWorkbook = <Data>(options: {
  fileName: string;
  locale: Locale;
  load: () => Promise<Data>;
  sheets: (data: Data) => AnyExportSheet[];
}): PreparedExport => {
  let loaded: Promise<Data> | undefined;
  const open = () => {
    loaded ??= options.load();
    return loaded;
  };
  return {
    fileName: options.fileName,
    open: async () => {
      await open();
    },
    write: async (output) =>
      writeXlsxSheets({ output, locale: options.locale, sheets: options.sheets(await open()) }),
  };
};
