// Writes a gzip copy beside every compressible file of a built web app (`<file>.gz`), once at build
// time at the highest level, so the server hands browsers the compressed bytes without spending CPU
// per request (apps/server/src/transports/rest/spa.ts serves them when the browser accepts gzip).
// Usage: node scripts/precompress.mjs <dir>
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt", ".map"]);
const MIN_BYTES = 1024;

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );

const root = process.argv[2];
if (!root) throw new Error("usage: node scripts/precompress.mjs <dir>");
let files = 0;
for (const file of walk(root)) {
  if (!COMPRESSIBLE.has(path.extname(file)) || statSync(file).size < MIN_BYTES) continue;
  const zipped = gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION });
  writeFileSync(`${file}.gz`, zipped);
  files++;
}
console.log(`precompressed ${files} files in ${root}`);
