// The embedded database allows one process per data directory. In-process checks use the lock
// directly; the cross-process check starts a real second process that tries to open the same
// directory with createDb while this one has it open.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./create-db";
import { lockDataDir } from "./data-dir-lock";
import { DatabaseSetupError } from "./errors";
import { insertTenant } from "./testing/insert-tenant";

const root = path.resolve(import.meta.dirname, "../../..");
const tempRoot = mkdtempSync(path.join(tmpdir(), "hisob-lock-"));
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

let dirs = 0;
const newDir = () => path.join(tempRoot, `data-${++dirs}`);

const lockError = async (promise: Promise<unknown>): Promise<DatabaseSetupError> => {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DatabaseSetupError);
  return error as DatabaseSetupError;
};

describe("lockDataDir", () => {
  it("refuses a second lock, naming the holder's purpose and pid; after release it can be taken again", async () => {
    const dir = newDir();
    const first = await lockDataDir(dir, "the Hisob server");
    const error = await lockError(lockDataDir(dir, "a CLI command"));
    expect(error.message).toContain(
      `The embedded database in ${dir} is in use by the Hisob server (pid ${process.pid})`,
    );
    expect(error.message).toContain("one process at a time");

    await first.release();
    const second = await lockDataDir(dir, "a CLI command");
    const again = await lockError(lockDataDir(dir, "the Hisob server"));
    expect(again.message).toContain(`in use by a CLI command (pid ${process.pid})`);
    await second.release();
  });

  it("is one lock for every spelling of the folder, kept beside it", async () => {
    const dir = newDir();
    const lock = await lockDataDir(`${dir}/`, "the Hisob server");
    expect(existsSync(`${dir}.lock`)).toBe(true);
    expect(existsSync(path.join(dir, ".lock"))).toBe(false);
    await lockError(lockDataDir(dir, "a CLI command"));
    await lockError(lockDataDir(path.join(dir, "..", path.basename(dir)), "a CLI command"));
    await lock.release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("release is idempotent and forgets the owner", async () => {
    const dir = newDir();
    const lock = await lockDataDir(dir, "the Hisob server");
    expect(existsSync(path.join(dir, "lock-owner.json"))).toBe(true);
    await lock.release();
    await lock.release();
    expect(existsSync(path.join(dir, "lock-owner.json"))).toBe(false);
  });

  it("takes over a lock left stale by a crashed process", async () => {
    const dir = newDir();
    mkdirSync(dir);
    mkdirSync(`${dir}.lock`);
    writeFileSync(
      path.join(dir, "lock-owner.json"),
      JSON.stringify({ pid: 999_999, purpose: "a crashed server" }),
    );
    // Not refreshed for a minute: its holder is gone. (A fresh one is refused, see above.)
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(`${dir}.lock`, minuteAgo, minuteAgo);
    const lock = await lockDataDir(dir, "the Hisob server");
    const error = await lockError(lockDataDir(dir, "a CLI command"));
    expect(error.message).toContain(`in use by the Hisob server (pid ${process.pid})`);
    await lock.release();
  });

  it("takes over at once a fresh lock whose holder on this host is gone (a server killed with SIGKILL)", async () => {
    const dir = newDir();
    mkdirSync(dir);
    mkdirSync(`${dir}.lock`); // refreshed just now, as a killed server leaves it
    const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid;
    writeFileSync(
      path.join(dir, "lock-owner.json"),
      JSON.stringify({ pid: deadPid, host: hostname(), purpose: "the Hisob server" }),
    );
    const messages: string[] = [];
    const started = Date.now();
    const lock = await lockDataDir(dir, "the Hisob server", { log: (message) => messages.push(message) });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(messages.join("\n")).toContain(`left locked by the Hisob server (pid ${deadPid}), which is gone`);
    await lock.release();
  });

  it("waits, and says so, for a lock whose holder may still be alive elsewhere, then takes it once stale", async () => {
    const dir = newDir();
    mkdirSync(dir);
    mkdirSync(`${dir}.lock`);
    writeFileSync(
      path.join(dir, "lock-owner.json"),
      JSON.stringify({ pid: process.pid, host: "another-host.example", purpose: "the Hisob server" }),
    );
    // Last refreshed 12 s ago: stale (15 s) in about 3 s unless its holder refreshes it.
    const then = new Date(Date.now() - 12_000);
    utimesSync(`${dir}.lock`, then, then);
    const messages: string[] = [];
    const lock = await lockDataDir(dir, "the Hisob server", { log: (message) => messages.push(message) });
    expect(messages.join("\n")).toMatch(
      /on another-host\.example, which may still be running; waiting up to \d+ s/,
    );
    await lock.release();
  }, 30_000);

  it("turns an unusable folder into a clear setup error", async () => {
    const file = path.join(tempRoot, "not-a-folder");
    writeFileSync(file, "");
    const error = await lockError(lockDataDir(path.join(file, "data"), "the Hisob server"));
    expect(error.message).toContain(`Cannot use ${path.join(file, "data")} for the embedded database`);
  });
});

describe("a second process", () => {
  // A small program as an operator would run it: open the embedded database, report what happened.
  const script = path.join(tempRoot, "open-embedded.mts");
  writeFileSync(
    script,
    `import { createDb, DatabaseSetupError } from ${JSON.stringify(path.join(root, "packages/db/src/index.ts"))};
const [dataDir, tenantId] = process.argv.slice(2);
try {
  const db = await createDb({ dataDir, purpose: "a second process" });
  const tenants = await db.withTenant(tenantId, (tx) => tx.tenant.findMany({ select: { name: true } }));
  await db.close();
  console.log(JSON.stringify({ opened: true, tenants }));
} catch (error) {
  console.log(JSON.stringify({ opened: false, setupError: error instanceof DatabaseSetupError, message: String(error.message) }));
  process.exitCode = 3;
}
`,
  );
  const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
  const runSecondProcess = async (dataDir: string, tenantId: string) => {
    const child = await promisify(execFile)(process.execPath, [tsx, script, dataDir, tenantId], {
      cwd: root,
    }).then(
      (result) => ({ ...result, code: 0 }),
      (error: { stdout: string; stderr: string; code: number }) => error,
    );
    try {
      return {
        code: child.code,
        stderr: child.stderr,
        result: JSON.parse(child.stdout) as Record<string, unknown>,
      };
    } catch {
      throw new Error(
        `The second process did not report (exit ${child.code}):\n${child.stdout}\n${child.stderr}`,
      );
    }
  };

  it("gets a clear message while this process has the embedded database open, and the data stays intact", async () => {
    const dataDir = newDir();
    const db = await createDb({ dataDir, purpose: "the integration test" });
    try {
      await db.migrate();
      const tenant = await insertTenant(db, "Before");

      const second = await runSecondProcess(dataDir, tenant.id);
      expect(second.code).toBe(3);
      // A message, not a crash: nothing on stderr looks like a stack trace.
      expect(second.stderr).not.toMatch(/\n\s+at |Error:/);
      expect(second.result).toEqual({
        opened: false,
        setupError: true,
        message: expect.stringContaining(
          `The embedded database in ${dataDir} is in use by the integration test (pid ${process.pid})`,
        ),
      });

      // The open database is untouched and still writable.
      expect(await db.withTenant(tenant.id, (tx) => tx.tenant.findMany({ select: { name: true } }))).toEqual([
        { name: "Before" },
      ]);
      await db.withTenant(tenant.id, (tx) =>
        tx.tenant.update({ where: { id: tenant.id }, data: { name: "After" } }),
      );
      await db.close();

      // Once closed, the other process opens it and sees everything written.
      const third = await runSecondProcess(dataDir, tenant.id);
      expect(third).toMatchObject({ code: 0, result: { opened: true, tenants: [{ name: "After" }] } });
    } finally {
      await db.close().catch(() => {});
    }
  }, 60_000);
});
