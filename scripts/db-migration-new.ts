// `npm run db:migration:new <name>`: writes prisma/migrations/<UTC YYYYMMDDHHMMSS>_<name>/migration.sql
// with the SQL that brings the migrations folder to schema.prisma. Replaces `prisma migrate dev
// --create-only`, whose native engine cannot be downloaded here. Review the SQL before committing.
import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { diffMigrationsToSchema, MIGRATION_LOCK_TOML, SchemaDiffError } from "../packages/db/src/schema-diff";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const migrationsDir = path.join(root, "prisma", "migrations");
const schemaPath = path.join(root, "prisma", "schema.prisma");

const Args = z.tuple(
  [
    z
      .string()
      .max(100, "the migration name must be at most 100 characters")
      .regex(/^[a-z0-9_]+$/, "the migration name may contain only lowercase letters, digits and underscores"),
  ],
  // A second argument is almost always a mistyped name with a space in it.
  z.never({ error: "expected exactly one argument, the migration name" }),
);

/** Expected failures: printed as one line, no stack trace. */
class UsageError extends Error {}

function utcTimestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function main(argv: string[]): Promise<void> {
  if (argv.length === 0) throw new UsageError("usage: npm run db:migration:new <name>  (e.g. add_invoices)");
  const parsed = Args.safeParse(argv);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`invalid arguments: ${issue?.message ?? "unknown problem"}`);
  }
  const [name] = parsed.data;

  const sql = await diffMigrationsToSchema({ migrationsDir, schemaPath });
  if (sql.trim() === "") {
    console.log("Schema and migrations agree; nothing to write.");
    return;
  }

  const dir = path.join(migrationsDir, `${utcTimestamp(new Date())}_${name}`);
  if (await exists(dir)) throw new UsageError(`${path.relative(root, dir)} already exists; try again`);
  await mkdir(dir, { recursive: true });
  const lockfile = path.join(migrationsDir, "migration_lock.toml");
  if (!(await exists(lockfile))) await writeFile(lockfile, MIGRATION_LOCK_TOML);
  const file = path.join(dir, "migration.sql");
  await writeFile(file, sql.endsWith("\n") ? sql : `${sql}\n`);
  console.log(`Wrote ${path.relative(root, file)}`);
}

// Engine messages span lines (and schema errors carry a code frame): keep the words, drop the frame.
function oneLine(message: string): string {
  return message
    .split("\n")
    .filter((line) => !/^\s*\d*\s*\|/.test(line))
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")
    .join(" ");
}

// Exit explicitly: nothing after the diff should keep the process alive.
main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof SchemaDiffError) {
      console.error(`db:migration:new: ${oneLine(error.message)}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
