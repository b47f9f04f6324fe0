import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";

/**
 * Backpressure for exceljs 4.4's streaming worksheet, which has none of its own.
 *
 * How the rows travel (read in node_modules, measured with a counting sink): `row.commit()` writes the
 * row's XML into the sheet's StreamBuf (exceljs lib/utils/stream-buf.js, batch mode, 64 KiB buffers).
 * Each full buffer is written to the zip entry's input and the return value of `write` is ignored.
 * That input is a PassThrough that archiver-utils' `normalizeInputSource` puts in front of any stream
 * without `_readableState`, as StreamBuf is. It feeds zlib (compress-commons' DeflateCRC32Stream),
 * then archiver, then our output. zlib is asynchronous: one chunk in the thread pool per turn of the
 * event loop. A producer that yields once per batch of 1,000 rows (≈400 KB of XML) therefore gets
 * ≈40 KB compressed per batch. The rest waits, uncompressed, in that PassThrough: 39 MB at 100k rows
 * (≈0.4 KB per row). Nothing leaks: it is all compressed in `workbook.commit()`, which is why the
 * output only appeared at the end. StreamBuf itself never held more than one 64 KiB buffer.
 *
 * The fix is backpressure from our side, keeping exceljs's writer as it is. While the worksheet is
 * being created, we catch the one stream it hands to archiver's public `append`. We put our own
 * PassThrough in front of it, doing the job normalizeInputSource would have done, so we own a
 * Node stream with a bounded, observable buffer. The exporter waits for its `drain` whenever it is
 * full. The output's own backpressure arrives through the same buffer: a slow reader stalls archiver,
 * then zlib, then this PassThrough. We chose this over patching StreamBuf (it keeps nothing it has
 * already passed on) and over a fork. It relies on `workbook.zip` (archiver) and on exceljs opening
 * the sheet's stream inside `addWorksheet`. If either changes, `addWorksheet` below throws instead of
 * silently losing the bound; xlsx-exporter.test.ts checks both the bound and the file.
 */

/** Uncompressed XML that may wait for zlib before the producer pauses. */
export const SHEET_BACKLOG_BYTES = 256 * 1024;

type Archive = { append(source: unknown, data: unknown): unknown };
type Pipeable = { pipe(destination: NodeJS.WritableStream): unknown };

const isPipeable = (value: unknown): value is Pipeable =>
  typeof value === "object" &&
  value !== null &&
  !Buffer.isBuffer(value) &&
  typeof (value as Partial<Pipeable>).pipe === "function";

/**
 * `workbook.addWorksheet(name, options)` that also returns the sheet's zip-entry input. Rows committed
 * to the sheet end up there. Wait for its `drain` whenever `writableNeedDrain` is true.
 */
export const addWorksheetWithBackpressure = (
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  options: Partial<ExcelJS.AddWorksheetOptions>,
): { sheet: ExcelJS.Worksheet; entry: PassThrough } => {
  const archive = (workbook as unknown as { zip?: Archive }).zip;
  if (!archive || typeof archive.append !== "function")
    throw new Error("exceljs WorkbookWriter has no archiver `zip`: review worksheet-backpressure.ts");
  const append = archive.append;
  const ownAppend = Object.hasOwn(archive, "append");
  let entry: PassThrough | undefined;
  archive.append = function (this: Archive, source: unknown, data: unknown) {
    if (!entry && isPipeable(source)) {
      // Only the writable side is bounded. The readable side keeps Node's default, so it can wait
      // for zlib without holding much.
      entry = new PassThrough({ writableHighWaterMark: SHEET_BACKLOG_BYTES });
      source.pipe(entry);
      return append.call(this, entry, data);
    }
    return append.call(this, source, data);
  };
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = workbook.addWorksheet(name, options);
  } finally {
    if (ownAppend) archive.append = append;
    else delete (archive as Partial<Archive>).append; // back to archiver's prototype method
  }
  if (!entry)
    throw new Error(
      "exceljs did not open the worksheet stream in addWorksheet: review worksheet-backpressure.ts",
    );
  return { sheet, entry };
};
