import { newId } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallerChangedError, withCallerCheck } from "./caller-check";
import type { Db } from "./create-db";
import { createTestDb, insertTenant } from "./testing";

// The driver transactions (raw-tenant.ts) keep withTenant's wall: the tenant role with
// app.tenant_id, the cached caller confirmed by the scoping statement (on PostgreSQL it travels in
// one pipeline with the first statement, which a refused caller must roll back), after-commit
// hooks only after a commit.

let db: Db;
let tenantA: string;
let tenantB: string;

const probe = (tenantId: string, type: string) => ({
  text: `INSERT INTO outbox_events (id, tenant_id, type, payload) VALUES ($1::uuid, $2::uuid, $3, '{}'::jsonb) RETURNING id::text`,
  values: [newId(), tenantId, type],
});
const countOf = (type: string) => db.withTenant(tenantA, (tx) => tx.outboxEvent.count({ where: { type } }));

/** A cached caller of tenant A that the database no longer knows: every confirmation refuses it. */
const changedCaller = (heard: (fresh: unknown) => void = () => {}) => ({
  tenantId: tenantA,
  tokenHash: "0".repeat(64),
  kinds: ["session" as const],
  verified: false,
  accept: (fresh: unknown) => {
    heard(fresh);
    throw new CallerChangedError();
  },
});

beforeAll(async () => {
  db = await createTestDb();
  tenantA = (await insertTenant(db, "Raw A")).id;
  tenantB = (await insertTenant(db, "Raw B")).id;
});
afterAll(async () => {
  await db?.close();
});

it("every session reads time as UTC and compiles nothing (PostgreSQL: jit off)", async () => {
  const [settings] = await db.rawTx.withTenant(tenantA, (tx) =>
    tx.query<{ zone: string; jit: string }>(
      "SELECT current_setting('TimeZone') AS zone, current_setting('jit') AS jit",
      [],
      { commit: true },
    ),
  );
  expect(settings?.zone).toBe("UTC");
  if (db.kind === "postgres") expect(settings?.jit).toBe("off");
});

describe("rawTx.withTenant", () => {
  it("runs as the tenant role with app.tenant_id set, and sees only that tenant's rows", async () => {
    const [who] = await db.rawTx.withTenant(tenantA, (tx) =>
      tx.query<{ role: string; tenant: string }>(
        "SELECT current_user::text AS role, current_setting('app.tenant_id') AS tenant",
      ),
    );
    expect(who).toEqual({ role: "hisob_tenant", tenant: tenantA });
    const tenants = await db.rawTx.withTenant(tenantA, (tx) =>
      tx.query<{ id: string }>("SELECT id::text FROM tenants"),
    );
    expect(tenants.map((row) => row.id)).toEqual([tenantA]);
  });

  it("a prepared statement keeps the wall: run alternately for two tenants, past the generic plan, each sees its own", async () => {
    const text = "SELECT id::text FROM tenants WHERE name LIKE $1 ORDER BY id";
    // Twelve runs (PostgreSQL may switch to a generic plan after five), first statement and later
    // statement of a transaction both, on whichever connections the pool hands out.
    for (let run = 0; run < 12; run++) {
      const tenant = run % 2 === 0 ? tenantA : tenantB;
      const seen = await db.rawTx.withTenant(tenant, async (tx) => {
        const first = await tx.query<{ id: string }>(text, ["Raw%"], { prepared: true });
        const again = await tx.query<{ id: string }>(text, ["Raw%"], { prepared: true });
        return [first, again];
      });
      expect(seen).toEqual([[{ id: tenant }], [{ id: tenant }]]);
    }
    // On PostgreSQL it is a prepared statement of the connection (PGlite runs it as any other).
    const prepared = await db.rawTx.withTenant(tenantA, async (tx) => {
      await tx.query(text, ["Raw%"], { prepared: true });
      return tx.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE statement = $1", [
        text,
      ]);
    });
    expect(prepared.length).toBe(db.kind === "postgres" ? 1 : 0);
  });

  it("cannot write a row of another tenant, and the whole transaction rolls back", async () => {
    const p = probe(tenantB, "RawForeign");
    await expect(
      db.rawTx.withTenant(tenantA, async (tx) => {
        await tx.query(probe(tenantA, "RawForeign").text, probe(tenantA, "RawForeign").values);
        await tx.query(p.text, p.values);
      }),
    ).rejects.toThrow(/row-level security/);
    expect(await countOf("RawForeign")).toBe(0);
  });

  it("commits the statements of fn, then runs the after-commit hooks; a rollback runs none", async () => {
    const calls: string[] = [];
    await db.rawTx.withTenant(tenantA, async (tx) => {
      const p = probe(tenantA, "RawCommitted");
      await tx.query(p.text, p.values);
      const q = probe(tenantA, "RawCommitted");
      await tx.query(q.text, q.values);
      tx.afterCommit(() => calls.push("committed"));
      expect(calls).toEqual([]);
    });
    expect(calls).toEqual(["committed"]);
    expect(await countOf("RawCommitted")).toBe(2);
    await expect(
      db.rawTx.withTenant(tenantA, async (tx) => {
        const p = probe(tenantA, "RawRolledBack");
        await tx.query(p.text, p.values);
        tx.afterCommit(() => calls.push("rolled back"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(calls).toEqual(["committed"]);
    expect(await countOf("RawRolledBack")).toBe(0);
  });

  it("a cached caller found changed by the scoping statement rolls back the statement sent with it", async () => {
    const seen: unknown[] = [];
    const check = changedCaller((fresh) => seen.push(fresh));
    const p = probe(tenantA, "RawRefusedCaller");
    await expect(
      withCallerCheck(check, () => db.rawTx.withTenant(tenantA, (tx) => tx.query(p.text, p.values))),
    ).rejects.toBeInstanceOf(CallerChangedError);
    // No session has that token: the statement said so (null), and nothing was written.
    expect(seen).toEqual([null]);
    expect(await countOf("RawRefusedCaller")).toBe(0);
  });

  it("a statement marked commit is committed when it returns, hooks run then; what follows is a new transaction in the same tenant", async () => {
    const calls: string[] = [];
    const seenAfter = await db.rawTx.withTenant(tenantA, async (tx) => {
      const p = probe(tenantA, "RawCommitNow");
      tx.afterCommit(() => calls.push("committed"));
      await tx.query(p.text, p.values, { prepared: true, commit: true });
      // On PostgreSQL it is committed now, hooks run and another connection sees it (PGlite
      // commits when fn returns, and runs the hooks then).
      if (db.kind === "postgres") {
        expect(calls).toEqual(["committed"]);
        expect(await countOf("RawCommitNow")).toBe(1);
      }
      return tx.query<{ id: string; role: string }>(
        "SELECT id::text, current_user::text AS role FROM tenants",
      );
    });
    expect(seenAfter).toEqual([{ id: tenantA, role: "hisob_tenant" }]);
    expect(calls).toEqual(["committed"]);
    expect(await countOf("RawCommitNow")).toBe(1);
  });

  it("a statement marked commit that fails leaves nothing, and neither does a row-level security refusal", async () => {
    const calls: string[] = [];
    await expect(
      db.rawTx.withTenant(tenantA, async (tx) => {
        tx.afterCommit(() => calls.push("committed"));
        // Two rows, the second another tenant's: the statement fails, the COMMIT sent with it never runs.
        await tx.query(
          `INSERT INTO outbox_events (id, tenant_id, type, payload)
           VALUES ($1::uuid, $2::uuid, 'RawCommitFailed', '{}'::jsonb), ($3::uuid, $4::uuid, 'RawCommitFailed', '{}'::jsonb)`,
          [newId(), tenantA, newId(), tenantB],
          { commit: true },
        );
      }),
    ).rejects.toThrow(/row-level security/);
    expect(calls).toEqual([]);
    expect(await countOf("RawCommitFailed")).toBe(0);
    // The connection went back to the pool in a clean state: the next transaction works.
    const p = probe(tenantA, "RawCommitAfterFailure");
    await db.rawTx.withTenant(tenantA, (tx) => tx.query(p.text, p.values, { commit: true }));
    expect(await countOf("RawCommitAfterFailure")).toBe(1);
  });

  it("a later statement marked commit commits the transaction with it (its COMMIT in the same pipeline): hooks run, another connection sees both", async () => {
    const calls: string[] = [];
    const first = probe(tenantA, "RawLaterCommitFirst");
    const second = probe(tenantA, "RawLaterCommitSecond");
    await db.rawTx.withTenant(tenantA, async (tx) => {
      tx.afterCommit(() => calls.push("committed"));
      await tx.query(first.text, first.values, { prepared: true });
      await tx.query(second.text, second.values, { prepared: true, commit: true });
      if (db.kind === "postgres") {
        expect(calls).toEqual(["committed"]);
        expect(await countOf("RawLaterCommitFirst")).toBe(1);
        expect(await countOf("RawLaterCommitSecond")).toBe(1);
      }
    });
    expect(calls).toEqual(["committed"]);
    expect(await countOf("RawLaterCommitFirst")).toBe(1);
    expect(await countOf("RawLaterCommitSecond")).toBe(1);
  });

  it("a later statement marked commit that fails rolls back the whole transaction, and the connection is clean", async () => {
    const calls: string[] = [];
    const first = probe(tenantA, "RawLaterCommitFailedFirst");
    await expect(
      db.rawTx.withTenant(tenantA, async (tx) => {
        tx.afterCommit(() => calls.push("committed"));
        await tx.query(first.text, first.values, { prepared: true });
        // Another tenant's row: the statement fails, the COMMIT behind it is skipped.
        const other = probe(tenantB, "RawLaterCommitFailedSecond");
        await tx.query(other.text, other.values, { prepared: true, commit: true });
      }),
    ).rejects.toThrow(/row-level security/);
    expect(calls).toEqual([]);
    expect(await countOf("RawLaterCommitFailedFirst")).toBe(0);
    const again = probe(tenantA, "RawLaterCommitAfterFailure");
    const seen = await db.rawTx.withTenant(tenantA, async (tx) => {
      await tx.query(again.text, again.values, { prepared: true });
      await tx.query(first.text, [newId(), tenantA, "RawLaterCommitAfterFailure"], { commit: true });
      return tx.query<{ role: string }>("SELECT current_user::text AS role");
    });
    expect(seen).toEqual([{ role: "hisob_tenant" }]);
    expect(await countOf("RawLaterCommitAfterFailure")).toBe(2);
  });

  it("a statement marked commit still waits for a cached caller's confirmation: a changed caller commits nothing", async () => {
    const check = changedCaller();
    const p = probe(tenantA, "RawCommitRefusedCaller");
    await expect(
      withCallerCheck(check, () =>
        db.rawTx.withTenant(tenantA, (tx) => tx.query(p.text, p.values, { commit: true })),
      ),
    ).rejects.toBeInstanceOf(CallerChangedError);
    expect(await countOf("RawCommitRefusedCaller")).toBe(0);
  });

  it("a read-only transaction refuses any write", async () => {
    const p = probe(tenantA, "RawReadOnly");
    await expect(
      db.rawTx.withTenant(tenantA, (tx) => tx.query(p.text, p.values, { commit: true }), { readOnly: true }),
    ).rejects.toThrow(/read-only transaction/);
    expect(await countOf("RawReadOnly")).toBe(0);
  });

  it("a read-only statement marked commit while a cached caller awaits confirmation: a changed caller gets no rows", async () => {
    const check = changedCaller();
    let rows: unknown[] | undefined;
    await expect(
      withCallerCheck(check, () =>
        db.rawTx.withTenant(
          tenantA,
          async (tx) => {
            rows = await tx.query("SELECT id::text FROM tenants", [], { commit: true });
          },
          { readOnly: true },
        ),
      ),
    ).rejects.toBeInstanceOf(CallerChangedError);
    expect(rows).toBeUndefined();
    // The connection is clean for the next transaction.
    const [again] = await db.rawTx.withTenant(
      tenantA,
      (tx) => tx.query<{ id: string }>("SELECT id::text FROM tenants", [], { commit: true }),
      { readOnly: true },
    );
    expect(again).toEqual({ id: tenantA });
  });

  it("a transaction that is one statement (no BEGIN or COMMIT sent) ends with it: the connection's next use has no role, tenant or read-only setting left", async () => {
    // The pool hands back the connection released last; a few rounds make a leak show wherever it is.
    for (let round = 0; round < 4; round++) {
      const [inside] = await db.rawTx.withTenant(
        tenantA,
        (tx) =>
          tx.query<{ role: string; tenant: string; readOnly: string }>(
            `SELECT current_user::text AS role, current_setting('app.tenant_id', true) AS tenant,
                    current_setting('transaction_read_only') AS "readOnly"`,
            [],
            { commit: true },
          ),
        { readOnly: true },
      );
      expect(inside).toEqual({ role: "hisob_tenant", tenant: tenantA, readOnly: "on" });
      const [after] = await db.rawTx.once<{ role: string; tenant: string | null; readOnly: string }>(
        `SELECT current_user::text AS role, current_setting('app.tenant_id', true) AS tenant,
                current_setting('transaction_read_only') AS "readOnly"`,
        [],
      );
      expect(after?.role).not.toBe("hisob_tenant");
      expect(after?.tenant ?? "").toBe("");
      expect(after?.readOnly).toBe("off");
    }
  });

  it("a statement read as arrays of columns still confirms a cached caller by the scope's row", async () => {
    const tokenHash = "ab".repeat(32);
    const user = await db.withTenant(tenantA, (tx) =>
      tx.user.create({
        data: { tenantId: tenantA, email: "rows@example.com", firstName: "R", lastName: "A" },
      }),
    );
    await db.withTenant(tenantA, (tx) =>
      tx.session.create({
        data: { tenantId: tenantA, userId: user.id, tokenHash, expiresAt: new Date(Date.now() + 60_000) },
      }),
    );
    let heard: unknown;
    const check = {
      tenantId: tenantA,
      tokenHash,
      kinds: ["session" as const],
      verified: false,
      accept: (fresh: unknown) => {
        heard = fresh;
      },
    };
    const rows = await withCallerCheck(check, () =>
      db.rawTx.withTenant(
        tenantA,
        (tx) => tx.query("SELECT $1::text AS echo, 2 AS two", ["x"], { commit: true, rowMode: "array" }),
        { readOnly: true },
      ),
    );
    expect(rows).toEqual([["x", 2]]);
    if (db.kind === "postgres")
      expect(heard).toMatchObject({ tenantId: tenantA, userId: user.id, usable: true });
  });

  it("refuses a tenant that is not a UUID before anything is sent", async () => {
    await expect(db.rawTx.withTenant("x' OR true --", (tx) => tx.query("SELECT 1"))).rejects.toThrow(/UUID/);
  });
});
