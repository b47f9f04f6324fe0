import { PGlite } from "@electric-sql/pglite";
import { migrate } from "@hisob/db";
import { pgliteConnection } from "../packages/db/src/sql-connection";

const main = async () => {
  const pglite = new PGlite();
  await migrate(pgliteConnection(pglite));
  const tenant = "11111111-1111-1111-1111-111111111111";
  await pglite.query(`INSERT INTO tenants (id, name, updated_at) VALUES ($1, 'x', now())`, [tenant]);
  await pglite.exec(`BEGIN; SELECT set_config('app.tenant_id', '${tenant}', true), set_config('role', 'hisob_tenant', true);`);
  const ex = async (sql: string) => {
    const r = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, TIMING OFF) ${sql}`, [tenant]);
    console.log(r.rows.map((x) => x["QUERY PLAN"]).join("\n"), "\n");
  };
  await ex(`INSERT INTO users (id, tenant_id, email, first_name, last_name, ui_language, is_active, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'bench' || i || '@example.com', 'F', 'Surname ' || lpad(((i * 7919) % 2000)::text, 5, '0'),
              'en', true, timestamptz '2024-01-01 00:00:00Z' + i * interval '1 minute', now() FROM generate_series(1, 100000) AS i`);
  await ex(`INSERT INTO roles (id, tenant_id, name, updated_at) SELECT gen_random_uuid(), $1::uuid, 'Bench role ' || r, now() FROM generate_series(0, 5) AS r`);
  await ex(`WITH u AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM users WHERE tenant_id = $1::uuid),
            r AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS k FROM roles WHERE tenant_id = $1::uuid)
       INSERT INTO user_roles (tenant_id, user_id, role_id)
       SELECT $1::uuid, u.id, r.id FROM u JOIN r ON r.k = u.n % 6`);
  await pglite.exec("COMMIT");
  await pglite.close();
};
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
