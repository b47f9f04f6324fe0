import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./create-db";
import { createTestDb, insertTenant } from "./testing";

// Credential transactions (db.rawTx.withCredentialTenant, raw-tenant.ts; the OpenID provider's token
// endpoint and userinfo): on PostgreSQL the opening statements travel in one pipeline with the first
// statement, and a first statement marked `commit` is the whole transaction.
// A credential nobody holds scopes to no tenant at all, which is enough to see the role, the scope
// and the transaction's end (the OIDC tests drive the same paths with real tokens and codes).

let db: Db;
const unknown = { kind: "oidcToken", hash: createHash("sha256").update("nobody's").digest("hex") } as const;
const WHO = "SELECT current_user::text AS role, current_setting('app.tenant_id') AS tenant, $1::text AS echo";

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

describe("rawTx.withCredentialTenant", () => {
  it("runs its statements as the tenant role in the credential's tenant (none here), prepared or not", async () => {
    const seen = await db.rawTx.withCredentialTenant(unknown, async (tx) => {
      const first = await tx.query(WHO, ["a"]);
      const again = await tx.query(WHO, ["b"], { prepared: true });
      const last = await tx.query(WHO, ["c"], { prepared: true, commit: true });
      return [first, again, last];
    });
    expect(seen).toEqual([
      [{ role: "hisob_tenant", tenant: "", echo: "a" }],
      [{ role: "hisob_tenant", tenant: "", echo: "b" }],
      [{ role: "hisob_tenant", tenant: "", echo: "c" }],
    ]);
  });

  it("commits with its first statement too; a statement after it is in the same credential's scope again", async () => {
    const seen = await db.rawTx.withCredentialTenant(unknown, async (tx) => {
      const only = await tx.query(WHO, ["only"], { prepared: true, commit: true });
      const after = await tx.query(WHO, ["after"]);
      return [only, after];
    });
    expect(seen).toEqual([
      [{ role: "hisob_tenant", tenant: "", echo: "only" }],
      [{ role: "hisob_tenant", tenant: "", echo: "after" }],
    ]);
  });

  it("a login session scopes to its own tenant: another tenant's rows stay invisible", async () => {
    const sessionIn = async (name: string) => {
      const tenant = await insertTenant(db, name);
      const hash = createHash("sha256").update(`session of ${tenant.id}`).digest("hex");
      await db.withTenant(tenant.id, async (tx) => {
        const user = await tx.user.create({
          data: { tenantId: tenant.id, email: `${tenant.id}@example.com`, firstName: "S", lastName: "T" },
        });
        await tx.session.create({
          data: {
            tenantId: tenant.id,
            userId: user.id,
            tokenHash: hash,
            expiresAt: new Date(Date.now() + 60_000),
          },
        });
      });
      return { tenantId: tenant.id, hash };
    };
    const a = await sessionIn("Session A");
    const b = await sessionIn("Session B");
    const seen = await db.rawTx.withCredentialTenant({ kind: "session", hash: a.hash }, (tx) =>
      tx.query<{ tenant: string; sessions: string[] }>(
        `SELECT current_setting('app.tenant_id') AS tenant,
                array(SELECT token_hash FROM sessions WHERE token_hash IN ($1, $2)) AS sessions`,
        [a.hash, b.hash],
        { prepared: true, commit: true },
      ),
    );
    expect(seen).toEqual([{ tenant: a.tenantId, sessions: [a.hash] }]);
  });

  it("refuses a credential hash that is not 64 hex digits before anything is sent", async () => {
    await expect(
      db.rawTx.withCredentialTenant({ kind: "oidcToken", hash: "x' OR true --" }, (tx) =>
        tx.query("SELECT 1"),
      ),
    ).rejects.toThrow(/SHA-256/);
  });

  it("a failing last statement rejects, and every connection stays usable afterwards", async () => {
    for (let run = 0; run < 12; run++) {
      // Every other run the failing statement is the only one: the pipeline's own transaction.
      await expect(
        db.rawTx.withCredentialTenant(unknown, async (tx) => {
          if (run % 2 === 0) await tx.query(WHO, ["before"]);
          return tx.query("SELECT 1 / $1::int AS x", [0], { prepared: true, commit: true });
        }),
      ).rejects.toThrow(/division by zero/);
    }
    const after = await Promise.all(
      Array.from({ length: 12 }, () =>
        db.rawTx.withCredentialTenant(unknown, (tx) =>
          tx.query(WHO, ["ok"], { prepared: true, commit: true }),
        ),
      ),
    );
    for (const rows of after) expect(rows).toEqual([{ role: "hisob_tenant", tenant: "", echo: "ok" }]);
  });
});
