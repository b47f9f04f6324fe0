-- CreateEnum
CREATE TYPE "gl_account_type" AS ENUM ('asset', 'liability', 'equity', 'income', 'expense');

-- AlterTable
ALTER TABLE "expense_categories" ADD COLUMN     "gl_account_id" UUID;

-- AlterTable
ALTER TABLE "money_accounts" ADD COLUMN     "gl_account_id" UUID;

-- AlterTable
ALTER TABLE "payment_categories" ADD COLUMN     "gl_account_id" UUID;

-- CreateTable
CREATE TABLE "gl_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name_en" TEXT NOT NULL,
    "name_ru" TEXT NOT NULL,
    "name_uz" TEXT NOT NULL,
    "type" "gl_account_type" NOT NULL,
    "parent_id" UUID,
    "currency_code" CHAR(3),
    "role" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gl_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gl_chart_templates" (
    "template" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "parent_code" TEXT,
    "type" "gl_account_type" NOT NULL,
    "role" TEXT,
    "name_en" TEXT NOT NULL,
    "name_ru" TEXT NOT NULL,
    "name_uz" TEXT NOT NULL,

    CONSTRAINT "gl_chart_templates_pkey" PRIMARY KEY ("template","code")
);

-- CreateTable
CREATE TABLE "journal_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "source_kind" TEXT NOT NULL,
    "source_id" UUID NOT NULL,
    "memo" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "journal_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journal_lines" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "gl_account_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "money_account_id" UUID,
    "counterparty_id" UUID,
    "currency_code" CHAR(3) NOT NULL,
    "amount" BIGINT NOT NULL,
    "base_amount" BIGINT NOT NULL,
    "rate" DECIMAL(40,20),

    CONSTRAINT "journal_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "gl_accounts_tenant_id_parent_id_idx" ON "gl_accounts"("tenant_id", "parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "gl_accounts_tenant_id_id_key" ON "gl_accounts"("tenant_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "gl_accounts_tenant_id_code_key" ON "gl_accounts"("tenant_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "gl_accounts_tenant_id_role_key" ON "gl_accounts"("tenant_id", "role");

-- CreateIndex
CREATE INDEX "journal_entries_tenant_id_source_kind_source_id_idx" ON "journal_entries"("tenant_id", "source_kind", "source_id");

-- CreateIndex
CREATE INDEX "journal_entries_tenant_id_date_idx" ON "journal_entries"("tenant_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "journal_entries_tenant_id_id_key" ON "journal_entries"("tenant_id", "id");

-- CreateIndex
CREATE INDEX "journal_lines_tenant_id_gl_account_id_date_idx" ON "journal_lines"("tenant_id", "gl_account_id", "date");

-- CreateIndex
CREATE INDEX "journal_lines_tenant_id_money_account_id_idx" ON "journal_lines"("tenant_id", "money_account_id");

-- CreateIndex
CREATE INDEX "journal_lines_tenant_id_entry_id_idx" ON "journal_lines"("tenant_id", "entry_id");

-- AddForeignKey
ALTER TABLE "money_accounts" ADD CONSTRAINT "money_accounts_tenant_id_gl_account_id_fkey" FOREIGN KEY ("tenant_id", "gl_account_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gl_accounts" ADD CONSTRAINT "gl_accounts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "gl_accounts" ADD CONSTRAINT "gl_accounts_tenant_id_parent_id_fkey" FOREIGN KEY ("tenant_id", "parent_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_tenant_id_entry_id_fkey" FOREIGN KEY ("tenant_id", "entry_id") REFERENCES "journal_entries"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_tenant_id_gl_account_id_fkey" FOREIGN KEY ("tenant_id", "gl_account_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_categories" ADD CONSTRAINT "payment_categories_tenant_id_gl_account_id_fkey" FOREIGN KEY ("tenant_id", "gl_account_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "expense_categories" ADD CONSTRAINT "expense_categories_tenant_id_gl_account_id_fkey" FOREIGN KEY ("tenant_id", "gl_account_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;
-- Chart templates (docs/decisions/0093-general-ledger.md). NAS 21: the national chart of accounts
-- (Ministry of Finance order No. 103 of 9 September 2002, registered by the Ministry of Justice on
-- 23 October 2002 No. 1181), the accounts a small firm uses; `ifrs`: a short generic IFRS-style chart.
-- `role` marks the leaf the postings use by default.
INSERT INTO gl_chart_templates (template, code, parent_code, type, role, name_en, name_ru, name_uz) VALUES
  ('nas21', '0100', NULL, 'asset', NULL, 'Fixed assets', 'Основные средства', 'Asosiy vositalar'),
  ('nas21', '0130', '0100', 'asset', NULL, 'Buildings and structures', 'Здания, сооружения и передаточные устройства', 'Binolar, inshootlar va uzatuvchi moslamalar'),
  ('nas21', '0150', '0100', 'asset', NULL, 'Computers and office equipment', 'Компьютерное оборудование и вычислительная техника', 'Kompyuter jihozlari va hisoblash texnikasi'),
  ('nas21', '0200', NULL, 'asset', NULL, 'Depreciation of fixed assets', 'Износ основных средств', 'Asosiy vositalarning eskirishi'),
  ('nas21', '0230', '0200', 'asset', NULL, 'Depreciation of buildings', 'Износ зданий, сооружений и передаточных устройств', 'Binolar, inshootlar va uzatuvchi moslamalarning eskirishi'),
  ('nas21', '0400', NULL, 'asset', NULL, 'Intangible assets', 'Нематериальные активы', 'Nomoddiy aktivlar'),
  ('nas21', '0460', '0400', 'asset', NULL, 'Software', 'Программное обеспечение и базы данных', 'Dasturiy ta’minot va ma’lumotlar bazalari'),
  ('nas21', '1000', NULL, 'asset', NULL, 'Materials', 'Материалы', 'Materiallar'),
  ('nas21', '1010', '1000', 'asset', NULL, 'Raw materials', 'Сырьё и материалы', 'Xomashyo va materiallar'),
  ('nas21', '2900', NULL, 'asset', NULL, 'Goods', 'Товары', 'Tovarlar'),
  ('nas21', '2910', '2900', 'asset', NULL, 'Goods in stock', 'Товары на складе', 'Ombordagi tovarlar'),
  ('nas21', '4000', NULL, 'asset', NULL, 'Receivables from buyers and customers', 'Счета к получению', 'Olinadigan schyotlar'),
  ('nas21', '4010', '4000', 'asset', 'receivable', 'Receivables from buyers and customers', 'Счета к получению от покупателей и заказчиков', 'Xaridor va buyurtmachilardan olinadigan schyotlar'),
  ('nas21', '4300', NULL, 'asset', NULL, 'Advances paid', 'Авансы выданные', 'Berilgan boʻnaklar'),
  ('nas21', '4310', '4300', 'asset', NULL, 'Advances paid to suppliers', 'Авансы, выданные поставщикам и подрядчикам', 'Mol yetkazib beruvchilar va pudratchilarga berilgan boʻnaklar'),
  ('nas21', '5000', NULL, 'asset', NULL, 'Cash on hand', 'Денежные средства в кассе', 'Kassadagi pul mablagʻlari'),
  ('nas21', '5010', '5000', 'asset', NULL, 'Cash on hand in national currency', 'Денежные средства в кассе в национальной валюте', 'Milliy valyutadagi kassadagi pul mablagʻlari'),
  ('nas21', '5020', '5000', 'asset', NULL, 'Cash on hand in foreign currency', 'Денежные средства в кассе в иностранной валюте', 'Chet el valyutasidagi kassadagi pul mablagʻlari'),
  ('nas21', '5100', NULL, 'asset', NULL, 'Settlement account', 'Денежные средства на расчётном счёте', 'Hisob-kitob schyotidagi pul mablagʻlari'),
  ('nas21', '5110', '5100', 'asset', 'money', 'Settlement account', 'Расчётный счёт', 'Hisob-kitob schyoti'),
  ('nas21', '5200', NULL, 'asset', NULL, 'Foreign currency accounts', 'Денежные средства на валютных счетах', 'Valyuta schyotlaridagi pul mablagʻlari'),
  ('nas21', '5210', '5200', 'asset', 'money_foreign', 'Foreign currency accounts in the country', 'Валютные счета внутри страны', 'Mamlakat ichidagi valyuta schyotlari'),
  ('nas21', '6000', NULL, 'liability', NULL, 'Payables to suppliers and contractors', 'Счета к оплате', 'Toʻlanadigan schyotlar'),
  ('nas21', '6010', '6000', 'liability', 'payable', 'Payables to suppliers and contractors', 'Счета к оплате поставщикам и подрядчикам', 'Mol yetkazib beruvchilar va pudratchilarga toʻlanadigan schyotlar'),
  ('nas21', '6400', NULL, 'liability', NULL, 'Taxes payable', 'Задолженность по платежам в бюджет', 'Byudjetga toʻlovlar boʻyicha qarz'),
  ('nas21', '6410', '6400', 'liability', NULL, 'Taxes payable (by kind)', 'Задолженность по платежам в бюджет (по видам)', 'Byudjetga toʻlovlar boʻyicha qarz (turlari boʻyicha)'),
  ('nas21', '6700', NULL, 'liability', NULL, 'Payroll payable', 'Расчёты с персоналом по оплате труда', 'Mehnatga haq toʻlash boʻyicha xodimlar bilan hisoblashuvlar'),
  ('nas21', '6710', '6700', 'liability', NULL, 'Payroll payable', 'Расчёты с персоналом по оплате труда', 'Mehnatga haq toʻlash boʻyicha xodimlar bilan hisoblashuvlar'),
  ('nas21', '8300', NULL, 'equity', NULL, 'Charter capital', 'Уставный капитал', 'Ustav kapitali'),
  ('nas21', '8330', '8300', 'equity', NULL, 'Shares and interests', 'Паи и доли', 'Pay va ulushlar'),
  ('nas21', '8700', NULL, 'equity', NULL, 'Retained earnings (uncovered loss)', 'Нераспределённая прибыль (непокрытый убыток)', 'Taqsimlanmagan foyda (qoplanmagan zarar)'),
  ('nas21', '8710', '8700', 'equity', NULL, 'Profit (loss) of the reporting period', 'Прибыль (убыток) отчётного периода', 'Hisobot davrining foydasi (zarari)'),
  ('nas21', '8720', '8700', 'equity', 'opening_equity', 'Retained earnings (uncovered loss)', 'Нераспределённая прибыль (непокрытый убыток)', 'Taqsimlanmagan foyda (qoplanmagan zarar)'),
  ('nas21', '9000', NULL, 'income', NULL, 'Sales revenue', 'Доходы от основной деятельности', 'Asosiy faoliyatdan daromadlar'),
  ('nas21', '9020', '9000', 'income', NULL, 'Revenue from sales of goods', 'Доходы от реализации товаров', 'Tovarlarni sotishdan daromadlar'),
  ('nas21', '9030', '9000', 'income', 'revenue', 'Revenue from work and services', 'Доходы от выполнения работ и оказания услуг', 'Ishlarni bajarish va xizmatlar koʻrsatishdan daromadlar'),
  ('nas21', '9300', NULL, 'income', NULL, 'Other operating income', 'Прочие доходы от основной деятельности', 'Asosiy faoliyatning boshqa daromadlari'),
  ('nas21', '9390', '9300', 'income', 'other_income', 'Other operating income', 'Прочие операционные доходы', 'Boshqa operatsion daromadlar'),
  ('nas21', '9400', NULL, 'expense', NULL, 'Period expenses', 'Расходы периода', 'Davr xarajatlari'),
  ('nas21', '9410', '9400', 'expense', NULL, 'Selling expenses', 'Расходы по реализации', 'Sotish xarajatlari'),
  ('nas21', '9420', '9400', 'expense', 'expense', 'Administrative expenses', 'Административные расходы', 'Ma’muriy xarajatlar'),
  ('nas21', '9430', '9400', 'expense', 'bad_debt', 'Other operating expenses', 'Прочие операционные расходы', 'Boshqa operatsion xarajatlar'),
  ('nas21', '9500', NULL, 'income', NULL, 'Income from financial activities', 'Доходы от финансовой деятельности', 'Moliyaviy faoliyatdan daromadlar'),
  ('nas21', '9540', '9500', 'income', 'fx_gain', 'Foreign exchange gains', 'Доходы от валютных курсовых разниц', 'Valyuta kurslari farqidan daromadlar'),
  ('nas21', '9600', NULL, 'expense', NULL, 'Expenses of financial activities', 'Расходы по финансовой деятельности', 'Moliyaviy faoliyat boʻyicha xarajatlar'),
  ('nas21', '9620', '9600', 'expense', 'fx_loss', 'Foreign exchange losses', 'Убытки от валютных курсовых разниц', 'Valyuta kurslari farqidan zararlar'),
  ('ifrs', '1000', NULL, 'asset', NULL, 'Assets', 'Активы', 'Aktivlar'),
  ('ifrs', '1100', '1000', 'asset', NULL, 'Cash and cash equivalents', 'Денежные средства и их эквиваленты', 'Pul mablagʻlari va ularning ekvivalentlari'),
  ('ifrs', '1110', '1100', 'asset', 'money', 'Cash in base currency', 'Денежные средства в базовой валюте', 'Asosiy valyutadagi pul mablagʻlari'),
  ('ifrs', '1120', '1100', 'asset', 'money_foreign', 'Cash in foreign currency', 'Денежные средства в иностранной валюте', 'Chet el valyutasidagi pul mablagʻlari'),
  ('ifrs', '1200', '1000', 'asset', 'receivable', 'Trade receivables', 'Торговая дебиторская задолженность', 'Savdo debitorlik qarzi'),
  ('ifrs', '1300', '1000', 'asset', NULL, 'Inventories', 'Запасы', 'Zaxiralar'),
  ('ifrs', '1500', '1000', 'asset', NULL, 'Property, plant and equipment', 'Основные средства', 'Asosiy vositalar'),
  ('ifrs', '2000', NULL, 'liability', NULL, 'Liabilities', 'Обязательства', 'Majburiyatlar'),
  ('ifrs', '2100', '2000', 'liability', 'payable', 'Trade payables', 'Торговая кредиторская задолженность', 'Savdo kreditorlik qarzi'),
  ('ifrs', '2200', '2000', 'liability', NULL, 'Taxes payable', 'Налоги к уплате', 'Toʻlanadigan soliqlar'),
  ('ifrs', '2300', '2000', 'liability', NULL, 'Employee benefits payable', 'Обязательства перед работниками', 'Xodimlar oldidagi majburiyatlar'),
  ('ifrs', '3000', NULL, 'equity', NULL, 'Equity', 'Капитал', 'Kapital'),
  ('ifrs', '3100', '3000', 'equity', NULL, 'Share capital', 'Акционерный капитал', 'Ustav kapitali'),
  ('ifrs', '3200', '3000', 'equity', NULL, 'Retained earnings', 'Нераспределённая прибыль', 'Taqsimlanmagan foyda'),
  ('ifrs', '3900', '3000', 'equity', 'opening_equity', 'Opening balance equity', 'Капитал начальных остатков', 'Boshlangʻich qoldiqlar kapitali'),
  ('ifrs', '4000', NULL, 'income', NULL, 'Income', 'Доходы', 'Daromadlar'),
  ('ifrs', '4100', '4000', 'income', 'revenue', 'Revenue', 'Выручка', 'Tushum'),
  ('ifrs', '4800', '4000', 'income', 'other_income', 'Other income', 'Прочие доходы', 'Boshqa daromadlar'),
  ('ifrs', '4900', '4000', 'income', 'fx_gain', 'Foreign exchange gains', 'Курсовые доходы', 'Valyuta kursi farqidan daromadlar'),
  ('ifrs', '5000', NULL, 'expense', NULL, 'Expenses', 'Расходы', 'Xarajatlar'),
  ('ifrs', '5100', '5000', 'expense', 'expense', 'Operating expenses', 'Операционные расходы', 'Operatsion xarajatlar'),
  ('ifrs', '5800', '5000', 'expense', 'bad_debt', 'Bad debts', 'Безнадёжные долги', 'Umidsiz qarzlar'),
  ('ifrs', '5900', '5000', 'expense', 'fx_loss', 'Foreign exchange losses', 'Курсовые расходы', 'Valyuta kursi farqidan zararlar');

SELECT hisob_protect_tenant_table('gl_accounts');
SELECT hisob_protect_tenant_table('journal_entries');
SELECT hisob_protect_tenant_table('journal_lines');
SELECT hisob_platform_table('gl_chart_templates');

-- The general ledger under every document (docs/decisions/0093-general-ledger.md).
--
-- Every document's journal lines are derived from the document by one function, `gl_desired`, and
-- written by `gl_sync`, called from row triggers on the document tables: in the document's own
-- statement and transaction, whichever path wrote it (the one posting statement of a payment or an
-- expense, Prisma's writes of transfers, exchanges, opening balances, debts and settlements, the
-- migration below). `gl_sync` posts the difference between the lines the document should have now
-- and the lines its entries already hold, as a new entry per date: a new document posts its lines,
-- an edit posts the change, a deletion posts the exact opposite; no line is ever changed. A
-- reversal's lines are the exact opposite of the lines its original posted. A deferred constraint
-- trigger checks at commit that each new entry sums to zero in the base currency.

-- Installs a template's accounts into a tenant's chart (accounts it has already: left alone).
CREATE FUNCTION gl_install_chart(p_tenant uuid, p_template text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO gl_accounts (tenant_id, code, name_en, name_ru, name_uz, type, role)
  SELECT p_tenant, t.code, t.name_en, t.name_ru, t.name_uz, t.type, t.role
    FROM gl_chart_templates t
   WHERE t.template = p_template
   ORDER BY t.code
  ON CONFLICT DO NOTHING;
  UPDATE gl_accounts a SET parent_id = p.id
    FROM gl_chart_templates t
    JOIN gl_accounts p ON p.tenant_id = p_tenant AND p.code = t.parent_code
   WHERE a.tenant_id = p_tenant AND t.template = p_template AND t.code = a.code AND a.parent_id IS NULL;
$$;

-- The tenant's base currency: its setting, else its first currency (UZS first among those added together).
CREATE FUNCTION gl_base_currency(p_tenant uuid) RETURNS char(3) LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (SELECT base_currency_code FROM tenant_settings WHERE tenant_id = p_tenant),
    (SELECT currency_code FROM tenant_currencies WHERE tenant_id = p_tenant
      ORDER BY created_at, currency_code <> 'UZS', currency_code LIMIT 1));
$$;

-- Base-currency minor units per minor unit of `p_currency` on `p_date`: 1 for the base currency,
-- else the rate of the tenant's own last exchange between the two before (p_date, p_created, p_id)
-- (not a reversal), else null (the line's base amount is then 0 until a revaluation).
CREATE FUNCTION gl_rate(p_tenant uuid, p_currency char(3), p_base char(3), p_date date,
                        p_created timestamptz, p_id uuid) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_base IS NULL OR p_currency = p_base THEN 1::numeric ELSE (
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
     LIMIT 1) END;
$$;

-- The leaf of the chart that has `p_role`; the tenant's chart is installed (NAS 21) on first use.
CREATE FUNCTION gl_role_account(p_tenant uuid, p_role text) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v uuid;
BEGIN
  SELECT id INTO v FROM gl_accounts WHERE tenant_id = p_tenant AND role = p_role;
  IF v IS NULL THEN
    -- The same lock as an explicit install (general-ledger.service.ts), so the two never mix charts.
    PERFORM pg_advisory_xact_lock(1214840979, hashtext(p_tenant::text));
    IF NOT EXISTS (SELECT 1 FROM gl_accounts WHERE tenant_id = p_tenant) THEN
      PERFORM gl_install_chart(p_tenant, 'nas21');
      SELECT id INTO v FROM gl_accounts WHERE tenant_id = p_tenant AND role = p_role;
    END IF;
    IF v IS NULL THEN
      RAISE EXCEPTION 'the chart of accounts has no account for postings of kind %', p_role
        USING ERRCODE = '23503', HINT = 'gl_role';
    END IF;
  END IF;
  RETURN v;
END
$$;

-- The GL account of a money account: its own, else the chart's for its currency.
CREATE FUNCTION gl_money_account(p_tenant uuid, p_account uuid, p_base char(3)) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_gl uuid;
  v_currency char(3);
BEGIN
  SELECT gl_account_id, currency_code INTO v_gl, v_currency FROM money_accounts WHERE tenant_id = p_tenant AND id = p_account;
  RETURN COALESCE(v_gl, gl_role_account(p_tenant,
    CASE WHEN p_base IS NULL OR v_currency = p_base THEN 'money' ELSE 'money_foreign' END));
END
$$;

-- The lines a document should have now (debit positive), grouped by what identifies a line.
CREATE FUNCTION gl_desired(p_tenant uuid, p_kind text, p_id uuid)
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
  v_cp uuid;
  v_date date;
  v_cur char(3);
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
    SELECT m.currency_code INTO v_ocur FROM money_accounts m WHERE m.tenant_id = p_tenant AND m.id = t.origin_account_id;
    SELECT m.currency_code INTO v_dcur FROM money_accounts m WHERE m.tenant_id = p_tenant AND m.id = t.destination_account_id;
    v_a := t.amount;
    IF t.type = 'income' THEN
      v_r := gl_rate(p_tenant, v_dcur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      SELECT p.counterparty_id, c.gl_account_id INTO v_cp, v_gl
        FROM payments p LEFT JOIN payment_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.transaction_id = t.id;
      RETURN QUERY VALUES
        (t.date, gl_money_account(p_tenant, t.destination_account_id, v_base), t.destination_account_id, NULL::uuid, v_dcur, v_a, v_ba, v_r),
        (t.date, COALESCE(v_gl, gl_role_account(p_tenant, 'revenue')), NULL::uuid, v_cp, v_dcur, -v_a, -v_ba, v_r);
    ELSIF t.type = 'expense' THEN
      v_r := gl_rate(p_tenant, v_ocur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      SELECT p.counterparty_id, c.gl_account_id INTO v_cp, v_gl
        FROM expenses p LEFT JOIN expense_categories c ON c.tenant_id = p.tenant_id AND c.id = p.category_id
       WHERE p.tenant_id = p_tenant AND p.transaction_id = t.id;
      RETURN QUERY VALUES
        (t.date, COALESCE(v_gl, gl_role_account(p_tenant, 'expense')), NULL::uuid, v_cp, v_ocur, v_a, v_ba, v_r),
        (t.date, gl_money_account(p_tenant, t.origin_account_id, v_base), t.origin_account_id, NULL::uuid, v_ocur, -v_a, -v_ba, v_r);
    ELSIF t.type = 'opening_balance' THEN
      v_cur := COALESCE(v_dcur, v_ocur);
      v_r := gl_rate(p_tenant, v_cur, v_base, t.date, 'infinity', t.id);
      v_ba := COALESCE(round(v_a * v_r), 0);
      IF t.destination_account_id IS NULL THEN v_a := -v_a; v_ba := -v_ba; END IF;
      RETURN QUERY VALUES
        (t.date, gl_money_account(p_tenant, COALESCE(t.destination_account_id, t.origin_account_id), v_base),
         COALESCE(t.destination_account_id, t.origin_account_id), NULL::uuid, v_cur, v_a, v_ba, v_r),
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
        (t.date, gl_money_account(p_tenant, t.destination_account_id, v_base), t.destination_account_id, NULL::uuid, v_dcur, v_dm, v_bd, v_rd),
        (t.date, gl_money_account(p_tenant, t.origin_account_id, v_base), t.origin_account_id, NULL::uuid, v_ocur, -v_a, -v_ba, v_r);
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
      v_date := (COALESCE(d.written_off_at, d.updated_at) AT TIME ZONE 'UTC')::date;
      v_r := gl_rate(p_tenant, d.currency_code, v_base, v_date, COALESCE(d.written_off_at, d.updated_at), d.id);
      v_ba := COALESCE(round(d.written_off_amount * v_r), 0);
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
    v_r := gl_rate(p_tenant, v_cur, v_base, v_date, 'infinity', s.id);
    v_ba := COALESCE(round(s.amount * v_r), 0);
    IF s.payment_id IS NOT NULL THEN
      RETURN QUERY VALUES
        (v_date, COALESCE(v_gl, gl_role_account(p_tenant, 'revenue')), NULL::uuid, d.counterparty_id, v_cur, s.amount, v_ba, v_r),
        (v_date, gl_role_account(p_tenant, 'receivable'), NULL::uuid, d.counterparty_id, v_cur, -s.amount, -v_ba, v_r);
    ELSE
      RETURN QUERY VALUES
        (v_date, gl_role_account(p_tenant, 'payable'), NULL::uuid, d.counterparty_id, v_cur, s.amount, v_ba, v_r),
        (v_date, COALESCE(v_gl, gl_role_account(p_tenant, 'expense')), NULL::uuid, d.counterparty_id, v_cur, -s.amount, -v_ba, v_r);
    END IF;
  END IF;
END
$$;

-- Posts the difference between what the document should hold and what it holds: one entry per date.
CREATE FUNCTION gl_sync(p_tenant uuid, p_kind text, p_id uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH delta AS (
    SELECT x.date, x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code,
           sum(x.amount)::bigint AS amount, sum(x.base_amount)::bigint AS base_amount, max(x.rate) AS rate
      FROM (SELECT g.date, g.gl_account_id, g.money_account_id, g.counterparty_id, g.currency_code,
                   g.amount, g.base_amount, g.rate
              FROM gl_desired(p_tenant, p_kind, p_id) g
            UNION ALL
            SELECT l.date, l.gl_account_id, l.money_account_id, l.counterparty_id, l.currency_code,
                   -l.amount, -l.base_amount, NULL
              FROM journal_entries e
              JOIN journal_lines l ON l.tenant_id = e.tenant_id AND l.entry_id = e.id
             WHERE e.tenant_id = p_tenant AND e.source_kind = p_kind AND e.source_id = p_id) x
     GROUP BY x.date, x.gl_account_id, x.money_account_id, x.counterparty_id, x.currency_code
    HAVING sum(x.amount) <> 0 OR sum(x.base_amount) <> 0
  ), entries AS (
    INSERT INTO journal_entries (tenant_id, date, source_kind, source_id)
    SELECT p_tenant, dd.date, p_kind, p_id FROM (SELECT DISTINCT date FROM delta) dd
    RETURNING id, date
  )
  INSERT INTO journal_lines (tenant_id, entry_id, gl_account_id, date, money_account_id, counterparty_id,
                             currency_code, amount, base_amount, rate)
  SELECT p_tenant, en.id, delta.gl_account_id, delta.date, delta.money_account_id, delta.counterparty_id,
         delta.currency_code, delta.amount, delta.base_amount, delta.rate
    FROM delta JOIN entries en ON en.date = delta.date;
END
$$;

CREATE FUNCTION gl_sync_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM gl_sync(OLD.tenant_id, TG_ARGV[0], OLD.id);
  ELSE
    PERFORM gl_sync(NEW.tenant_id, TG_ARGV[0], NEW.id);
  END IF;
  RETURN NULL;
END
$$;

-- A payment's or an expense's category or counterparty changed: its entry (and its settlement's) follow.
CREATE FUNCTION gl_sync_document_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_settlement uuid;
BEGIN
  PERFORM gl_sync(NEW.tenant_id, 'transaction', NEW.transaction_id);
  IF TG_TABLE_NAME = 'payments' THEN
    SELECT id INTO v_settlement FROM debt_settlements WHERE tenant_id = NEW.tenant_id AND payment_id = NEW.id;
  ELSE
    SELECT id INTO v_settlement FROM debt_settlements WHERE tenant_id = NEW.tenant_id AND expense_id = NEW.id;
  END IF;
  IF v_settlement IS NOT NULL THEN
    PERFORM gl_sync(NEW.tenant_id, 'settlement', v_settlement);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER transactions_gl AFTER INSERT OR UPDATE OR DELETE ON transactions
  FOR EACH ROW EXECUTE FUNCTION gl_sync_row('transaction');
CREATE TRIGGER payments_gl AFTER UPDATE OF category_id, counterparty_id ON payments
  FOR EACH ROW WHEN (OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.counterparty_id IS DISTINCT FROM NEW.counterparty_id)
  EXECUTE FUNCTION gl_sync_document_row();
CREATE TRIGGER expenses_gl AFTER UPDATE OF category_id, counterparty_id ON expenses
  FOR EACH ROW WHEN (OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.counterparty_id IS DISTINCT FROM NEW.counterparty_id)
  EXECUTE FUNCTION gl_sync_document_row();
CREATE TRIGGER debts_gl_insert_delete AFTER INSERT OR DELETE ON debts
  FOR EACH ROW EXECUTE FUNCTION gl_sync_row('debt');
CREATE TRIGGER debts_gl_update AFTER UPDATE ON debts
  FOR EACH ROW WHEN ((OLD.kind, OLD.amount, OLD.currency_code, OLD.counterparty_id, OLD.status, OLD.written_off_amount, OLD.written_off_at, OLD.created_at)
    IS DISTINCT FROM (NEW.kind, NEW.amount, NEW.currency_code, NEW.counterparty_id, NEW.status, NEW.written_off_amount, NEW.written_off_at, NEW.created_at))
  EXECUTE FUNCTION gl_sync_row('debt');
CREATE TRIGGER debt_settlements_gl AFTER INSERT OR UPDATE OR DELETE ON debt_settlements
  FOR EACH ROW EXECUTE FUNCTION gl_sync_row('settlement');

-- Balanced by construction: at commit, every entry written in the transaction sums to zero in the
-- base currency, whatever path wrote it.
CREATE FUNCTION gl_check_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_sum bigint;
BEGIN
  SELECT COALESCE(sum(base_amount), 0) INTO v_sum FROM journal_lines WHERE tenant_id = NEW.tenant_id AND entry_id = NEW.id;
  IF v_sum <> 0 THEN
    RAISE EXCEPTION 'journal entry % is not balanced: debits and credits differ by % base-currency minor units', NEW.id, v_sum
      USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gl_check_entry();

-- Lines are never changed: a correction is a further entry.
CREATE FUNCTION gl_lines_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journal lines are never changed; post a correcting entry' USING ERRCODE = '55000';
END
$$;
CREATE TRIGGER journal_lines_immutable BEFORE UPDATE ON journal_lines
  FOR EACH ROW EXECUTE FUNCTION gl_lines_immutable();

-- Existing books: every document's lines, through the same functions as a live posting, so the
-- trial balance balances from the first day (originals before their reversals).
SELECT gl_sync(tenant_id, 'transaction', id) FROM transactions
 ORDER BY (reversal_of_id IS NOT NULL), created_at, id;
SELECT gl_sync(tenant_id, 'debt', id) FROM debts ORDER BY created_at, id;
SELECT gl_sync(tenant_id, 'settlement', id) FROM debt_settlements ORDER BY created_at, id;
