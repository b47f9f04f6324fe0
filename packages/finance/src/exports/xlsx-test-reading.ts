import { PassThrough } from "node:stream";
import type { PreparedExport } from "@hisob/core";
import ExcelJS from "exceljs";

/*
 * Reading back what a download wrote, for the tests that check a file against its JSON report (the
 * reports' and the books' reports' integration tests).
 */

/** The workbook a download writes. */
export const workbookOf = async (file: PreparedExport) => {
  await file.open();
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => stream.on("end", resolve));
  await file.write(stream);
  await done;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return workbook;
};

/** A cell's value; a formula cell's cached result. */
export const cellValue = (cell: unknown): unknown =>
  cell && typeof cell === "object" && "result" in cell ? cell.result : cell;

/** The rows under the header, each as its cells' values. */
export const bodyRows = (sheet: ExcelJS.Worksheet | undefined): unknown[][] =>
  sheet
    ? (sheet.getRows(2, sheet.rowCount - 1) ?? []).map((row) =>
        (row.values as unknown[]).slice(1).map(cellValue),
      )
    : [];

/** A money cell (two decimals) back in minor units; empty is zero. */
export const minorOf = (value: unknown) => (typeof value === "number" ? BigInt(Math.round(value * 100)) : 0n);
