import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, createOutbox, lockDataDir } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, freePort, runCli, spawnServer } from "./server-process";

// The server and the CLI as an operator runs them: real processes on a fresh embedded database.

let dataDir: string;

const baseEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
  };
  for (const name of ["DATABASE_URL", "ADMIN_EMAIL", "ADMIN_PASSWORD", "OIDC_CRYPTO_KEY", "OIDC_ISSUER_URL"])
    delete env[name];
  return env;
};

const cli = (args: string[], env: NodeJS.ProcessEnv = baseEnv()) => runCli(args, env);

/** Starts the server and resolves once it answers /healthz. */
const startServer = async (port: number, env: NodeJS.ProcessEnv = baseEnv()) => {
  const child = spawnServer({ ...env, PORT: String(port) });
  const done = collect(child);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      const result = await done;
      throw new Error(`server did not start (exit ${result.code}): ${result.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, done };
};

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "hisob-process-"));
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start on the embedded database", () => {
  it("starts, serves health, OpenAPI and docs, prints the admin once, refuses a second instance and CLI, stops cleanly", async () => {
    const port = await freePort();
    const first = await startServer(port);
    const base = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      status: "ready",
      checks: { database: "ok" },
    });
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: object;
    };
    expect(openapi.openapi).toBe("3.1.0");
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(["/healthz", "/readyz"]));
    const docs = await fetch(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("<html");

    // A second server and a CLI command on the same data directory refuse with a clear message.
    const second = await collect(spawnServer({ ...baseEnv(), PORT: String(await freePort()) }));
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is in use by the Hisob server \(pid \d+\)/);
    const blockedCli = await cli(["tenant:create", "--name", "X"]);
    expect(blockedCli.code).toBe(1);
    expect(blockedCli.stderr).toMatch(/in use by the Hisob server/);
    expect(blockedCli.stderr).not.toMatch(/\n\s+at /); // no stack trace

    first.child.kill("SIGTERM");
    const stopped = await first.done;
    expect(stopped.code, stopped.stderr.slice(-2000)).toBe(0);
    expect(stopped.stdout).toMatch(/Password \(shown only this once.*\): \S{20,}/);
    // The first-start message sends people to the accountant app.
    expect(stopped.stdout).toMatch(/Open the accountant app at http:\/\/\S+\/app /);

    // Restarting keeps the data and does not bootstrap again.
    const again = await startServer(port);
    again.child.kill("SIGTERM");
    const restarted = await again.done;
    expect(restarted.code, restarted.stderr.slice(-2000)).toBe(0);
    expect(restarted.stdout).not.toMatch(/Password/);
  });

  it("stops with a message naming every bad variable", async () => {
    const result = await collect(
      spawnServer({ ...baseEnv(), PORT: "http", OIDC_RATE_LIMIT_TOKEN: "-1", NODE_ENV: "production" }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/PORT:/);
    expect(result.stderr).toMatch(/OIDC_RATE_LIMIT_TOKEN:/);
    expect(result.stderr).toMatch(/OIDC_CRYPTO_KEY: is required/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("stops with a clear message when PostgreSQL is unreachable", async () => {
    const result = await collect(
      spawnServer({
        ...baseEnv(),
        DATABASE_URL: "postgres://hisob:secret@127.0.0.1:1/hisob",
        OIDC_CRYPTO_KEY: "x".repeat(40),
        OIDC_ISSUER_URL: "http://localhost:3000",
      }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot connect to PostgreSQL at 127\.0\.0\.1:1/);
    expect(result.stderr).not.toContain("secret");
  });
});

describe("the CLI", () => {
  it("creates a tenant and a user, printing one JSON object each", async () => {
    const tenant = await cli(["tenant:create", "--name", "Acme LLC", "--domain", "acme.uz"]);
    expect(tenant.code).toBe(0);
    const created = JSON.parse(tenant.stdout) as { id: string; name: string };
    expect(created).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Acme LLC",
      domain: "acme.uz",
    });

    const user = await cli([
      "user:create",
      "--tenant",
      created.id,
      "--email",
      "Owner@Acme.uz",
      "--password",
      "Str0ng-Passw0rd",
      "--role",
      "admin",
    ]);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({
      id: expect.any(String),
      email: "owner@acme.uz",
      roles: ["admin"],
    });
    expect(user.stdout).not.toContain("Str0ng-Passw0rd");
  });

  it("explains bad input with a non-zero exit and no stack trace", async () => {
    const usage = await cli(["user:create", "--tenant", "not-a-uuid", "--email", "a@b.uz"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--tenant: must be a UUID/);
    expect(usage.stderr).toMatch(/--password/);

    const unknown = await cli(["drop:everything"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command "drop:everything"/);

    const missingTenant = await cli([
      "user:create",
      "--tenant",
      "01900000-0000-7000-8000-000000000000",
      "--email",
      "a@b.uz",
      "--password",
      "Str0ng-Passw0rd",
    ]);
    expect(missingTenant.code).toBe(1);
    expect(missingTenant.stderr).toMatch(/NOT_FOUND: Tenant .* not found/);
    expect(missingTenant.stderr).not.toMatch(/\n\s+at /);
  });

  it("finance:reconcile finds a clean ledger, then reports a tampered balance with exit 1", async () => {
    const tenant = JSON.parse((await cli(["tenant:create", "--name", "Ledger LLC"])).stdout) as {
      id: string;
    };
    // The postings' author is a user of the organization: the audit log refuses entries by anyone else.
    const bookkeeper = JSON.parse(
      (
        await cli([
          "user:create",
          "--tenant",
          tenant.id,
          "--email",
          "bookkeeper@ledger.uz",
          "--password",
          "Str0ng-Passw0rd",
        ])
      ).stdout,
    ) as { id: string };
    // Post through the finance services on the same embedded database (no server holds it now).
    const db = await createDb({ dataDir, purpose: "the reconcile test" });
    let accountId = "";
    try {
      const finance = createFinanceServices({ db, outbox: createOutbox(db) });
      const ctx = {
        tenantId: tenant.id,
        actor: {
          userId: bookkeeper.id,
          permissions: new Set(["accounts:create:all", "payments:create:all"]),
        },
        locale: "en" as const,
        requestId: "e2e",
      };
      accountId = (await finance.accounts.create(ctx, { name: "Cash", currency: "UZS" })).id;
      await finance.payments.create(ctx, { accountId, amount: "500", date: "2026-11-22" });
    } finally {
      await db.close();
    }

    const clean = await cli(["finance:reconcile"]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(JSON.parse(clean.stdout).accountsChecked).toBeGreaterThanOrEqual(1);

    const tampered = await createDb({ dataDir, purpose: "the reconcile test" });
    try {
      await tampered.withTenant(tenant.id, (tx) =>
        tx.moneyAccount.update({ where: { id: accountId }, data: { balance: 999n } }),
      );
    } finally {
      await tampered.close();
    }
    const drift = await cli(["finance:reconcile", "--tenant", tenant.id]);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toMatch(/balance drift in 1 tenant/);
    expect(JSON.parse(drift.stdout)).toMatchObject({
      ok: false,
      tenantsChecked: 1,
      problems: [{ tenantId: tenant.id, drift: [{ accountId, stored: "999", computed: "500" }] }],
    });
    const badTenant = await cli(["finance:reconcile", "--tenant", "nope"]);
    expect(badTenant.code).toBe(2);
  });

  it("refuses while another process holds the embedded database", async () => {
    const lock = await lockDataDir(dataDir, "a test holding the lock");
    try {
      const result = await cli(["db:migrate"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/in use by a test holding the lock/);
    } finally {
      await lock.release();
    }
  });
});
