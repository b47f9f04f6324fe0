// `npx tsx scripts/favicon.ts` draws packages/ui/public/favicon.svg at 16, 32 and 48 px in Chromium
// and writes them as packages/ui/public/favicon.ico (PNG images in an ICO file, which every current
// browser reads). Both apps' builds copy that folder; the server also answers /favicon.ico with it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { launchChromium } from "../e2e/browser";

const Args = z.tuple([], { error: "usage: favicon (no arguments)" });

const main = async () => {
  const parsed = Args.safeParse(process.argv.slice(2));
  if (!parsed.success) {
    console.error(parsed.error.issues[0]?.message);
    process.exit(2);
  }
  const dir = path.resolve(import.meta.dirname, "../packages/ui/public");
  const svg = readFileSync(path.join(dir, "favicon.svg"), "utf8");
  const browser = await launchChromium();
  const images: [number, Buffer][] = [];
  for (const size of [16, 32, 48]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<body style="margin:0">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}`,
    );
    images.push([size, await page.screenshot({ omitBackground: true, type: "png" })]);
  }
  await browser.close();
  // ICONDIR (reserved, type 1 = icon, count), one ICONDIRENTRY per image, then the PNGs.
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length + 16 * images.length;
  const entries = images.map(([size, png]) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size, 0);
    entry.writeUInt8(size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  writeFileSync(
    path.join(dir, "favicon.ico"),
    Buffer.concat([header, ...entries, ...images.map(([, png]) => png)]),
  );
  console.log("wrote packages/ui/public/favicon.ico");
};

await main();
