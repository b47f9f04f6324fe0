-- Unrealised exchange gain and loss accounts for organizations that have none
-- (docs/decisions/0100-manual-journals-and-revaluation.md). 20261212000000 added them with the
-- template's code and ON CONFLICT DO NOTHING, so an organization whose chart already used that code
-- got no account and could never revalue. Here each missing one is added beside the realised gain or
-- loss (same parent) under the first free code from the template's code on (9541, 9542, …).
INSERT INTO gl_accounts (tenant_id, code, name_en, name_ru, name_uz, type, role, parent_id)
SELECT missing.tenant_id, missing.code, missing.name_en, missing.name_ru, missing.name_uz, missing.type,
       missing.role, missing.parent_id
  FROM (SELECT DISTINCT ON (r.tenant_id, t.role)
               r.tenant_id, t.name_en, t.name_ru, t.name_uz, t.type, t.role, r.parent_id,
               (SELECT min(c)::text
                  FROM generate_series(t.code::int, t.code::int + 98) AS c
                 WHERE NOT EXISTS (SELECT 1 FROM gl_accounts x WHERE x.tenant_id = r.tenant_id AND x.code = c::text)) AS code
          FROM gl_accounts r
          JOIN gl_chart_templates t
            ON t.template = CASE WHEN EXISTS (SELECT 1 FROM gl_accounts m
                                                WHERE m.tenant_id = r.tenant_id AND m.role = 'money' AND m.code = '1110')
                                 THEN 'ifrs' ELSE 'nas21' END
           AND t.role = CASE r.role WHEN 'fx_gain' THEN 'fx_unrealised_gain' ELSE 'fx_unrealised_loss' END
         WHERE r.role IN ('fx_gain', 'fx_loss')
           AND NOT EXISTS (SELECT 1 FROM gl_accounts x WHERE x.tenant_id = r.tenant_id AND x.role = t.role)
         ORDER BY r.tenant_id, t.role, r.code) AS missing
 WHERE missing.code IS NOT NULL;
