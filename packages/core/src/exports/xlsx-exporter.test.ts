import { Writable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { type ExportColumn, writeXlsx } from "./xlsx-exporter";

type Row = {
  id: number;
  email: string;
  name: string;
  active: boolean;
  createdAt: Date;
  balance: bigint;
  currency: "UZS" | "USD";
};

const BASE = Date.UTC(2024, 0, 1);
const row = (i: number): Row => ({
  id: i,
  email: `user${i}@example.com`,
  name: `Surname ${String(i % 2000).padStart(5, "0")}, Ism${i % 10}`,
  active: i % 17 !== 0,
  createdAt: new Date(BASE + i * 60_000),
  balance: BigInt(i) * 1234n - 500_000n,
  currency: i % 2 === 0 ? "UZS" : "USD",
});

const columns: ExportColumn<Row>[] = [
  { header: "ID", kind: "integer", value: (r) => r.id },
  { header: "Email", kind: "text", value: (r) => r.email },
  { header: "Name", kind: "text", value: (r) => r.name },
  { header: "Active", kind: "boolean", value: (r) => r.active },
  { header: "Created", kind: "datetime", value: (r) => r.createdAt },
  {
    header: "Balance",
    kind: "money",
    value: (r) =>
      r.currency === "UZS"
        ? { minor: r.balance, currency: "UZS", minorUnits: 2 }
        : { minor: r.balance, currency: "USD", minorUnits: 2 },
  },
];

const BATCH = 1_000;
/** `count` synthetic rows in keyset-sized batches; `onBatch` runs before each batch is handed over. */
async function* batches(count: number, onBatch: (index: number) => void = () => {}) {
  for (let start = 0, index = 0; start < count; start += BATCH, index++) {
    onBatch(index);
    yield Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => row(start + k));
  }
}

/** A reader that throws everything away, only counting bytes. */
const discard = () => {
  let bytes = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback();
    },
  });
  return { stream, bytes: () => bytes };
};

const collect = () => {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { stream, buffer: () => Buffer.concat(chunks) };
};

// A full, synchronous garbage collection (as bench/measure.ts does: the flag, then gc from a new context).
const gc = (() => {
  const global = globalThis as { gc?: () => void };
  if (global.gc) return global.gc;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

const retained = () => {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

/**
 * Exports `count` rows into a discarding reader. Before every fourth batch, with no pause that would
 * let compression catch up, it collects garbage and reads heap + external memory. Returns the
 * largest reading minus the one before the export started.
 */
const peakRetainedDuring = async (count: number) => {
  const sink = discard();
  const before = retained();
  let peak = before;
  const result = await writeXlsx({
    output: sink.stream,
    locale: "en",
    sheetName: "Memory",
    columns,
    rows: batches(count, (index) => {
      if (index % 4 === 3) peak = Math.max(peak, retained());
    }),
  });
  expect(result.rowCount).toBe(count);
  expect(sink.bytes()).toBeGreaterThan(count * 10); // compressed output came out
  return peak - before;
};

const MB = 1024 * 1024;

// Generous: the whole unit suite shares two cores, and the memory test forces a GC every few batches.
describe("writeXlsx", { timeout: 60_000 }, () => {
  it("writes typed cells, a frozen header with an auto-filter, across many backpressure waits", async () => {
    const count = 5_000; // ≈2 MB of sheet XML: several waits for zlib
    const sink = collect();
    const result = await writeXlsx({
      output: sink.stream,
      locale: "en",
      sheetName: "Users: a/b",
      columns,
      rows: batches(count),
    });
    expect(result.rowCount).toBe(count);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error("no sheet");
    expect(sheet.name).toBe("Users  a b");
    expect(sheet.rowCount).toBe(count + 1);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      "ID",
      "Email",
      "Name",
      "Active",
      "Created",
      "Balance",
    ]);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBe("A1:F1");
    for (const i of [0, 1, 2_345, count - 1]) {
      const cells = sheet.getRow(i + 2);
      const expected = row(i);
      expect(cells.getCell(1).value).toBe(i);
      expect(cells.getCell(2).value).toBe(expected.email);
      expect(cells.getCell(3).value).toBe(expected.name);
      expect(cells.getCell(4).value).toBe(expected.active);
      expect(cells.getCell(5).value).toEqual(expected.createdAt);
      expect(cells.getCell(5).numFmt).toBe("mmm d, yyyy hh:mm");
      expect(cells.getCell(6).value).toBe(Number(expected.balance) / 100);
      // The currency's code, as the apps show money: never a symbol ("soʻm", "$").
      expect(cells.getCell(6).numFmt).toBe(
        `#,##0.00 "${expected.currency}";-#,##0.00 "${expected.currency}"`,
      );
    }
  });

  it("shows dates as the reader's language writes them: dd.mm.yyyy in Russian and Uzbek", async () => {
    const dated: ExportColumn<{ day: Date; at: Date }>[] = [
      { header: "Day", kind: "date", value: (r) => r.day },
      { header: "At", kind: "datetime", value: (r) => r.at },
    ];
    const formats: Record<"en" | "ru" | "uz", [string, string]> = {
      en: ["mmm d, yyyy", "mmm d, yyyy hh:mm"],
      ru: ["dd.mm.yyyy", "dd.mm.yyyy hh:mm"],
      uz: ["dd.mm.yyyy", "dd.mm.yyyy hh:mm"],
    };
    for (const [locale, [date, datetime]] of Object.entries(formats) as [
      keyof typeof formats,
      [string, string],
    ][]) {
      const sink = collect();
      async function* one() {
        yield [{ day: new Date("2026-03-06T00:00:00Z"), at: new Date("2026-03-06T09:30:00Z") }];
      }
      await writeXlsx({ output: sink.stream, locale, sheetName: "Dates", columns: dated, rows: one() });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(sink.buffer() as unknown as ArrayBuffer);
      const cells = workbook.worksheets[0]?.getRow(2);
      expect(cells?.getCell(1).value, locale).toEqual(new Date("2026-03-06T00:00:00Z"));
      expect(cells?.getCell(1).numFmt, locale).toBe(date);
      expect(cells?.getCell(2).numFmt, locale).toBe(datetime);
    }
  });

  it("keeps memory flat as rows grow: 80k rows retain no more than 20k rows do", async () => {
    await peakRetainedDuring(2_000); // warm-up: modules, JIT, exceljs's style caches
    const at20k = await peakRetainedDuring(20_000);
    const at80k = await peakRetainedDuring(80_000);
    // Without backpressure the sheet's XML waited for zlib: ≈8 MB retained at 20k, ≈32 MB at 80k.
    // With it, both stay at about 2 MB: the bounded backlog plus the buffers in flight.
    expect(
      at80k - at20k,
      `20k: ${(at20k / MB).toFixed(1)} MB, 80k: ${(at80k / MB).toFixed(1)} MB`,
    ).toBeLessThan(4 * MB);
    expect(at80k).toBeLessThan(8 * MB);
  });

  it("pauses the producer while nobody reads, and fails instead of hanging when the output is destroyed", async () => {
    // A reader that never finishes a write: compressed output backs up into archiver, then zlib, then
    // the sheet's bounded entry, and the producer must stop pulling batches.
    const stuck = new Writable({ write() {} });
    let pulled = 0;
    let closed = false;
    async function* endless() {
      try {
        for (let start = 0; ; start += BATCH) {
          pulled++;
          yield Array.from({ length: BATCH }, (_, k) => row(start + k));
        }
      } finally {
        closed = true;
      }
    }
    const exporting = writeXlsx({
      output: stuck,
      locale: "en",
      sheetName: "Stuck",
      columns,
      rows: endless(),
    });
    const settled = exporting.then(
      () => "resolved",
      (error: unknown) => error,
    );
    // Wait until the stall is real, not a slow start: the reader has pushed back (its buffer is at the
    // high-water mark) and then the producer pulled nothing for a whole second. Without backpressure
    // the producer would keep pulling until the deadline and fail below.
    let last = -1;
    let quietPolls = 0;
    const deadline = Date.now() + 30_000;
    while (quietPolls < 10 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (pulled === last && stuck.writableNeedDrain) quietPolls++;
      else {
        quietPolls = 0;
        last = pulled;
      }
    }
    // What may wait is bounded: archiver's buffers (1 MiB each way, compressed), zlib's, and the
    // sheet entry's 256 KiB. Measured: it stalls after 50 batches (50k rows) of these rows.
    expect(quietPolls).toBe(10);
    expect(pulled * BATCH).toBeLessThan(100_000);
    expect(closed).toBe(false);

    stuck.destroy();
    const outcome = await settled;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as NodeJS.ErrnoException).code).toBe("ERR_STREAM_PREMATURE_CLOSE");
    expect(closed).toBe(true); // the row source was closed too (e.g. no more database batches)
  });
});
