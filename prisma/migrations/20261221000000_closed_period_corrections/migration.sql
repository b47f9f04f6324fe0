-- Corrections the ledger's functions post for a day in a closed period go to the first open day
-- (docs/decisions/0111-books-features.md). `gl_sync` and `gl_backfill` compare a document's desired
-- lines with what its entries hold by *effective* day — a day on or before the lock date
-- (tenants.books_closed_through) counts as the first open day after it — so a difference that belongs to
-- a closed day is posted on the first open day, with a memo naming the day(s) it corrects, and the
-- closed period's lines stay as they were reported. Without a lock date nothing changes.

-- The memo of an entry that carries a correction of closed days (empty when it carries none).
CREATE OR REPLACE FUNCTION gl_closed_memo(p_from date, p_to date, p_open date) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_from IS NULL THEN ''
    WHEN p_from = p_to THEN format('Correction of %s, in a closed period (books closed through %s)', p_from, p_open - 1)
    ELSE format('Correction of %s to %s, in a closed period (books closed through %s)', p_from, p_to, p_open - 1)
  END
$$;

-- 20261210's gl_sync with the effective day: one more primary-key read per posting (the tenant's lock date).
CREATE OR REPLACE FUNCTION gl_sync(p_tenant uuid, p_kind text, p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_open date;
BEGIN
  SELECT books_closed_through + 1 INTO v_open FROM tenants WHERE id = p_tenant;
  WITH delta AS (
    SELECT GREATEST(x.date, v_open) AS date, x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code,
           sum(x.amount)::bigint AS amount, sum(x.base_amount)::bigint AS base_amount, max(x.rate) AS rate,
           -- The closed days this row corrects: only when what they hold for it does not net to zero.
           CASE WHEN COALESCE(sum(x.amount) FILTER (WHERE x.date < v_open), 0) <> 0
                  OR COALESCE(sum(x.base_amount) FILTER (WHERE x.date < v_open), 0) <> 0
                THEN min(x.date) FILTER (WHERE x.date < v_open) END AS closed_from,
           CASE WHEN COALESCE(sum(x.amount) FILTER (WHERE x.date < v_open), 0) <> 0
                  OR COALESCE(sum(x.base_amount) FILTER (WHERE x.date < v_open), 0) <> 0
                THEN max(x.date) FILTER (WHERE x.date < v_open) END AS closed_to
      FROM (SELECT g.date, g.gl_account_id, g.money_account_id, g.counterparty_id, g.currency_code,
                   g.amount, g.base_amount, g.rate
              FROM gl_desired(p_tenant, p_kind, p_id) g
            UNION ALL
            SELECT l.date, l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code,
                   -l.amount, -l.base_amount, NULL
              FROM journal_entries e
              JOIN journal_lines l ON l.tenant_id = e.tenant_id AND l.entry_id = e.id
             WHERE e.tenant_id = p_tenant AND e.source_kind = p_kind AND e.source_id = p_id) x
     GROUP BY GREATEST(x.date, v_open), x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code
    HAVING sum(x.amount) <> 0 OR sum(x.base_amount) <> 0
  ), entries AS (
    INSERT INTO journal_entries (tenant_id, date, source_kind, source_id, memo)
    SELECT p_tenant, dd.date, p_kind, p_id, gl_closed_memo(dd.closed_from, dd.closed_to, v_open)
      FROM (SELECT date, min(closed_from) AS closed_from, max(closed_to) AS closed_to FROM delta GROUP BY date) dd
    RETURNING id, date
  )
  INSERT INTO journal_lines (tenant_id, entry_id, gl_account_id, date, money_account_id, counterparty_id,
                             currency_code, amount, base_amount, rate)
  SELECT p_tenant, en.id, delta.gl_account_id, delta.date, delta.money_account_id, delta.counterparty_id,
         delta.currency_code, delta.amount, delta.base_amount, delta.rate
    FROM delta JOIN entries en ON en.date = delta.date;
END
$$;

-- 20261215's gl_backfill with the same effective day in its set-based statement (the rest goes through gl_sync).
CREATE OR REPLACE FUNCTION gl_backfill(p_tenant uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_base char(3) := gl_base_currency(p_tenant);
  v_money uuid;
  v_foreign uuid;
  v_revenue uuid;
  v_expense uuid;
  v_opening uuid;
  v_gain uuid;
  v_loss uuid;
  v_before bigint;
  v_after bigint;
  v_open date;
BEGIN
  -- The first open day: a line due on or before the lock date is posted on it (gl_sync's rule).
  SELECT books_closed_through + 1 INTO v_open FROM tenants WHERE id = p_tenant;
  SELECT count(*) INTO v_before FROM journal_lines WHERE tenant_id = p_tenant;
  IF EXISTS (SELECT 1 FROM transactions WHERE tenant_id = p_tenant) THEN
    -- The chart as a first posting would install it (gl_role_account), under the same lock.
    IF NOT EXISTS (SELECT 1 FROM gl_accounts WHERE tenant_id = p_tenant) THEN
      PERFORM pg_advisory_xact_lock(1214840979, hashtext(p_tenant::text));
      IF NOT EXISTS (SELECT 1 FROM gl_accounts WHERE tenant_id = p_tenant) THEN
        PERFORM gl_install_chart(p_tenant, 'nas21');
      END IF;
    END IF;
    -- The role leaves once; a missing one is looked up by gl_role_account, which names it in its error.
    SELECT max(id) FILTER (WHERE role = 'money'), max(id) FILTER (WHERE role = 'money_foreign'),
           max(id) FILTER (WHERE role = 'revenue'), max(id) FILTER (WHERE role = 'expense'),
           max(id) FILTER (WHERE role = 'opening_equity'), max(id) FILTER (WHERE role = 'fx_gain'),
           max(id) FILTER (WHERE role = 'fx_loss')
      INTO v_money, v_foreign, v_revenue, v_expense, v_opening, v_gain, v_loss
      FROM (SELECT id::text AS id, role FROM gl_accounts WHERE tenant_id = p_tenant AND role IS NOT NULL) r;

    WITH doc AS MATERIALIZED (
      -- Each cash document's debit side and credit side, its currency and its (signed) amount.
      SELECT t.id, t.date, t.type,
             CASE t.type WHEN 'income' THEN dm.currency_code WHEN 'opening_balance' THEN COALESCE(dm.currency_code, om.currency_code)
                         ELSE om.currency_code END AS cur,
             CASE WHEN t.type = 'opening_balance' AND t.destination_account_id IS NULL THEN -t.amount ELSE t.amount END AS amount,
             CASE t.type
               WHEN 'expense' THEN COALESCE(ec.gl_account_id, v_expense, gl_role_account(p_tenant, 'expense'))
               WHEN 'opening_balance' THEN COALESCE(dm.gl_account_id, om.gl_account_id)
               ELSE dm.gl_account_id END AS dr_gl,
             CASE t.type
               WHEN 'expense' THEN NULL
               WHEN 'opening_balance' THEN COALESCE(t.destination_account_id, t.origin_account_id)
               ELSE t.destination_account_id END AS dr_money,
             CASE t.type WHEN 'expense' THEN e.counterparty_id END AS dr_cp,
             CASE t.type
               WHEN 'income' THEN COALESCE(pc.gl_account_id, v_revenue, gl_role_account(p_tenant, 'revenue'))
               WHEN 'opening_balance' THEN COALESCE(v_opening, gl_role_account(p_tenant, 'opening_equity'))
               ELSE om.gl_account_id END AS cr_gl,
             CASE WHEN t.type IN ('expense', 'transfer') THEN t.origin_account_id END AS cr_money,
             CASE t.type WHEN 'income' THEN p.counterparty_id END AS cr_cp
        FROM transactions t
        LEFT JOIN money_accounts om ON om.tenant_id = t.tenant_id AND om.id = t.origin_account_id
        LEFT JOIN money_accounts dm ON dm.tenant_id = t.tenant_id AND dm.id = t.destination_account_id
        LEFT JOIN payments p ON t.type = 'income' AND p.tenant_id = t.tenant_id AND p.transaction_id = t.id
        LEFT JOIN payment_categories pc ON pc.tenant_id = p.tenant_id AND pc.id = p.category_id
        LEFT JOIN expenses e ON t.type = 'expense' AND e.tenant_id = t.tenant_id AND e.transaction_id = t.id
        LEFT JOIN expense_categories ec ON ec.tenant_id = e.tenant_id AND ec.id = e.category_id
       WHERE t.tenant_id = p_tenant AND t.reversal_of_id IS NULL
         AND (t.type IN ('income', 'expense', 'opening_balance')
           OR (t.type = 'transfer' AND om.currency_code = dm.currency_code
               AND COALESCE(t.destination_amount, t.amount) = t.amount))
    ), valued AS (
      SELECT d.*, r.rate, COALESCE(round(d.amount * r.rate), 0)::bigint AS base_amount,
             -- A money account's own leaf, else the chart's for its currency (gl_money_account).
             CASE WHEN v_base IS NULL OR d.cur = v_base THEN COALESCE(v_money, gl_role_account(p_tenant, 'money'))
                  ELSE COALESCE(v_foreign, gl_role_account(p_tenant, 'money_foreign')) END AS money_gl
        FROM doc d
       CROSS JOIN LATERAL (SELECT CASE WHEN v_base IS NULL OR d.cur = v_base THEN 1::numeric
                                       ELSE gl_rate(p_tenant, d.cur, v_base, d.date, 'infinity', d.id) END AS rate) r
    ), fx AS MATERIALIZED (
      -- Exchanges between the base currency and another: what arrived at its value (`bd`), what left
      -- at its value (`ba`) — bought at cost, sold at the last rate before it —, as gl_desired values them.
      SELECT x.*, CASE WHEN x.a = 0 THEN NULL ELSE round(x.ba::numeric / x.a, 20) END AS r,
             CASE WHEN x.dm = 0 THEN NULL ELSE round(x.bd::numeric / x.dm, 20) END AS rd
        FROM (SELECT t.id, t.date, t.amount AS a, COALESCE(t.destination_amount, t.amount) AS dm,
                     t.origin_account_id AS oa, t.destination_account_id AS da, om.currency_code AS ocur,
                     dm.currency_code AS dcur,
                     COALESCE(om.gl_account_id, CASE WHEN om.currency_code = v_base THEN COALESCE(v_money, gl_role_account(p_tenant, 'money'))
                                                     ELSE COALESCE(v_foreign, gl_role_account(p_tenant, 'money_foreign')) END) AS ogl,
                     COALESCE(dm.gl_account_id, CASE WHEN dm.currency_code = v_base THEN COALESCE(v_money, gl_role_account(p_tenant, 'money'))
                                                     ELSE COALESCE(v_foreign, gl_role_account(p_tenant, 'money_foreign')) END) AS dgl,
                     CASE WHEN om.currency_code = v_base THEN t.amount
                          ELSE COALESCE(round(t.amount * gl_rate(p_tenant, om.currency_code, v_base, t.date, t.created_at, t.id)),
                                        COALESCE(t.destination_amount, t.amount)) END::bigint AS ba,
                     CASE WHEN om.currency_code = v_base THEN t.amount ELSE COALESCE(t.destination_amount, t.amount) END AS bd
                FROM transactions t
                JOIN money_accounts om ON om.tenant_id = t.tenant_id AND om.id = t.origin_account_id
                JOIN money_accounts dm ON dm.tenant_id = t.tenant_id AND dm.id = t.destination_account_id
               WHERE t.tenant_id = p_tenant AND t.reversal_of_id IS NULL AND t.type = 'exchange' AND v_base IS NOT NULL
                 AND om.currency_code <> dm.currency_code AND (om.currency_code = v_base OR dm.currency_code = v_base)) x
    ), delta AS (
      SELECT x.source_id, GREATEST(x.date, v_open) AS date, x.gl_account_id, x.money_account_id, x.counterparty_id,
             x.currency_code, sum(x.amount)::bigint AS amount, sum(x.base_amount)::bigint AS base_amount, max(x.rate) AS rate,
             CASE WHEN COALESCE(sum(x.amount) FILTER (WHERE x.date < v_open), 0) <> 0
                    OR COALESCE(sum(x.base_amount) FILTER (WHERE x.date < v_open), 0) <> 0
                  THEN min(x.date) FILTER (WHERE x.date < v_open) END AS closed_from,
             CASE WHEN COALESCE(sum(x.amount) FILTER (WHERE x.date < v_open), 0) <> 0
                    OR COALESCE(sum(x.base_amount) FILTER (WHERE x.date < v_open), 0) <> 0
                  THEN max(x.date) FILTER (WHERE x.date < v_open) END AS closed_to
        FROM (SELECT v.id AS source_id, v.date, COALESCE(v.dr_gl, CASE WHEN v.dr_money IS NOT NULL THEN v.money_gl END) AS gl_account_id,
                     v.dr_money AS money_account_id, v.dr_cp AS counterparty_id, v.cur AS currency_code,
                     v.amount, v.base_amount, v.rate
                FROM valued v
              UNION ALL
              SELECT v.id, v.date, COALESCE(v.cr_gl, CASE WHEN v.cr_money IS NOT NULL THEN v.money_gl END),
                     v.cr_money, v.cr_cp, v.cur, -v.amount, -v.base_amount, v.rate
                FROM valued v
              UNION ALL
              SELECT f.id, f.date, f.dgl, f.da, NULL, f.dcur, f.dm, f.bd, f.rd FROM fx f
              UNION ALL
              SELECT f.id, f.date, f.ogl, f.oa, NULL, f.ocur, -f.a, -f.ba, f.r FROM fx f
              UNION ALL
              SELECT f.id, f.date,
                     CASE WHEN f.bd > f.ba THEN COALESCE(v_gain, gl_role_account(p_tenant, 'fx_gain'))
                          ELSE COALESCE(v_loss, gl_role_account(p_tenant, 'fx_loss')) END,
                     NULL, NULL, v_base, f.ba - f.bd, f.ba - f.bd, 1::numeric
                FROM fx f WHERE f.bd <> f.ba
              UNION ALL
              SELECT e.source_id, l.date, l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code,
                     -l.amount, -l.base_amount, NULL
                FROM journal_entries e
                JOIN journal_lines l ON l.tenant_id = e.tenant_id AND l.entry_id = e.id
               WHERE e.tenant_id = p_tenant AND e.source_kind = 'transaction'
                 AND e.source_id IN (SELECT id FROM doc UNION ALL SELECT id FROM fx)) x
       GROUP BY x.source_id, GREATEST(x.date, v_open), x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code
      HAVING sum(x.amount) <> 0 OR sum(x.base_amount) <> 0
    ), entries AS (
      INSERT INTO journal_entries (tenant_id, date, source_kind, source_id, memo)
      SELECT p_tenant, k.date, 'transaction', k.source_id, gl_closed_memo(k.closed_from, k.closed_to, v_open)
        FROM (SELECT source_id, date, min(closed_from) AS closed_from, max(closed_to) AS closed_to
                FROM delta GROUP BY source_id, date) k
      RETURNING id, source_id, date
    )
    INSERT INTO journal_lines (tenant_id, entry_id, gl_account_id, date, money_account_id, counterparty_id,
                               currency_code, amount, base_amount, rate)
    SELECT p_tenant, en.id, delta.gl_account_id, delta.date, delta.money_account_id, delta.counterparty_id,
           delta.currency_code, delta.amount, delta.base_amount, delta.rate
      FROM delta JOIN entries en ON en.source_id = delta.source_id AND en.date = delta.date;

    -- The rest, through the live postings' own function, originals before their reversals.
    PERFORM gl_sync(p_tenant, 'transaction', t.id)
       FROM transactions t
       LEFT JOIN money_accounts om ON om.tenant_id = t.tenant_id AND om.id = t.origin_account_id
       LEFT JOIN money_accounts dm ON dm.tenant_id = t.tenant_id AND dm.id = t.destination_account_id
      WHERE t.tenant_id = p_tenant
        AND (t.reversal_of_id IS NOT NULL
          OR (t.type = 'exchange' AND NOT COALESCE(v_base IS NOT NULL AND om.currency_code <> dm.currency_code
                                                    AND (om.currency_code = v_base OR dm.currency_code = v_base), false))
          OR (t.type = 'transfer' AND (om.currency_code IS DISTINCT FROM dm.currency_code
                                       OR COALESCE(t.destination_amount, t.amount) <> t.amount)))
      ORDER BY (t.reversal_of_id IS NOT NULL), t.created_at, t.id;
  END IF;
  PERFORM gl_sync(p_tenant, 'debt', x.id) FROM debts x WHERE x.tenant_id = p_tenant ORDER BY x.created_at, x.id;
  PERFORM gl_sync(p_tenant, 'settlement', x.id) FROM debt_settlements x WHERE x.tenant_id = p_tenant ORDER BY x.created_at, x.id;
  SELECT count(*) INTO v_after FROM journal_lines WHERE tenant_id = p_tenant;
  RETURN v_after - v_before;
END
$$;

-- Entries written at `p_written` (a migration's transaction time; created_at is that transaction's
-- now()) and dated in a closed period are taken back and the documents they belong to synced again:
-- gl_sync posts the same difference on the first open day. Returns how many entries were taken back.
CREATE OR REPLACE FUNCTION gl_repost_closed_corrections(p_tenant uuid, p_written timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_lock date;
  v_entries uuid[];
  v_kinds text[];
  v_sources uuid[];
BEGIN
  SELECT books_closed_through INTO v_lock FROM tenants WHERE id = p_tenant;
  IF v_lock IS NULL OR p_written IS NULL THEN
    RETURN 0;
  END IF;
  SELECT array_agg(e.id) INTO v_entries
    FROM journal_entries e
   WHERE e.tenant_id = p_tenant AND e.date <= v_lock
     AND e.source_kind IN ('transaction', 'debt', 'settlement')
     AND e.created_at BETWEEN p_written - interval '1 millisecond' AND p_written + interval '1 millisecond';
  IF v_entries IS NULL THEN
    RETURN 0;
  END IF;
  -- Originals before reversals, debts before their settlements, as the backfill orders them.
  SELECT array_agg(k.source_kind ORDER BY k.kind_order, k.reversal, k.created_at, k.source_id),
         array_agg(k.source_id ORDER BY k.kind_order, k.reversal, k.created_at, k.source_id)
    INTO v_kinds, v_sources
    FROM (SELECT DISTINCT e.source_kind, e.source_id,
                 CASE e.source_kind WHEN 'transaction' THEN 0 WHEN 'debt' THEN 1 ELSE 2 END AS kind_order,
                 COALESCE(t.reversal_of_id IS NOT NULL, false) AS reversal,
                 COALESCE(t.created_at, d.created_at, s.created_at) AS created_at
            FROM journal_entries e
            LEFT JOIN transactions t ON e.source_kind = 'transaction' AND t.tenant_id = p_tenant AND t.id = e.source_id
            LEFT JOIN debts d ON e.source_kind = 'debt' AND d.tenant_id = p_tenant AND d.id = e.source_id
            LEFT JOIN debt_settlements s ON e.source_kind = 'settlement' AND s.tenant_id = p_tenant AND s.id = e.source_id
           WHERE e.tenant_id = p_tenant AND e.id = ANY(v_entries)) k;
  DELETE FROM journal_lines WHERE tenant_id = p_tenant AND entry_id = ANY(v_entries);
  DELETE FROM journal_entries WHERE tenant_id = p_tenant AND id = ANY(v_entries);
  FOR i IN 1 .. array_length(v_sources, 1) LOOP
    PERFORM gl_sync(p_tenant, v_kinds[i], v_sources[i]);
  END LOOP;
  RETURN array_length(v_entries, 1);
END
$$;

-- The corrections 20261215 posted (in its own transaction) on days now in a closed period: moved to
-- the first open day. A database migrated by another runner than ours (`prisma migrate deploy` records
-- a later finished_at than the entries' created_at) matches nothing; an operator can call the function
-- with the time the entries were written.
-- Prisma's shadow database (the schema diff) replays the migrations without the runner's table:
-- there is nothing to move there.
DO $$
BEGIN
  IF to_regclass('_prisma_migrations') IS NULL THEN
    RETURN;
  END IF;
  EXECUTE $sql$
    SELECT gl_repost_closed_corrections(t.id, m.finished_at)
      FROM tenants t
      CROSS JOIN LATERAL (SELECT finished_at FROM "_prisma_migrations"
                           WHERE migration_name = '20261215000000_ledger_fx_backfill' AND finished_at IS NOT NULL
                           ORDER BY finished_at DESC LIMIT 1) m
     WHERE t.books_closed_through IS NOT NULL
     ORDER BY t.id
  $sql$;
END
$$;
