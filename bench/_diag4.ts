import { Writable } from "node:stream";
import { setImmediate as yieldLoop } from "node:timers/promises";
import ExcelJS from "exceljs";

const main = async () => {
  let out = 0;
  const sink = new Writable({
    write(c: Buffer, _e, cb) {
      out += c.length;
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
  for (let b = 1; b <= 100; b++) {
    for (let i = 0; i < 1000; i++)
      sheet.addRow([`user${b * 1000 + i}@example.com`, "Surname 01234", new Date()]).commit();
    await yieldLoop();
    if (b % 25 === 0) {
      // biome-ignore lint/suspicious/noExplicitAny: diag
      const s = (sheet as any)._stream;
      // biome-ignore lint/suspicious/noExplicitAny: diag
      const buffered = s.buffers.reduce((n: number, c: any) => n + (c.length ?? 0), 0);
      console.log(
        `rows ${b * 1000}: sheet StreamBuf paused=${s.paused} pipes=${s.pipes.length} chunks=${s.buffers.length} buffered≈${(buffered / 1048576).toFixed(1)} MB; bytes out so far ${out}`,
      );
    }
  }
  sheet.commit();
  await wb.commit();
  console.log("after commit: bytes out", out);
};
main().then(() => process.exit(0));
