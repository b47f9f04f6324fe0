import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_EXTENSIONS } from "@hisob/db";
import { verifyPassword } from "@hisob/kernel";
import { afterAll, describe, expect, it } from "vitest";

/*
 * `npm run cli -- user:create` takes the password from standard input, so npm's command echo and the
 * shell history never show it. Runs the real CLI on an embedded database of its own (never the
 * suite's PostgreSQL), then reads the stored hash back.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-cli-"));
const STRONG = "Str0ng-Passw0rd!";

const cli = (args: string[], input?: string) => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const result = spawnSync(process.execPath, ["--import", "tsx", "apps/server/src/cli.ts", ...args], {
    cwd: ROOT,
    env,
    input: input ?? "",
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

const storedHash = async (email: string): Promise<string> => {
  const db = new PGlite(path.join(dataDir, "pglite"), { extensions: PGLITE_EXTENSIONS });
  try {
    const { rows } = await db.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email = $1",
      [email],
    );
    return rows[0]?.password_hash ?? "";
  } finally {
    await db.close();
  }
};

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("cli user:create", { timeout: 180_000 }, () => {
  it("reads the password from standard input; --password still works; no password is refused", async () => {
    const tenant = cli(["tenant:create", "--name", "Acme"]);
    expect(tenant.status, tenant.stderr).toBe(0);
    const tenantId = JSON.parse(tenant.stdout).id as string;

    const piped = cli(["user:create", "--tenant", tenantId, "--email", "piped@acme.uz"], `${STRONG}\n`);
    expect(piped.status, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ email: "piped@acme.uz" });
    expect(piped.stdout + piped.stderr).not.toContain(STRONG);
    // The trailing newline of `echo`/`printf '%s\n'` is not part of the password.
    expect(await verifyPassword(await storedHash("piped@acme.uz"), STRONG)).toBe(true);

    const flagged = cli([
      "user:create",
      "--tenant",
      tenantId,
      "--email",
      "flag@acme.uz",
      "--password",
      STRONG,
    ]);
    expect(flagged.status, flagged.stderr).toBe(0);
    expect(await verifyPassword(await storedHash("flag@acme.uz"), STRONG)).toBe(true);

    const none = cli(["user:create", "--tenant", tenantId, "--email", "none@acme.uz"], "");
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain("no password on standard input");
  });
});
