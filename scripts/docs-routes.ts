// `npm run docs:routes` writes the route → permission tables of docs/api/*.md from the operation catalogs;
// `npm run docs:routes -- --check` exits 1 when a table is out of date (a test checks it too).
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { withRouteTables } from "../apps/server/src/docs/route-tables";

const Args = z.union([z.tuple([]), z.tuple([z.literal("--check")])], {
  error: "usage: docs-routes [--check]",
});

const parsed = Args.safeParse(process.argv.slice(2));
if (!parsed.success) {
  console.error(parsed.error.issues[0]?.message ?? "usage: docs-routes [--check]");
  process.exit(2);
}
const apiDocs = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "docs", "api");
const stale: string[] = [];
for (const name of (await readdir(apiDocs)).filter((file) => file.endsWith(".md"))) {
  const file = path.join(apiDocs, name);
  const text = await readFile(file, "utf8");
  const written = withRouteTables(text);
  if (written === text) continue;
  stale.push(`docs/api/${name}`);
  if (parsed.data[0] !== "--check") await writeFile(file, written);
}
if (parsed.data[0] === "--check" && stale.length > 0) {
  console.error(`route tables out of date in ${stale.join(", ")}: run npm run docs:routes`);
  process.exit(1);
}
console.log(stale.length === 0 ? "the route tables are up to date" : `wrote ${stale.join(", ")}`);
