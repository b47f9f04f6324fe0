import { PGlite } from "@electric-sql/pglite";
import { migrate } from "@hisob/db";
import { pgliteConnection } from "../packages/db/src/sql-connection";

const main = async () => {
  const pglite = new PGlite();
  await migrate(pgliteConnection(pglite));
  const tenant = "11111111-1111-1111-1111-111111111111";
  await pglite.query(`INSERT INTO tenants (id, name, updated_at) VALUES ($1, 'x', now())`, [tenant]);
  await pglite.query(
    `INSERT INTO users (id, tenant_id, email, first_name, last_name, ui_language, is_active, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'bench' || i || '@example.com', 'F', 'Surname ' || lpad(((i * 7919) % 2000)::text, 5, '0'),
              'en', true, timestamptz '2024-01-01 00:00:00Z' + i * interval '1 minute', now() FROM generate_series(1, 100000) AS i`,
    [tenant],
  );
  await pglite.query(
    `INSERT INTO groups (id, tenant_id, name, updated_at) VALUES (gen_random_uuid(), $1, 'g', now())`,
    [tenant],
  );
  await pglite.query(
    `INSERT INTO group_users SELECT $1, (SELECT id FROM groups), id FROM (SELECT id, row_number() over (order by created_at) n FROM users) u WHERE n % 5 = 0`,
    [tenant],
  );
  await pglite.exec("ANALYZE");
  const ids = (
    await pglite.query<{ id: string }>(`SELECT id FROM users ORDER BY created_at LIMIT 1000 OFFSET 30000`)
  ).rows.map((r) => r.id);
  await pglite.exec(
    `BEGIN; SELECT set_config('app.tenant_id', '${tenant}', true), set_config('role', 'hisob_tenant', true);`,
  );
  const ex = async (sql: string, params: unknown[] = [tenant]) => {
    const r = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS OFF) ${sql}`, params);
    console.log(r.rows.map((x) => x["QUERY PLAN"]).join("\n"), "\n");
  };
  await ex(
    `SELECT id, email, first_name, last_name FROM users WHERE tenant_id = $1 ORDER BY last_name ASC, id ASC LIMIT 50 OFFSET 50000`,
  );
  await ex(`SELECT COUNT(*) FROM (SELECT id FROM users WHERE tenant_id = $1 OFFSET 0) AS sub`);
  const [mid] = (
    await pglite.query<{ id: string }>(`SELECT id FROM users ORDER BY created_at OFFSET 50000 LIMIT 1`)
  ).rows;
  const inList = ids.map((_, i) => `$${i + 1}`).join(",");
  for (let k = 0; k < 2; k++) {
    const t = performance.now();
    await pglite.query(
      `SELECT tenant_id, group_id, user_id FROM group_users WHERE user_id IN (${inList}) OFFSET 0`,
      ids,
    );
    console.log("group_users IN (1000 params) ms", (performance.now() - t).toFixed(1));
    const t2 = performance.now();
    await pglite.query(
      `SELECT tenant_id, group_id, user_id FROM group_users WHERE user_id = ANY($1::uuid[]) OFFSET 0`,
      [ids],
    );
    console.log("group_users = ANY($1) ms", (performance.now() - t2).toFixed(1));
  }
  await ex(`SELECT tenant_id, group_id, user_id FROM group_users WHERE user_id IN (${inList}) OFFSET 0`, ids);
  await ex(
    `SELECT id, email FROM users WHERE tenant_id = $1 AND ((created_at = (SELECT created_at FROM users WHERE id = $2) AND id >= $2) OR created_at > (SELECT created_at FROM users WHERE id = $2)) ORDER BY created_at, id LIMIT 1001 OFFSET 1`,
    [tenant, mid?.id],
  );
  await pglite.exec("COMMIT");
  await pglite.close();
};
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
