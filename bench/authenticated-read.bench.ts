import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ADMIN_ROLE_NAME, insertUser, provisionTenant, syncPermissions } from "@hisob/core";
import { createOutbox, type Db } from "@hisob/db";
import Fastify from "fastify";
import pg from "pg";
import { composeServices } from "../apps/server/src/app-context";
import { loadEnv, resolveDevCryptoKey } from "../apps/server/src/env";
import { type App, buildServer } from "../apps/server/src/server";
import { hashToken } from "../packages/core/src/sessions/session-token";
import {
  createTestDbFromTemplate,
  dropTemplate,
  prepareTemplate,
  TEST_OWNER_ROLE,
  type TestTemplate,
} from "../packages/db/src/testing/test-databases";
import { percentile, runConcurrent } from "./measure";
import type { Bench, BenchResult } from "./run";

/**
 * An authenticated read over HTTP, 8 concurrent clients (issue 16): our `GET /finance/accounts` (an
 * empty page, the caller resolved from a session cookie) beside a bare Fastify + `pg` route doing the
 * same work in one transaction — the session by its token hash with its user and tenant, the user's
 * permissions, `set_config` of tenant and role, the tenant's page of accounts and its count — on the
 * same PostgreSQL database in the same process and run. Ratio: ours ÷ bare throughput (higher is
 * better; 1.0 is parity). `--iterations` is requests per client (default 500). Needs DATABASE_URL.
 */

const CLIENTS = 8;
const DEFAULT_ITERATIONS = 500;
const PASSWORD = "Bench-Passw0rd!";

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

export const authenticatedReadBench: Bench = {
  name: "authenticated-read",
  run: async ({ iterations }): Promise<BenchResult> => {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      const message =
        "authenticated-read: skipped — set DATABASE_URL to a PostgreSQL admin URL " +
        "(e.g. postgres://postgres@127.0.0.1:5432/postgres).";
      console.log(message);
      return { name: message, rows: [] };
    }
    const perClient = iterations ?? DEFAULT_ITERATIONS;
    const warmup = Math.max(10, Math.floor(perClient / 10));
    let template: TestTemplate | undefined;
    let db: Db | undefined;
    let ours: App | undefined;
    let pool: pg.Pool | undefined;
    const bare = Fastify({ logger: false });
    const uploadsDir = mkdtempSync(path.join(tmpdir(), "hisob-bench-uploads-"));
    try {
      template = await prepareTemplate({ adminUrl, tmpDir: tmpdir() });
      db = await createTestDbFromTemplate(template, { poolSize: CLIENTS + 2 });
      const appDb = db;
      const outbox = createOutbox(appDb);
      await syncPermissions(appDb);
      const env = resolveDevCryptoKey(
        loadEnv({
          NODE_ENV: "test",
          OIDC_ISSUER_URL: "http://localhost:3000",
          OIDC_CRYPTO_KEY: "b".repeat(40),
        }),
      );
      const { services, oidc } = composeServices(appDb, outbox, env, { uploadsDir });
      await oidc.start();
      ours = await buildServer({ env, db: appDb, services, oidc, logger: false });
      await ours.listen({ port: 0, host: "127.0.0.1" });

      const tenant = await provisionTenant({ db: appDb, outbox }, { name: "Bench", isPlatform: false });
      const email = "read-bench@example.com";
      await appDb.withTenant(tenant.id, (tx) =>
        insertUser(tx, outbox, tenant.id, {
          email,
          password: PASSWORD,
          firstName: "Bench",
          lastName: "Reader",
          roleNames: [ADMIN_ROLE_NAME],
        }),
      );
      const { token } = await services.auth.login(
        { email, password: PASSWORD },
        { ip: "127.0.0.1", userAgent: "bench" },
      );

      // The bare route connects as the same owner role to the same database.
      const [{ name }] = await appDb.withTenant(
        tenant.id,
        (tx) => tx.$queryRaw<[{ name: string }]>`SELECT current_database() AS name`,
      );
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      // The test databases' owner role (its password is its name, see test-databases.ts).
      url.username = TEST_OWNER_ROLE;
      url.password = TEST_OWNER_ROLE;
      pool = new pg.Pool({ connectionString: url.toString(), max: CLIENTS + 2 });
      const bareTx = pool;
      bare.get("/finance/accounts", async (request, reply) => {
        const cookie = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1];
        if (!cookie) return reply.code(401).send({ error: "unauthenticated" });
        const client = await bareTx.connect();
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
      await bare.listen({ port: 0, host: "127.0.0.1" });

      const base = (app: { server: { address(): unknown } }) => {
        const address = app.server.address() as { port: number };
        return `http://127.0.0.1:${address.port}/finance/accounts`;
      };
      const headers = { cookie: `session=${token}` };
      const read = (target: string) => async () => {
        const res = await fetch(target, { headers });
        if (res.status !== 200) throw new Error(`${target}: HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      };
      const oursUrl = base(ours);
      const bareUrl = base(bare);
      // Same answer first: the comparison is only fair if both do the work.
      const [a, b] = await Promise.all([
        fetch(oursUrl, { headers }).then((r) => r.json()),
        fetch(bareUrl, { headers }).then((r) => r.json()),
      ]);
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        throw new Error(`answers differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
      // Warm up both, then alternate the order to share out any drift of the machine's load.
      await runConcurrent(CLIENTS, warmup, read(bareUrl));
      await runConcurrent(CLIENTS, warmup, read(oursUrl));
      const bareRun = await runConcurrent(CLIENTS, perClient, read(bareUrl));
      const oursRun = await runConcurrent(CLIENTS, perClient, read(oursUrl));
      const cpu = process.cpuUsage();
      const oursCpuRun = await runConcurrent(CLIENTS, Math.max(20, Math.floor(perClient / 4)), read(oursUrl));
      const oursCpu = process.cpuUsage(cpu);
      const requests = CLIENTS * Math.max(20, Math.floor(perClient / 4));
      return {
        name: `Authenticated read over HTTP (GET /finance/accounts, empty page), ${CLIENTS} clients × ${perClient} (PostgreSQL)`,
        rows: [
          {
            label: "bare Fastify + pg, 7 statements in 1 transaction (baseline)",
            opsPerSecond: bareRun.opsPerSecond,
            ratio: 1,
          },
          {
            label: "ours (cookie → one-statement caller, then the service's transaction)",
            opsPerSecond: oursRun.opsPerSecond,
            ratio: bareRun.opsPerSecond / oursRun.opsPerSecond,
          },
        ],
        tables: [
          {
            title: "Latency and CPU (this process: server, load and baseline together)",
            rows: [
              {
                case: "bare",
                "p50 ms": percentile(bareRun.latenciesMs, 50).toFixed(2),
                "p99 ms": percentile(bareRun.latenciesMs, 99).toFixed(2),
              },
              {
                case: "ours",
                "p50 ms": percentile(oursRun.latenciesMs, 50).toFixed(2),
                "p99 ms": percentile(oursRun.latenciesMs, 99).toFixed(2),
                "CPU ms per request (incl. client)": (
                  (oursCpu.user + oursCpu.system) /
                  1000 /
                  requests
                ).toFixed(2),
                "ops/s (CPU run)": Math.round(oursCpuRun.opsPerSecond),
              },
            ],
          },
        ],
      };
    } finally {
      await bare.close();
      await ours?.close();
      await pool?.end();
      await db?.close();
      rmSync(uploadsDir, { recursive: true, force: true });
      if (template) await dropTemplate(template);
    }
  },
};
