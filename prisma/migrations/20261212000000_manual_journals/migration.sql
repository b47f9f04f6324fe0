-- Manual journal entries and period-end revaluation (docs/decisions/0100-manual-journals-and-revaluation.md).
--
-- A manual journal is a document of its own: a draft holds its lines here and posts nothing; posting
-- writes one journal entry (source_kind 'manual', source_id the journal) with the same lines in the same
-- transaction; a reversal is a further posted journal with the exact opposite lines. A revaluation is a
-- manual journal of kind 'revaluation' whose lines the server computed. `gl_desired`/`gl_sync` are not
-- involved: they derive the lines of payments, transfers, debts and settlements, not of these.

-- CreateTable
CREATE TABLE "manual_journals" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'manual',
    "state" TEXT NOT NULL DEFAULT 'draft',
    "date" DATE NOT NULL,
    "memo" TEXT NOT NULL DEFAULT '',
    "total" BIGINT NOT NULL DEFAULT 0,
    "entry_id" UUID,
    "reversal_of_id" UUID,
    "reversed_by_id" UUID,
    "attachment_ids" UUID[] NOT NULL DEFAULT '{}',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "posted_at" TIMESTAMPTZ(3),

    CONSTRAINT "manual_journals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "manual_journals_kind_check" CHECK ("kind" IN ('manual', 'revaluation')),
    CONSTRAINT "manual_journals_state_check" CHECK ("state" IN ('draft', 'posted', 'reversed')),
    CONSTRAINT "manual_journals_posted_entry_check" CHECK (("state" = 'draft') = ("entry_id" IS NULL))
);

-- CreateTable
CREATE TABLE "manual_journal_lines" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "journal_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "gl_account_id" UUID NOT NULL,
    "counterparty_id" UUID,
    "money_account_id" UUID,
    "currency_code" CHAR(3) NOT NULL,
    "amount" BIGINT NOT NULL,
    "base_amount" BIGINT NOT NULL,
    "rate" DECIMAL(40,20),
    "memo" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "manual_journal_lines_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "manual_journal_lines_amount_check" CHECK ("amount" <> 0 OR "base_amount" <> 0)
);

CREATE UNIQUE INDEX "manual_journals_tenant_id_id_key" ON "manual_journals"("tenant_id", "id");
CREATE UNIQUE INDEX "manual_journals_tenant_id_number_key" ON "manual_journals"("tenant_id", "number");
CREATE INDEX "manual_journals_tenant_id_date_idx" ON "manual_journals"("tenant_id", "date");
CREATE INDEX "manual_journal_lines_tenant_id_journal_id_idx" ON "manual_journal_lines"("tenant_id", "journal_id", "position");

ALTER TABLE "manual_journals" ADD CONSTRAINT "manual_journals_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "manual_journals" ADD CONSTRAINT "manual_journals_tenant_id_entry_id_fkey" FOREIGN KEY ("tenant_id", "entry_id") REFERENCES "journal_entries"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;
ALTER TABLE "manual_journals" ADD CONSTRAINT "manual_journals_tenant_id_reversal_of_id_fkey" FOREIGN KEY ("tenant_id", "reversal_of_id") REFERENCES "manual_journals"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;
ALTER TABLE "manual_journal_lines" ADD CONSTRAINT "manual_journal_lines_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "manual_journal_lines" ADD CONSTRAINT "manual_journal_lines_tenant_id_journal_id_fkey" FOREIGN KEY ("tenant_id", "journal_id") REFERENCES "manual_journals"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "manual_journal_lines" ADD CONSTRAINT "manual_journal_lines_tenant_id_gl_account_id_fkey" FOREIGN KEY ("tenant_id", "gl_account_id") REFERENCES "gl_accounts"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;
ALTER TABLE "manual_journal_lines" ADD CONSTRAINT "manual_journal_lines_tenant_id_counterparty_id_fkey" FOREIGN KEY ("tenant_id", "counterparty_id") REFERENCES "counterparties"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

SELECT hisob_protect_tenant_table('manual_journals');
SELECT hisob_protect_tenant_table('manual_journal_lines');

-- Unrealised exchange differences: a leaf for gains and one for losses in both templates, beside the
-- realised ones (NAS 21 has no account of its own for them; they are kept apart under 9500/9600 so
-- that a revaluation, reversed on the next day, is told apart from what an exchange realised).
INSERT INTO gl_chart_templates (template, code, parent_code, type, role, name_en, name_ru, name_uz) VALUES
  ('nas21', '9541', '9500', 'income', 'fx_unrealised_gain', 'Unrealised foreign exchange gains (revaluation)', 'Нереализованные доходы от курсовых разниц (переоценка)', 'Valyuta kurslari farqidan amalga oshmagan daromadlar (qayta baholash)'),
  ('nas21', '9621', '9600', 'expense', 'fx_unrealised_loss', 'Unrealised foreign exchange losses (revaluation)', 'Нереализованные убытки от курсовых разниц (переоценка)', 'Valyuta kurslari farqidan amalga oshmagan zararlar (qayta baholash)'),
  ('ifrs', '4910', '4000', 'income', 'fx_unrealised_gain', 'Unrealised foreign exchange gains', 'Нереализованные курсовые доходы', 'Amalga oshmagan valyuta kursi daromadlari'),
  ('ifrs', '5910', '5000', 'expense', 'fx_unrealised_loss', 'Unrealised foreign exchange losses', 'Нереализованные курсовые расходы', 'Amalga oshmagan valyuta kursi zararlari')
ON CONFLICT DO NOTHING;

-- Charts already installed: the two leaves, beside the realised gain and loss (under the same parent),
-- with the template's code when it is free.
INSERT INTO gl_accounts (tenant_id, code, name_en, name_ru, name_uz, type, role, parent_id)
SELECT r.tenant_id, t.code, t.name_en, t.name_ru, t.name_uz, t.type, t.role, r.parent_id
  FROM gl_accounts r
  JOIN gl_accounts m ON m.tenant_id = r.tenant_id AND m.role = 'money'
  JOIN gl_chart_templates t ON t.template = CASE WHEN m.code = '1110' THEN 'ifrs' ELSE 'nas21' END
   AND t.role = CASE r.role WHEN 'fx_gain' THEN 'fx_unrealised_gain' ELSE 'fx_unrealised_loss' END
 WHERE r.role IN ('fx_gain', 'fx_loss')
   AND NOT EXISTS (SELECT 1 FROM gl_accounts x WHERE x.tenant_id = r.tenant_id AND x.role = t.role)
ON CONFLICT DO NOTHING;
