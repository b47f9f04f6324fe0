// `npm run graphql:schema` writes the served GraphQL schema (SDL) to packages/graphql/schema.graphql;
// `npm run graphql:schema -- --check` exits 1 when the checked-in file differs (CI; a test checks it too).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { printServedSchema, SDL_PATH } from "../packages/graphql/src/sdl";

const Args = z.union([z.tuple([]), z.tuple([z.literal("--check")])], {
  error: "usage: graphql-schema [--check]",
});

const main = async () => {
  const parsed = Args.safeParse(process.argv.slice(2));
  if (!parsed.success) {
    console.error(parsed.error.issues[0]?.message ?? "usage: graphql-schema [--check]");
    process.exit(2);
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const file = path.join(root, SDL_PATH);
  const sdl = printServedSchema();
  if (parsed.data[0] === "--check") {
    const current = await readFile(file, "utf8").catch(() => "");
    if (current !== sdl) {
      console.error(`${SDL_PATH} is out of date: run npm run graphql:schema`);
      process.exit(1);
    }
    console.log(`${SDL_PATH} is up to date`);
    return;
  }
  await writeFile(file, sdl);
  console.log(`wrote ${SDL_PATH}`);
};

await main();
