-- The ledger's SQL (docs/decisions/0103-ledger-sql.md), on top of 20261210000000_general_ledger:
-- 1. a foreign-currency debt's settlements take the receivable (payable) off at the base value the
--    debt was booked at and realise the difference on fx_gain / fx_loss in the settlement's entry;
-- 2. `gl_backfill(tenant)`: the existing books' lines posted set-based, re-runnable (a re-run posts
--    only what differs, nothing on books already posted).

-- The tenant's own exchanges in the order gl_rate reads them (the last one before a document): one
-- index probe per valued line instead of a sort of a day's transactions.
CREATE INDEX "transactions_gl_rate_idx" ON "transactions"("tenant_id", "date", "created_at", "id")
  WHERE type = 'exchange' AND reversal_of_id IS NULL;

-- gl_base_currency as in 20261210000000_general_ledger, in PL/pgSQL: as a SQL function with two
-- sub-selects it was not inlined and cost every posting ~50 µs of function set-up.
CREATE OR REPLACE FUNCTION gl_base_currency(p_tenant uuid) RETURNS char(3) LANGUAGE plpgsql STABLE AS $$
DECLARE
  v char(3);
BEGIN
  SELECT base_currency_code INTO v FROM tenant_settings WHERE tenant_id = p_tenant;
  IF v IS NULL THEN
    SELECT currency_code INTO v FROM tenant_currencies WHERE tenant_id = p_tenant
     ORDER BY created_at, currency_code <> 'UZS', currency_code LIMIT 1;
  END IF;
  RETURN v;
END
$$;

-- gl_rate as in 20261210000000_general_ledger, in PL/pgSQL: the base currency's rate (1) returned
-- without running the lookup (as a SQL function it was not inlined, and cost a posting 50-140 µs
-- for the constant), the lookup reading the index above.
CREATE OR REPLACE FUNCTION gl_rate(p_tenant uuid, p_currency char(3), p_base char(3), p_date date,
                                   p_created timestamptz, p_id uuid) RETURNS numeric LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF p_base IS NULL OR p_currency = p_base THEN
    RETURN 1::numeric;
  END IF;
  RETURN (
    SELECT round(CASE WHEN o.currency_code = p_currency THEN t.destination_amount::numeric / t.amount
                      ELSE t.amount::numeric / t.destination_amount END, 20)
      FROM transactions t
      JOIN money_accounts o ON o.tenant_id = t.tenant_id AND o.id = t.origin_account_id
      JOIN money_accounts d ON d.tenant_id = t.tenant_id AND d.id = t.destination_account_id
     WHERE t.tenant_id = p_tenant AND t.type = 'exchange' AND t.reversal_of_id IS NULL
       AND t.amount > 0 AND t.destination_amount > 0
       AND ((o.currency_code = p_currency AND d.currency_code = p_base)
         OR (o.currency_code = p_base AND d.currency_code = p_currency))
       AND (t.date, t.created_at, t.id) < (p_date, p_created, p_id)
     ORDER BY t.date DESC, t.created_at DESC, t.id DESC
     LIMIT 1);
END
$$;

-- The lines a document should have now (debit positive), grouped by what identifies a line.
-- As in 20261210000000_general_ledger, but a foreign-currency debt's settlements and write-off take
-- the receivable (payable) off at the base value it was booked at; a settlement at another rate
-- realises the difference on fx_gain / fx_loss in its own entry (docs/decisions/0103-ledger-sql.md).
CREATE OR REPLACE FUNCTION gl_desired(p_tenant uuid, p_kind text, p_id uuid)
RETURNS TABLE (date date, gl_account_id uuid, money_account_id uuid, counterparty_id uuid,
               currency_code char(3), amount bigint, base_amount bigint, rate numeric)
LANGUAGE plpgsql AS $$
DECLARE
  t transactions%ROWTYPE;
  d debts%ROWTYPE;
  s debt_settlements%ROWTYPE;
  v_base char(3);
  v_ocur char(3);
  v_dcur char(3);
  v_a bigint;
  v_dm bigint;
  v_ba bigint;
  v_bd bigint;
  v_r numeric;
  v_rd numeric;
  v_gl uuid;
  v_ogl uuid;
  v_dgl uuid;
  v_money uuid;
  v_foreign uuid;
  v_revenue uuid;
  v_expense uuid;
  v_cp uuid;
  v_date date;
  v_cur char(3);
  v_rb numeric;
  v_before bigint;
  v_carry bigint;
  v_fx bigint;
BEGIN
  v_base := gl_base_currency(p_tenant);
  IF p_kind = 'transaction' THEN
    SELECT * INTO t FROM transactions x WHERE x.tenant_id = p_tenant AND x.id = p_id;
    IF NOT FOUND THEN RETURN; END IF;
    IF t.reversal_of_id IS NOT NULL THEN
      -- The exact opposite of what the original holds.
      RETURN QUERY
        SELECT t.date, l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code,
               (-sum(l.amount))::bigint, (-sum(l.base_amount))::bigint, max(l.rate)
          FROM journal_entries e
          JOIN journal_lines l ON l.tenant_id = e.tenant_id AND l.entry_id = e.id
         WHERE e.tenant_id = p_tenant AND e.source_kind = 'transaction' AND e.source_id = t.reversal_of_id
         GROUP BY l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code;
      RETURN;
    END IF;
    -- Both accounts' currencies and GL leaves in one statement (a posting's hot path: gl_money_account's
    -- own lookups, inlined below for payments, expenses and transfers).
    SELECT om.currency_code, om.gl_account_id, dm.currency_code, dm.gl_account_id INTO v_ocur, v_ogl, v_dcur, v_dgl
      FROM (SELECT 1) one
      LEFT JOIN money_accounts om ON om.tenant_id = p_tenant AND om.id = t.origin_account_id
      LEFT JOIN money_accounts dm ON dm.tenant_id = p_tenant AND dm.id = t.destination_account_id;
    -- The chart's default leaves in one lookup; gl_role_account for one that is missing (it installs
    -- the chart on a first posting, or names the missing role).
    SELECT max(a.id::text) FILTER (WHERE a.role = 'money'), max(a.id::text) FILTER (WHERE a.role = 'money_foreign'),
           max(a.id::text) FILTER (WHERE a.role = 'revenue'), max(a.id::text) FILTER (WHERE a.role = 'expense')
      INTO v_money, v_foreign, v_revenue, v_expense
      FROM gl_accounts a WHERE a.tenant_id = p_tenant AND a.role IN ('money', 'money_foreign', 'revenue', 'expense');
    IF t.origin_account_id IS NOT NULL AND v_ogl IS NULL THEN
      v_ogl := CASE WHEN v_base IS NULL OR v_ocur = v_base THEN COALESCE(v_money, gl_role_account(p_tenant, 'money'))
                    ELSE COALESCE(v_foreign, gl_role_account(p_tenant, 'money_foreign')) END;
    END IF;
    IF t.destination_account_id IS NOT NULL AND v_dgl IS NULL THEN
      v_dgl := CASE WHEN v_base IS NULL OR v_dcur = v_base THEN COALESCE(v_money, gl_role_account(p_tenant, 'money'))
                    ELSE COALESCE(v_foreign, gl_role_account(p_tenant, 'money_foreign')) END;
    END IF;
    v_a := t.amount;
    IF t.type = 'income' THEN
      v_r := gl_rate(p_tenant, v_dcur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      SELECT p.counterparty_id, c.gl_account_id INTO v_cp, v_gl
        FROM payments p LEFT JOIN payment_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.transaction_id = t.id;
      RETURN QUERY VALUES
        (t.date, v_dgl, t.destination_account_id, NULL::uuid, v_dcur, v_a, v_ba, v_r),
        (t.date, COALESCE(v_gl, v_revenue, gl_role_account(p_tenant, 'revenue')), NULL::uuid, v_cp, v_dcur, -v_a, -v_ba, v_r);
    ELSIF t.type = 'expense' THEN
      v_r := gl_rate(p_tenant, v_ocur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      SELECT p.counterparty_id, c.gl_account_id INTO v_cp, v_gl
        FROM expenses p LEFT JOIN expense_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.transaction_id = t.id;
      RETURN QUERY VALUES
        (t.date, COALESCE(v_gl, v_expense, gl_role_account(p_tenant, 'expense')), NULL::uuid, v_cp, v_ocur, v_a, v_ba, v_r),
        (t.date, v_ogl, t.origin_account_id, NULL::uuid, v_ocur, -v_a, -v_ba, v_r);
    ELSIF t.type = 'opening_balance' THEN
      v_cur := COALESCE(v_dcur, v_ocur);
      v_r := gl_rate(p_tenant, v_cur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      IF t.destination_account_id IS NULL THEN v_a := -v_a; v_ba := -v_ba; END IF;
      RETURN QUERY VALUES
        (t.date, COALESCE(v_dgl, v_ogl), COALESCE(t.destination_account_id, t.origin_account_id), NULL::uuid, v_cur, v_a, v_ba, v_r),
        (t.date, gl_role_account(p_tenant, 'opening_equity'), NULL::uuid, NULL::uuid, v_cur, -v_a, -v_ba, v_r);
    ELSE
      -- Transfers and exchanges: what left at its value, what arrived at its value, and the
      -- difference in the base currency a realised exchange gain or loss.
      v_dm := COALESCE(t.destination_amount, t.amount);
      IF v_ocur = v_dcur THEN
        v_r := gl_rate(p_tenant, v_ocur, v_base, t.date, 'infinity', t.id);
        v_ba := COALESCE(round(v_a * v_r), 0);
        v_bd := COALESCE(round(v_dm * v_r), 0);
        v_rd := v_r;
      ELSE
        v_r := gl_rate(p_tenant, v_ocur, v_base, t.date, t.created_at, t.id);
        v_rd := gl_rate(p_tenant, v_dcur, v_base, t.date, t.created_at, t.id);
        IF v_ocur = v_base THEN
          v_ba := v_a;
          v_bd := v_a; -- foreign currency bought: at what it cost
        ELSIF v_dcur = v_base THEN
          v_bd := v_dm;
          v_ba := COALESCE(round(v_a * v_r), v_dm); -- sold: at its last rate; the rest is gain or loss
        ELSE
          v_ba := COALESCE(round(v_a * v_r), round(v_dm * v_rd), 0);
          v_bd := v_ba;
        END IF;
        v_r := CASE WHEN v_a = 0 THEN NULL ELSE round(v_ba::numeric / v_a, 20) END;
        v_rd := CASE WHEN v_dm = 0 THEN NULL ELSE round(v_bd::numeric / v_dm, 20) END;
      END IF;
      RETURN QUERY VALUES
        (t.date, v_dgl, t.destination_account_id, NULL::uuid, v_dcur, v_dm, v_bd, v_rd),
        (t.date, v_ogl, t.origin_account_id, NULL::uuid, v_ocur, -v_a, -v_ba, v_r);
      IF v_bd > v_ba THEN
        RETURN QUERY VALUES (t.date, gl_role_account(p_tenant, 'fx_gain'), NULL::uuid, NULL::uuid, v_base, v_ba - v_bd, v_ba - v_bd, 1::numeric);
      ELSIF v_bd < v_ba THEN
        RETURN QUERY VALUES (t.date, gl_role_account(p_tenant, 'fx_loss'), NULL::uuid, NULL::uuid, v_base, v_ba - v_bd, v_ba - v_bd, 1::numeric);
      END IF;
    END IF;
  ELSIF p_kind = 'debt' THEN
    SELECT * INTO d FROM debts x WHERE x.tenant_id = p_tenant AND x.id = p_id;
    IF NOT FOUND THEN RETURN; END IF;
    -- A debt is income earned or an expense incurred on credit: receivable against revenue, expense
    -- against payable; writing it off moves what remained to bad debts or to other income.
    v_date := (d.created_at AT TIME ZONE 'UTC')::date;
    -- Valued with the exchanges recorded before the debt itself: a settlement or write-off later
    -- syncs the debt again, and a same-day exchange recorded after it must not re-price a day that
    -- may be closed by then.
    v_r := gl_rate(p_tenant, d.currency_code, v_base, v_date, d.created_at, d.id);
    v_ba := COALESCE(round(d.amount * v_r), 0);
    IF d.kind = 'receivable' THEN
      RETURN QUERY VALUES
        (v_date, gl_role_account(p_tenant, 'receivable'), NULL::uuid, d.counterparty_id, d.currency_code, d.amount, v_ba, v_r),
        (v_date, gl_role_account(p_tenant, 'revenue'), NULL::uuid, d.counterparty_id, d.currency_code, -d.amount, -v_ba, v_r);
    ELSE
      RETURN QUERY VALUES
        (v_date, gl_role_account(p_tenant, 'expense'), NULL::uuid, d.counterparty_id, d.currency_code, d.amount, v_ba, v_r),
        (v_date, gl_role_account(p_tenant, 'payable'), NULL::uuid, d.counterparty_id, d.currency_code, -d.amount, -v_ba, v_r);
    END IF;
    IF d.status = 'written_off' AND COALESCE(d.written_off_amount, 0) <> 0 THEN
      -- What remained, at the base value it was booked at (v_r, the debt's rate): the settlements took
      -- the rest off at that value too, so the receivable (payable) ends at zero in the base currency.
      v_date := (COALESCE(d.written_off_at, d.updated_at) AT TIME ZONE 'UTC')::date;
      SELECT COALESCE(sum(x.amount), 0) INTO v_before FROM debt_settlements x
       WHERE x.tenant_id = p_tenant AND x.debt_id = d.id;
      v_ba := COALESCE(round((v_before + d.written_off_amount) * v_r) - round(v_before * v_r), 0);
      IF d.kind = 'receivable' THEN
        RETURN QUERY VALUES
          (v_date, gl_role_account(p_tenant, 'bad_debt'), NULL::uuid, d.counterparty_id, d.currency_code, d.written_off_amount, v_ba, v_r),
          (v_date, gl_role_account(p_tenant, 'receivable'), NULL::uuid, d.counterparty_id, d.currency_code, -d.written_off_amount, -v_ba, v_r);
      ELSE
        RETURN QUERY VALUES
          (v_date, gl_role_account(p_tenant, 'payable'), NULL::uuid, d.counterparty_id, d.currency_code, d.written_off_amount, v_ba, v_r),
          (v_date, gl_role_account(p_tenant, 'other_income'), NULL::uuid, d.counterparty_id, d.currency_code, -d.written_off_amount, -v_ba, v_r);
      END IF;
    END IF;
  ELSIF p_kind = 'settlement' THEN
    SELECT * INTO s FROM debt_settlements x WHERE x.tenant_id = p_tenant AND x.id = p_id;
    IF NOT FOUND THEN RETURN; END IF;
    SELECT x.* INTO d FROM debts x WHERE x.tenant_id = p_tenant AND x.id = s.debt_id;
    -- The payment (expense) posted cash against its category; the settlement moves that from the
    -- category to the receivable (payable) the debt raised, so revenue (expense) is counted once.
    IF s.payment_id IS NOT NULL THEN
      SELECT p.date, m.currency_code, c.gl_account_id INTO v_date, v_cur, v_gl
        FROM payments p
        JOIN money_accounts m ON m.tenant_id = p.tenant_id AND m.id = p.account_id
        LEFT JOIN payment_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.id = s.payment_id;
    ELSE
      SELECT p.date, m.currency_code, c.gl_account_id INTO v_date, v_cur, v_gl
        FROM expenses p
        JOIN money_accounts m ON m.tenant_id = p.tenant_id AND m.id = p.account_id
        LEFT JOIN expense_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.id = s.expense_id;
    END IF;
    IF v_date IS NULL THEN RETURN; END IF;
    -- What came in (went out): at the rate of the settlement's day, as its payment (expense) posted it.
    v_r := gl_rate(p_tenant, v_cur, v_base, v_date, 'infinity', s.id);
    v_ba := COALESCE(round(s.amount * v_r), 0);
    -- What it takes off the receivable (payable): its share of the debt at the debt's own rate, the
    -- settlements in the order they were made, each the cumulative value less the ones before it, so
    -- the shares add up to the debt's base amount exactly whatever the rounding.
    v_rb := gl_rate(p_tenant, d.currency_code, v_base, (d.created_at AT TIME ZONE 'UTC')::date, d.created_at, d.id);
    IF v_r IS NULL OR v_rb IS NULL THEN
      v_carry := v_ba;
      v_rb := v_r;
    ELSE
      SELECT COALESCE(sum(x.amount), 0) INTO v_before FROM debt_settlements x
       WHERE x.tenant_id = p_tenant AND x.debt_id = s.debt_id AND (x.created_at, x.id) < (s.created_at, s.id);
      v_carry := round((v_before + s.amount) * v_rb) - round(v_before * v_rb);
    END IF;
    IF s.payment_id IS NOT NULL THEN
      RETURN QUERY VALUES
        (v_date, COALESCE(v_gl, gl_role_account(p_tenant, 'revenue')), NULL::uuid, d.counterparty_id, v_cur, s.amount, v_ba, v_r),
        (v_date, gl_role_account(p_tenant, 'receivable'), NULL::uuid, d.counterparty_id, v_cur, -s.amount, -v_carry, v_rb);
      v_fx := v_carry - v_ba;
    ELSE
      RETURN QUERY VALUES
        (v_date, gl_role_account(p_tenant, 'payable'), NULL::uuid, d.counterparty_id, v_cur, s.amount, v_carry, v_rb),
        (v_date, COALESCE(v_gl, gl_role_account(p_tenant, 'expense')), NULL::uuid, d.counterparty_id, v_cur, -s.amount, -v_ba, v_r);
      v_fx := v_ba - v_carry;
    END IF;
    -- The realised exchange difference: more base currency received (less paid) than booked is a gain.
    IF v_fx > 0 THEN
      RETURN QUERY VALUES (v_date, gl_role_account(p_tenant, 'fx_loss'), NULL::uuid, d.counterparty_id, v_base, v_fx, v_fx, 1::numeric);
    ELSIF v_fx < 0 THEN
      RETURN QUERY VALUES (v_date, gl_role_account(p_tenant, 'fx_gain'), NULL::uuid, d.counterparty_id, v_base, v_fx, v_fx, 1::numeric);
    END IF;
  END IF;
END
$$;

-- Posts every missing (or differing) line of a tenant's documents, as `gl_sync` would one by one.
-- Payments, expenses, opening balances, transfers in one currency and exchanges between the base
-- currency and another are posted by one `INSERT … SELECT` over the tenant's transactions (what
-- `gl_desired` gives for each, compared with what its entries hold: the difference as one new entry per
-- document and date); the rest — exchanges between two foreign currencies, transfers between currencies,
-- reversals (reading their originals' lines) —, debts and settlements go through `gl_sync` row by row
-- after them. Returns the number of lines written.
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
BEGIN
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
      SELECT x.source_id, x.date, x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code,
             sum(x.amount)::bigint AS amount, sum(x.base_amount)::bigint AS base_amount, max(x.rate) AS rate
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
       GROUP BY x.source_id, x.date, x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code
      HAVING sum(x.amount) <> 0 OR sum(x.base_amount) <> 0
    ), entries AS (
      INSERT INTO journal_entries (tenant_id, date, source_kind, source_id)
      SELECT p_tenant, k.date, 'transaction', k.source_id FROM (SELECT DISTINCT source_id, date FROM delta) k
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

-- Books posted before this migration: their foreign-currency settlements and write-offs realised as
-- above (nothing else differs, so nothing else is posted).
SELECT gl_backfill(id) FROM tenants ORDER BY id;
