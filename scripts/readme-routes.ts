// `npm run readme:routes` writes the README's route → permission tables from the operation catalogs;
// `npm run readme:routes -- --check` exits 1 when the README is out of date (a test checks it too).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { withRouteTables } from "../apps/server/src/docs/route-tables";

const Args = z.union([z.tuple([]), z.tuple([z.literal("--check")])], {
  error: "usage: readme-routes [--check]",
});

const parsed = Args.safeParse(process.argv.slice(2));
if (!parsed.success) {
  console.error(parsed.error.issues[0]?.message ?? "usage: readme-routes [--check]");
  process.exit(2);
}
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");
const readme = await readFile(file, "utf8");
const written = withRouteTables(readme);
if (parsed.data[0] === "--check") {
  if (written !== readme) {
    console.error("README.md's route tables are out of date: run npm run readme:routes");
    process.exit(1);
  }
  console.log("README.md's route tables are up to date");
} else {
  await writeFile(file, written);
  console.log("wrote README.md's route tables");
}
