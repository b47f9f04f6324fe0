import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { ADMIN_ROLE_NAME, insertUser, provisionTenant, syncPermissions } from "@hisob/core";
import { createDb, createOutbox, type Db, migrate, type Outbox, PGLITE_EXTENSIONS } from "@hisob/db";
import ExcelJS from "exceljs";
import type { App } from "../apps/server/src/app";
// The server's own wiring; importing it also registers every module's permissions, as the server does.
import { composeServices } from "../apps/server/src/app-context";
import type { AppServices } from "../apps/server/src/app-services";
import { loadEnv, resolveDevCryptoKey } from "../apps/server/src/env";
import { buildServer } from "../apps/server/src/server";
import { connectPostgres, pgliteConnection, type SqlConnection } from "../packages/db/src/sql-connection";
import { forceGc, median, percentile, seconds, withMemorySampling } from "./measure";
import type { Bench, BenchTable } from "./run";

/**
 * The users list and its spreadsheet export on a big tenant, through the real HTTP stack
 * (`app.inject`, a bearer session), beside raw SQL on the same database:
 *  - GET /users, one page in the middle sorted by last name, vs the same SELECT + count(*);
 *  - GET /users/export of every user, vs one raw scan written with the same exceljs streaming
 *    writer to a counting stream; also at a tenth of the rows, to show whether memory stays flat
 *    (see the "peak retained" column: the other peaks include garbage V8 has not yet collected).
 * PGlite by default; a throwaway PostgreSQL database when DATABASE_URL is set.
 */

const PAGE = 50;
const DEFAULT_USERS = 100_000;
const DEFAULT_REQUESTS = 50;
const WARMUP_REQUESTS = 5;
const PASSWORD = "Bench-Passw0rd!";

export type BenchDatabase = {
  label: string;
  db: Db;
  /** Raw connection on the same database (superuser/owner, no tenant role): the baselines. */
  sql: SqlConnection;
  close(): Promise<void>;
};

export const openPglite = async (): Promise<BenchDatabase> => {
  const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const sql = pgliteConnection(pglite);
  await migrate(sql);
  const db = await createDb({ dataDir: "", pglite });
  return {
    label: "PGlite",
    db,
    sql,
    close: async () => {
      await db.close();
      await pglite.close();
    },
  };
};

/** A throwaway database on the server of `adminUrl`, migrated, dropped on close. */
export const openPostgres = async (adminUrl: string): Promise<BenchDatabase> => {
  const name = `hisob_bench_${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const admin = await connectPostgres(adminUrl);
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  };
  try {
    const sql = await connectPostgres(url.toString());
    await migrate(sql);
    const db = await createDb({ databaseUrl: url.toString(), dataDir: "" });
    return {
      label: `PostgreSQL (${url.host}, throwaway database ${name})`,
      db,
      sql,
      close: async () => {
        await db.close();
        await sql.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
};

/**
 * `count` users (plus roles, groups and their links) in one tenant, one INSERT … SELECT each, each
 * in its own withTenant transaction (PostgreSQL's interactive transactions time out after 15 s).
 */
/** The environment every server bench runs with (plus `extra` variables). */
export const benchEnv = (extra: Record<string, string> = {}) =>
  resolveDevCryptoKey(
    loadEnv({
      NODE_ENV: "test",
      OIDC_ISSUER_URL: "http://localhost:3000",
      OIDC_CRYPTO_KEY: "b".repeat(40),
      // Counted (its cost is part of every request) but never reached by one benchmarking user.
      API_RATE_LIMIT: "100000000",
      ...extra,
    }),
  );

/** A "Bench" tenant with an administrator, signed in: its session token (and who it is). */
export const benchTenantAdmin = async (
  db: Db,
  outbox: Outbox,
  services: Pick<AppServices, "auth">,
  email = "bench-admin@example.com",
) => {
  const tenant = await provisionTenant({ db, outbox }, { name: "Bench", isPlatform: false });
  const user = await db.withTenant(tenant.id, (tx) =>
    insertUser(tx, outbox, tenant.id, {
      email,
      password: PASSWORD,
      firstName: "Bench",
      lastName: "Admin",
      roleNames: [ADMIN_ROLE_NAME],
    }),
  );
  const { token } = await services.auth.login(
    { email, password: PASSWORD },
    { ip: "127.0.0.1", userAgent: "bench" },
  );
  return { tenant, user, email, token };
};

export const seedUsers = async (db: Db, tenantId: string, count: number) => {
  const run = (sql: string, ...params: unknown[]) =>
    db.withTenant(tenantId, (tx) => tx.$executeRawUnsafe(sql, ...params));
  // ~50 users share each last name, so the id tie-break of the sort matters; created_at is unique.
  await run(
    `INSERT INTO users (id, tenant_id, email, first_name, last_name, ui_language, is_active, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'bench' || i || '@example.com',
              (ARRAY['Aziz','Dilnoza','Jasur','Madina','Otabek','Nodira','Sardor','Zarina','Timur','Laylo'])[1 + i % 10],
              'Surname ' || lpad(((i * 7919) % ${Math.max(1, Math.floor(count / 50))})::text, 5, '0'),
              (ARRAY['en','ru','uz'])[1 + i % 3], i % 17 <> 0,
              timestamptz '2024-01-01 00:00:00Z' + i * interval '1 minute',
              timestamptz '2024-01-02 00:00:00Z' + i * interval '1 minute'
       FROM generate_series(1, $2::int) AS i`,
    tenantId,
    count,
  );
  await run(
    `INSERT INTO roles (id, tenant_id, name, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'Bench role ' || r, now() FROM generate_series(0, 5) AS r`,
    tenantId,
  );
  await run(
    `INSERT INTO role_permissions (tenant_id, role_id, permission_id)
       SELECT $1::uuid, r.id, p.id FROM roles r JOIN permissions p ON abs(hashtext(r.name || p.name)) % 3 = 0
       WHERE r.tenant_id = $1::uuid AND r.name LIKE 'Bench role %'`,
    tenantId,
  );
  // Every user holds one role, every third a second one.
  await run(
    `WITH u AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM users
                  WHERE tenant_id = $1::uuid AND email LIKE 'bench%'),
            r AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM roles
                  WHERE tenant_id = $1::uuid AND name LIKE 'Bench role %')
       INSERT INTO user_roles (tenant_id, user_id, role_id)
       SELECT $1::uuid, u.id, r.id FROM u JOIN r ON r.k = u.n % 6
       UNION ALL
       SELECT $1::uuid, u.id, r.id FROM u JOIN r ON r.k = (u.n + 1) % 6 WHERE u.n % 3 = 0`,
    tenantId,
  );
  await run(
    `INSERT INTO groups (id, tenant_id, name, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'Bench group ' || g, now() FROM generate_series(0, 2) AS g`,
    tenantId,
  );
  await run(
    `INSERT INTO group_roles (tenant_id, group_id, role_id)
       SELECT $1::uuid, g.id, r.id FROM groups g JOIN roles r ON r.name = 'Bench role ' || right(g.name, 1)
       WHERE g.tenant_id = $1::uuid AND g.name LIKE 'Bench group %'`,
    tenantId,
  );
  // Every fifth user is in a group.
  await run(
    `WITH u AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM users
                  WHERE tenant_id = $1::uuid AND email LIKE 'bench%'),
            g AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM groups
                  WHERE tenant_id = $1::uuid AND name LIKE 'Bench group %')
       INSERT INTO group_users (tenant_id, group_id, user_id)
       SELECT $1::uuid, g.id, u.id FROM u JOIN g ON u.n % 5 = 0 AND g.k = (u.n / 5) % 3`,
    tenantId,
  );
};

/** A Writable that only counts bytes (and calls `onChunk` per chunk, e.g. to sample memory). */
const countingSink = (onChunk: () => void) => {
  const start = performance.now();
  const chunks: Array<{ at: number; bytes: number }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push({ at: performance.now() - start, bytes: chunk.length });
      onChunk();
      callback();
    },
  });
  const result = (): ExportOutput => {
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    let written = 0;
    const half = chunks.find((chunk) => {
      written += chunk.bytes;
      return written >= bytes / 2;
    });
    return { bytes, halfAt: (half?.at ?? 0) / 1000 };
  };
  return { stream, result };
};

/** Output size, and when half of it had reached the client (seconds from the start). */
type ExportOutput = { bytes: number; halfAt: number };

type RawExportRow = {
  email: string;
  first_name: string;
  last_name: string;
  ui_language: string;
  is_active: boolean;
  roles: string | null;
  groups: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The export's columns, written the way the exporter writes them (streaming, styles, no shared strings). */
const writeRawXlsx = async (rows: RawExportRow[], output: Writable) => {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet("Users", { views: [{ state: "frozen", ySplit: 1 }] });
  const datetime = { numFmt: "yyyy-mm-dd hh:mm" };
  sheet.columns = [
    { header: "Email", key: "email", width: 32 },
    { header: "First name", key: "firstName", width: 24 },
    { header: "Last name", key: "lastName", width: 24 },
    { header: "Language", key: "language", width: 10 },
    { header: "Active", key: "active", width: 10 },
    { header: "Roles", key: "roles", width: 30 },
    { header: "Groups", key: "groups", width: 30 },
    { header: "Created", key: "createdAt", width: 18, style: datetime },
    { header: "Updated", key: "updatedAt", width: 18, style: datetime },
  ];
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: 9 } };
  for (const row of rows) {
    sheet
      .addRow([
        row.email,
        row.first_name,
        row.last_name,
        row.ui_language,
        row.is_active,
        row.roles ?? "",
        row.groups ?? "",
        row.created_at,
        row.updated_at,
      ])
      .commit();
  }
  sheet.commit();
  await workbook.commit();
};

const RAW_EXPORT_SQL = `
  SELECT u.email, u.first_name, u.last_name, u.ui_language, u.is_active, u.created_at, u.updated_at,
         (SELECT string_agg(r.name, ', ' ORDER BY r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
          WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id) AS roles,
         (SELECT string_agg(g.name, ', ' ORDER BY g.name) FROM group_users gu JOIN groups g ON g.id = gu.group_id
          WHERE gu.tenant_id = u.tenant_id AND gu.user_id = u.id) AS groups
  FROM users u WHERE u.tenant_id = $1::uuid
  ORDER BY u.created_at, u.id LIMIT $2`;

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(2);

const RETAINED_SAMPLE_MS = 250;
/**
 * Peak memory that is still reachable during `fn`. Every RETAINED_SAMPLE_MS it forces a full GC and
 * reads heapUsed + external, minus the same reading before. The peaks of withMemorySampling also count
 * garbage not yet collected: Prisma's row objects and spent Buffers, however lazily V8 collects them.
 * This shows what the export holds. The forced GCs slow the run, so it is a separate run, not timed.
 */
const peakRetained = async (fn: () => Promise<unknown>): Promise<number | undefined> => {
  if (!forceGc.available) return undefined;
  const reading = () => {
    forceGc();
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  };
  // Settle first: measured here, a reading taken right after the previous run can be ~8 MB above
  // where it settles a few turns later, which would push the peak below "before".
  let before = reading();
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    before = Math.min(before, reading());
  }
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, reading());
  }, RETAINED_SAMPLE_MS);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  return peak - before;
};

/**
 * A bench database (PGlite, or a throwaway PostgreSQL database when DATABASE_URL is set) with every
 * module's services and the HTTP server wired as the server wires them (the OpenID provider is not
 * started: the bench authenticates with a session token, which is verified first), and a "Bench"
 * tenant's administrator signed in. Everything is closed after `fn`.
 */
export const withBenchServer = async <T>(
  fn: (bench: {
    database: BenchDatabase;
    app: App;
    tenant: { id: string };
    headers: Record<string, string>;
  }) => Promise<T>,
): Promise<T> => {
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await openPostgres(adminUrl) : await openPglite();
  const { db } = database;
  let app: App | undefined;
  try {
    const outbox = createOutbox(db, { unhandled: "settle" }); // as the server's
    await syncPermissions(db);
    const env = benchEnv();
    const { services } = composeServices(db, outbox, env);
    app = await buildServer({ env, db, services, logger: false });
    await app.ready();
    const { tenant, token } = await benchTenantAdmin(db, outbox, services);
    return await fn({ database, app, tenant, headers: { authorization: `Bearer ${token}` } });
  } finally {
    await app?.close();
    await database.close();
  }
};

export const usersBench: Bench = {
  name: "users",
  run: async ({ iterations, users }) => {
    const userCount = users ?? DEFAULT_USERS;
    const requests = iterations ?? DEFAULT_REQUESTS;
    const smallExport = Math.max(1, Math.floor(userCount / 10));
    return withBenchServer(async ({ database, app, tenant, headers }) => {
      const { db, sql } = database;

      // 1. Seed.
      const seedStart = process.hrtime.bigint();
      await seedUsers(db, tenant.id, userCount);
      const seedSeconds = seconds(seedStart);
      const analyzeStart = process.hrtime.bigint();
      await sql.exec("ANALYZE users, user_roles, group_users, roles, groups");
      const analyzeSeconds = seconds(analyzeStart);
      const [{ total } = { total: 0 }] = await sql.query<{ total: number }>(
        "SELECT count(*)::int AS total FROM users WHERE tenant_id = $1::uuid",
        [tenant.id],
      );

      // 2. One page in the middle, sorted by last name.
      const offsetOf = (i: number) => Math.floor(total / 2) + (i % 10) * PAGE;
      const listUrl = (i: number) => `/users?limit=${PAGE}&offset=${offsetOf(i)}&sortBy=lastName`;
      const httpPage = async (i: number) => {
        const response = await app.inject({ method: "GET", url: listUrl(i), headers });
        if (response?.statusCode !== 200) throw new Error(`GET ${listUrl(i)}: ${response?.statusCode}`);
        return response.json<{ items: Array<{ id: string }>; total: number }>();
      };
      const rawPage = async (i: number) => {
        const rows = await sql.query<{ id: string }>(
          `SELECT id, email, first_name, last_name, ui_language, is_active, avatar_url, password_hash,
                  created_at, updated_at
           FROM users WHERE tenant_id = $1::uuid ORDER BY last_name, id LIMIT $2 OFFSET $3`,
          [tenant.id, PAGE, offsetOf(i)],
        );
        const [count] = await sql.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM users WHERE tenant_id = $1::uuid",
          [tenant.id],
        );
        return { items: rows, total: count?.count ?? 0 };
      };
      // Same page, same order: otherwise the comparison means nothing.
      const [ours, theirs] = [await httpPage(3), await rawPage(3)];
      if (
        ours.total !== theirs.total ||
        ours.items.map((item) => item.id).join() !== theirs.items.map((item) => item.id).join()
      )
        throw new Error("GET /users and the raw SQL baseline returned different pages");

      const timeRequests = async (fn: (i: number) => Promise<unknown>) => {
        for (let i = 0; i < WARMUP_REQUESTS; i++) await fn(i);
        const samples: number[] = [];
        for (let i = 0; i < requests; i++) {
          const start = process.hrtime.bigint();
          await fn(i);
          samples.push(seconds(start) * 1000);
        }
        return { median: median(samples), p95: percentile(samples, 95) };
      };
      const rawList = await timeRequests(rawPage);
      const httpList = await timeRequests(httpPage);

      // 3. Export: ours through HTTP vs one raw scan into the same streaming writer.
      const httpExport = async (limit: number | undefined, onChunk: () => void = () => {}) => {
        const sink = countingSink(onChunk);
        const url = `/users/export${limit === undefined ? "" : `?limit=${limit}`}`;
        const response = await app.inject({ method: "GET", url, headers, payloadAsStream: true });
        if (response?.statusCode !== 200) throw new Error(`GET ${url}: ${response?.statusCode}`);
        response.stream().pipe(sink.stream);
        await finished(sink.stream);
        return sink.result();
      };
      const rawScan = (limit: number) => sql.query<RawExportRow>(RAW_EXPORT_SQL, [tenant.id, limit]);
      const rawExport = async (limit: number, onChunk: () => void = () => {}) => {
        const sink = countingSink(onChunk);
        await writeRawXlsx(await rawScan(limit), sink.stream);
        await finished(sink.stream);
        return sink.result();
      };
      // Warm-up: JIT, caches, and PGlite's wasm heap grown by one full scan (it never shrinks).
      const scanStart = process.hrtime.bigint();
      await rawScan(total);
      const scanSeconds = seconds(scanStart);
      await httpExport(1_000);
      await rawExport(1_000);

      const exportRows: BenchTable["rows"] = [];
      for (const limit of [smallExport, total]) {
        const rows = limit === total ? `${total} (all)` : String(limit);
        const base = await withMemorySampling((sample) => rawExport(limit, sample));
        const ours = await withMemorySampling((sample) =>
          httpExport(limit === total ? undefined : limit, sample),
        );
        const retained = {
          base: await peakRetained(() => rawExport(limit)),
          ours: await peakRetained(() => httpExport(limit === total ? undefined : limit)),
        };
        if (limit === total)
          exportRows.push({
            case: "raw SQL scan alone, no spreadsheet (warm-up)",
            rows,
            "wall s": scanSeconds.toFixed(2),
            "× baseline time": (scanSeconds / base.seconds).toFixed(2),
          });
        for (const [name, run, held] of [
          ["raw SQL scan + exceljs (baseline)", base, retained.base],
          ["GET /users/export", ours, retained.ours],
        ] as const) {
          exportRows.push({
            case: name,
            rows,
            "wall s": run.seconds.toFixed(2),
            "× baseline time": (run.seconds / base.seconds).toFixed(2),
            "peak Δ rss MB": mb(run.peakRss),
            "peak Δ heap MB": mb(run.peakHeap),
            "peak Δ external MB": mb(run.peakExternal),
            "peak retained Δ heap+external MB": held === undefined ? "n/a" : mb(held),
            "longest loop stall s": run.longestStall.toFixed(2),
            "50% bytes out at s": run.result.halfAt.toFixed(2),
            "output bytes": run.result.bytes,
          });
        }
      }

      return {
        name: `Users: ${userCount} seeded in one tenant (${database.label})`,
        rows: [],
        tables: [
          {
            title: "Seed (one INSERT … SELECT generate_series per table, in db.withTenant)",
            rows: [
              {
                step: `users (+6 roles, user_roles, 3 groups, group_users)`,
                rows: userCount,
                seconds: seedSeconds.toFixed(2),
                "rows/s": Math.round(userCount / seedSeconds),
              },
              { step: "ANALYZE", rows: "", seconds: analyzeSeconds.toFixed(2), "rows/s": "" },
            ],
          },
          {
            title: `GET /users?limit=${PAGE}&offset≈${offsetOf(0)}&sortBy=lastName, ${requests} requests (+${WARMUP_REQUESTS} warm-up), total ${total}`,
            rows: [
              {
                case: "raw SQL page + count(*) (baseline)",
                "median ms": ms(rawList.median),
                "p95 ms": ms(rawList.p95),
                "× baseline (median)": "1.00",
              },
              {
                case: "app.inject GET /users (bearer session)",
                "median ms": ms(httpList.median),
                "p95 ms": ms(httpList.p95),
                "× baseline (median)": (httpList.median / rawList.median).toFixed(2),
              },
            ],
          },
          {
            title: `Export .xlsx, default sort createdAt. Memory: peak minus before${forceGc.available ? " (after a forced GC)" : ""}; rss sampled every 20 ms from a worker thread, heapUsed and external (Buffers) on the main thread, every 20 ms when its event loop runs and per output chunk. Retained: a separate, untimed run, heapUsed + external after a forced GC every ${RETAINED_SAMPLE_MS} ms (what is still reachable; the peaks above also count garbage not yet collected)`,
            rows: exportRows,
          },
        ],
      };
    });
  },
};
