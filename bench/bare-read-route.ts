import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type pg from "pg";

/**
 * The baseline of the authenticated-read benchmark: `GET /finance/accounts` as a bare Fastify + `pg`
 * route doing our work in one transaction — the session by its token hash with its user and tenant,
 * the user's permissions, `set_config` of tenant and role, the tenant's page of accounts and its
 * count (7 statements). It answers what ours answers for an empty page.
 */
const BARE_SQL = {
  caller: `SELECT s.tenant_id, s.user_id, s.expires_at, u.is_active AND t.is_active AS usable, u.ui_language
             FROM sessions s JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
             JOIN tenants t ON t.id = s.tenant_id WHERE s.token_hash = $1`,
  permissions: `SELECT DISTINCT p.name FROM user_roles ur
                  JOIN role_permissions rp ON rp.tenant_id = ur.tenant_id AND rp.role_id = ur.role_id
                  JOIN permissions p ON p.id = rp.permission_id
                 WHERE ur.tenant_id = $1 AND ur.user_id = $2`,
  scope: "SELECT set_config('app.tenant_id', $1, true), set_config('role', 'hisob_tenant', true)",
  page: `SELECT id, name, number, currency_code, balance::text, allow_overdraft, created_at, updated_at
           FROM money_accounts WHERE tenant_id = $1 ORDER BY name, id LIMIT 20 OFFSET 0`,
  count: "SELECT count(*) FROM money_accounts WHERE tenant_id = $1",
};

/** Session tokens are stored by their SHA-256 (as packages/core's session-token does). */
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const registerBareRead = (app: FastifyInstance, pool: pg.Pool) => {
  app.get("/finance/accounts", async (request, reply) => {
    const cookie = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1];
    if (!cookie) return reply.code(401).send({ error: "unauthenticated" });
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const caller = (await client.query(BARE_SQL.caller, [hashToken(cookie)])).rows[0];
      if (!caller?.usable || caller.expires_at <= new Date()) {
        await client.query("ROLLBACK");
        return reply.code(401).send({ error: "unauthenticated" });
      }
      const permissions = new Set(
        (await client.query(BARE_SQL.permissions, [caller.tenant_id, caller.user_id])).rows.map(
          (row) => row.name as string,
        ),
      );
      if (!permissions.has("accounts:read:all")) {
        await client.query("ROLLBACK");
        return reply.code(403).send({ error: "forbidden" });
      }
      await client.query(BARE_SQL.scope, [caller.tenant_id]);
      const items = (await client.query(BARE_SQL.page, [caller.tenant_id])).rows;
      const total = Number((await client.query(BARE_SQL.count, [caller.tenant_id])).rows[0]?.count);
      await client.query("COMMIT");
      return { items, total, limit: 20, offset: 0 };
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  });
};
