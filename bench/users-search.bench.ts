import { median, percentile, seconds } from "./measure";
import type { Bench, BenchTable } from "./run";
import { withBenchServer } from "./users.bench";

/**
 * The admin's user search on a big tenant: what the Users screen asks while someone types, through
 * the real HTTP stack (`app.inject`, a bearer session), beside the same search in raw SQL on the same
 * database (ILIKE on the same columns, first page + count; the owner's connection, so no row-level
 * security), and that raw SQL again with index scans turned off: what every search cost before the
 * users' trigram indexes (migration users_search_trgm, which also lets them serve the tenant role
 * under RLS). Seeded with one INSERT … SELECT generate_series on the owner's connection.
 * PGlite by default; a throwaway PostgreSQL database when DATABASE_URL is set.
 */

const PAGE = 20;
const DEFAULT_USERS = 100_000;
const DEFAULT_REQUESTS = 20;
const WARMUP_REQUESTS = 3;

/** What a user types, key by key, and a few finished searches: [query field, text]. */
const SEARCHES: Array<[field: "name" | "email", text: string]> = [
  ["email", "be"],
  ["email", "bench4"],
  ["email", "bench4242"],
  ["email", "bench42421@example.com"],
  ["name", "Su"],
  ["name", "Surname 0042"],
  ["name", "dilnoza"],
  ["name", "nobody-is-called-this"],
];

const ms = (value: number) => value.toFixed(2);

export const usersSearchBench: Bench = {
  name: "users-search",
  run: async ({ iterations, users }) => {
    const userCount = users ?? DEFAULT_USERS;
    const requests = iterations ?? DEFAULT_REQUESTS;
    return withBenchServer(async ({ database, app, tenant, headers }) => {
      const { sql } = database;

      // Users only (the search reads no roles or groups), as the owner: no per-row policy checks.
      const seedStart = process.hrtime.bigint();
      await sql.query(
        `INSERT INTO users (id, tenant_id, email, first_name, last_name, ui_language, is_active, created_at, updated_at)
           SELECT gen_random_uuid(), $1::uuid, 'bench' || i || '@example.com',
                  (ARRAY['Aziz','Dilnoza','Jasur','Madina','Otabek','Nodira','Sardor','Zarina','Timur','Laylo'])[1 + i % 10],
                  'Surname ' || lpad(((i * 7919) % ${Math.max(1, Math.floor(userCount / 50))})::text, 5, '0'),
                  (ARRAY['en','ru','uz'])[1 + i % 3], i % 17 <> 0,
                  timestamptz '2024-01-01 00:00:00Z' + i * interval '1 minute',
                  timestamptz '2024-01-02 00:00:00Z' + i * interval '1 minute'
           FROM generate_series(1, $2::int) AS i`,
        [tenant.id, userCount],
      );
      const seedSeconds = seconds(seedStart);
      const analyzeStart = process.hrtime.bigint();
      await sql.exec("ANALYZE users");
      const analyzeSeconds = seconds(analyzeStart);

      const rawSql = (field: "name" | "email") => {
        const where =
          field === "email"
            ? "tenant_id = $1::uuid AND email ILIKE $2"
            : "tenant_id = $1::uuid AND (first_name ILIKE $2 OR last_name ILIKE $2)";
        return {
          page: `SELECT id, email, first_name, last_name, ui_language, is_active, avatar_url, created_at, updated_at
                 FROM users WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`,
          count: `SELECT count(*)::int AS count FROM users WHERE ${where}`,
        };
      };
      const pattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const raw = async (field: "name" | "email", text: string) => {
        const query = rawSql(field);
        const rows = await sql.query<{ id: string }>(query.page, [tenant.id, pattern(text)]);
        const [count] = await sql.query<{ count: number }>(query.count, [tenant.id, pattern(text)]);
        return { items: rows, total: count?.count ?? 0 };
      };
      const http = async (field: "name" | "email", text: string) => {
        const url = `/users?limit=${PAGE}&sortBy=createdAt&order=desc&${field}=${encodeURIComponent(text)}`;
        const response = await app.inject({ method: "GET", url, headers });
        if (response?.statusCode !== 200) throw new Error(`GET ${url}: ${response?.statusCode}`);
        return response.json<{ items: Array<{ id: string }>; total: number }>();
      };
      const time = async (fn: () => Promise<unknown>) => {
        for (let i = 0; i < WARMUP_REQUESTS; i++) await fn();
        const samples: number[] = [];
        for (let i = 0; i < requests; i++) {
          const start = process.hrtime.bigint();
          await fn();
          samples.push(seconds(start) * 1000);
        }
        return { median: median(samples), p95: percentile(samples, 95) };
      };

      const rows: BenchTable["rows"] = [];
      for (const [field, text] of SEARCHES) {
        // Same answer first: otherwise the comparison means nothing.
        const [ours, theirs] = [await http(field, text), await raw(field, text)];
        if (
          ours.total !== theirs.total ||
          ours.items.map((item) => item.id).join() !== theirs.items.map((item) => item.id).join()
        )
          throw new Error(`GET /users?${field}=${text} and the raw SQL baseline returned different pages`);
        const plan = await sql.query<{ "QUERY PLAN": string }>(`EXPLAIN ${rawSql(field).count}`, [
          tenant.id,
          pattern(text),
        ]);
        const scan = plan.map((line) => line["QUERY PLAN"]).join(" ");
        const base = await time(() => raw(field, text));
        const measured = await time(() => http(field, text));
        // The same raw SQL without index scans (one session on PGlite: set and reset around it).
        await sql.exec("SET enable_bitmapscan = off; SET enable_indexscan = off");
        const unindexed = await time(() => raw(field, text)).finally(() =>
          sql.exec("RESET enable_bitmapscan; RESET enable_indexscan"),
        );
        rows.push({
          search: `${field}=${text}`,
          matches: theirs.total,
          "raw SQL median ms (baseline)": ms(base.median),
          "raw SQL p95 ms": ms(base.p95),
          "GET /users median ms": ms(measured.median),
          "GET /users p95 ms": ms(measured.p95),
          "× baseline (median)": (measured.median / base.median).toFixed(2),
          "raw SQL, no index scans, median ms": ms(unindexed.median),
          "no index scans × baseline": (unindexed.median / base.median).toFixed(2),
          "count plan": /Seq Scan/.test(scan) ? "seq scan" : /Bitmap|Index/.test(scan) ? "index" : "other",
        });
      }

      return {
        name: `Users search: ${userCount} users in one tenant (${database.label})`,
        rows: [],
        tables: [
          {
            title:
              "Seed (one INSERT … SELECT generate_series, owner connection; indexes maintained as rows go in)",
            rows: [
              {
                step: "users",
                rows: userCount,
                seconds: seedSeconds.toFixed(2),
                "rows/s": Math.round(userCount / seedSeconds),
              },
              { step: "ANALYZE users", rows: "", seconds: analyzeSeconds.toFixed(2), "rows/s": "" },
            ],
          },
          {
            title: `Search as you type: first page of ${PAGE} (newest first) + total, ${requests} requests (+${WARMUP_REQUESTS} warm-up) each`,
            rows,
          },
        ],
      };
    });
  },
};
