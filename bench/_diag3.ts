import { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { setImmediate as yieldLoop } from "node:timers/promises";
import ExcelJS from "exceljs";

const run = async (mode: "none" | "microtask" | "immediate") => {
  const writes: number[] = [];
  let ticks = 0;
  const tick = setInterval(() => ticks++, 20);
  const t = performance.now();
  let peakHeap = 0;
  const sink = new Writable({
    write(c: Buffer, _e, cb) {
      writes.push(performance.now() - t);
      cb();
    },
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = wb.addWorksheet("S");
  sheet.columns = [
    { header: "a", key: "a" },
    { header: "b", key: "b" },
    { header: "c", key: "c" },
  ];
  for (let b = 0; b < 100; b++) {
    for (let i = 0; i < 1000; i++)
      sheet.addRow([`user${b * 1000 + i}@example.com`, "Surname 01234", new Date()]).commit();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (mode === "microtask") await Promise.resolve();
    if (mode === "immediate") await yieldLoop();
  }
  sheet.commit();
  await wb.commit();
  await finished(sink);
  clearInterval(tick);
  console.log(
    mode,
    "ms",
    (performance.now() - t).toFixed(0),
    "ticks",
    ticks,
    "writes",
    writes.length,
    "first/median",
    writes[0]?.toFixed(0),
    writes[Math.floor(writes.length / 2)]?.toFixed(0),
    "peak heap MB",
    (peakHeap / 1048576).toFixed(0),
  );
};
const main = async () => {
  await run("microtask");
  await run("immediate");
  await run("microtask");
};
main().then(() => process.exit(0));
