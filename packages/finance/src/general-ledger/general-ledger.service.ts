import { audit, type Db, isUniqueViolation, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { fieldError, notFound } from "../finance-errors";
import {
  type TCreateGlAccountInput,
  type TGlAccountDto,
  type TGlMappingDto,
  type TInstallChartInput,
  type TMoveGlAccountInput,
  type TSetGlMappingInput,
  type TTrialBalance,
  type TTrialBalanceQuery,
  type TUpdateGlAccountInput,
  ZCreateGlAccountInput,
  ZInstallChartInput,
  ZMoveGlAccountInput,
  ZSetGlMappingInput,
  ZTrialBalanceQuery,
  ZUpdateGlAccountInput,
} from "./general-ledger.schema";
import { type ChartRow, createLedgerReports, loadChart, rollUp } from "./ledger-reports";

/*
 * The chart of accounts and the trial balance (docs/decisions/0093-general-ledger.md). The journal
 * itself is written by the database, in each document's own statement (migration
 * 20261210000000_general_ledger: `gl_sync`); this service edits the chart, maps money accounts and
 * categories to it and reads the journal's aggregates.
 */

type AccountRow = ChartRow & {
  currency_code: string | null;
  role: string | null;
  is_active: boolean;
  has_entries: boolean;
  has_children: boolean;
};

const toDto = (row: AccountRow): TGlAccountDto => ({
  id: row.id,
  code: row.code,
  nameEn: row.name_en,
  nameRu: row.name_ru,
  nameUz: row.name_uz,
  type: row.type,
  parentId: row.parent_id,
  currency: row.currency_code,
  role: row.role,
  isActive: row.is_active,
  hasEntries: row.has_entries,
});

const glAccountNotFound = () => notFound("finance.gl_account_not_found", "Account of the chart not found");

const conflict = (reason: string, message: string, params?: Record<string, unknown>) =>
  new AppError("CONFLICT", { reason, message, ...(params ? { params } : {}) });

/** A parent must take no lines itself: only leaves do. */
const parentHasEntries = () =>
  fieldError(
    "parentId",
    "finance.gl_parent_has_entries",
    "has journal lines; only an account without lines can have sub-accounts",
  );

const codeTaken = () => conflict("finance.gl_code_taken", "Another account of the chart has this code");

const selectAccounts = (tx: Tx, tenantId: string, id: string | null) =>
  tx.$queryRaw<AccountRow[]>`
    SELECT a.id::text, a.code, a.name_en, a.name_ru, a.name_uz, a.type::text AS type, a.parent_id::text,
           a.currency_code::text, a.role, a.is_active,
           EXISTS (SELECT 1 FROM journal_lines l WHERE l.tenant_id = a.tenant_id AND l.gl_account_id = a.id) AS has_entries,
           EXISTS (SELECT 1 FROM gl_accounts c WHERE c.tenant_id = a.tenant_id AND c.parent_id = a.id) AS has_children
      FROM gl_accounts a
     WHERE a.tenant_id = ${tenantId}::uuid AND (${id}::uuid IS NULL OR a.id = ${id}::uuid)
     ORDER BY a.code`;

const findAccount = async (tx: Tx, tenantId: string, id: string): Promise<AccountRow | undefined> =>
  (await selectAccounts(tx, tenantId, id))[0];

/** The kinds of row a money account or category may be mapped to. */
const MAPPING = {
  moneyAccount: { table: "money_accounts", entity: "money_account", type: "asset" },
  paymentCategory: { table: "payment_categories", entity: "payment_category", type: "income" },
  expenseCategory: { table: "expense_categories", entity: "expense_category", type: "expense" },
} as const;

type TrialSums = { id: string; opening: string; debit: string; credit: string; entries: number };

export const createGeneralLedgerService = (deps: { db: Db; clock?: Clock }) => {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;

  return {
    ...createLedgerReports({ db }),

    /** The tenant's chart, by code (empty until a template is installed or the first document posts). */
    accounts: async (ctx: TenantContext): Promise<TGlAccountDto[]> => {
      requirePermission(ctx, "accounts:read:all");
      return db.withTenant(ctx.tenantId, async (tx) =>
        (await selectAccounts(tx, ctx.tenantId, null)).map(toDto),
      );
    },

    /**
     * Starts the chart from a template. Refused once anything was posted: the lines name the accounts
     * of the chart they were posted to. Mappings of money accounts and categories are cleared.
     */
    installChart: async (ctx: TenantContext, raw: TInstallChartInput): Promise<TGlAccountDto[]> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZInstallChartInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        // Postings install the default chart on first use under the same lock (gl_role_account).
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${0x4869_0093}, hashtext(${tenantId}))`;
        const [posted] = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM (SELECT 1 FROM journal_lines WHERE tenant_id = ${tenantId}::uuid LIMIT 1) x`;
        if ((posted?.n ?? 0) > 0) {
          throw conflict(
            "finance.gl_chart_in_use",
            "Documents are already posted to the chart of accounts; edit its accounts instead of replacing it",
          );
        }
        await tx.$executeRaw`UPDATE money_accounts SET gl_account_id = NULL WHERE tenant_id = ${tenantId}::uuid AND gl_account_id IS NOT NULL`;
        await tx.$executeRaw`UPDATE payment_categories SET gl_account_id = NULL WHERE tenant_id = ${tenantId}::uuid AND gl_account_id IS NOT NULL`;
        await tx.$executeRaw`UPDATE expense_categories SET gl_account_id = NULL WHERE tenant_id = ${tenantId}::uuid AND gl_account_id IS NOT NULL`;
        await tx.$executeRaw`UPDATE gl_accounts SET parent_id = NULL WHERE tenant_id = ${tenantId}::uuid`;
        await tx.$executeRaw`DELETE FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid`;
        await tx.$executeRaw`SELECT gl_install_chart(${tenantId}::uuid, ${input.template})`;
        await audit(tx, ctx, "gl_chart", tenantId, "create", { after: { template: input.template } });
        return (await selectAccounts(tx, tenantId, null)).map(toDto);
      });
    },

    /** A new account; its parent must take no lines itself (only leaves do). */
    createAccount: async (ctx: TenantContext, raw: TCreateGlAccountInput): Promise<TGlAccountDto> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZCreateGlAccountInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          if (input.parentId) {
            const parent = await findAccount(tx, tenantId, input.parentId);
            if (!parent) {
              throw fieldError("parentId", "finance.unknown_gl_account", "is not an account of this chart");
            }
            if (parent.has_entries) {
              throw parentHasEntries();
            }
            if (parent.type !== input.type) {
              throw fieldError(
                "type",
                "finance.gl_type_differs",
                `must be the parent's type (${parent.type})`,
              );
            }
          }
          const [row] = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO gl_accounts (tenant_id, code, name_en, name_ru, name_uz, type, parent_id, currency_code, updated_at)
            VALUES (${tenantId}::uuid, ${input.code}, ${input.nameEn}, ${input.nameRu}, ${input.nameUz},
                    ${input.type}::gl_account_type, ${input.parentId}::uuid, ${input.currency}, ${clock.now()})
            RETURNING id::text`;
          const created = await findAccount(tx, tenantId, row?.id ?? "");
          if (!created) throw glAccountNotFound();
          const dto = toDto(created);
          await audit(tx, ctx, "gl_account", dto.id, "create", { after: dto });
          return dto;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw codeTaken();
          throw error;
        });
    },

    /** Code, names, currency, active flag. An account the postings use by default stays active. */
    updateAccount: async (
      ctx: TenantContext,
      id: string,
      raw: TUpdateGlAccountInput,
    ): Promise<TGlAccountDto> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZUpdateGlAccountInput, raw);
      const { tenantId } = ctx;
      return db
        .withTenant(tenantId, async (tx) => {
          const before = await findAccount(tx, tenantId, id);
          if (!before) throw glAccountNotFound();
          if (input.isActive === false && before.role !== null) {
            throw conflict(
              "finance.gl_account_has_role",
              "The postings use this account by default; it cannot be deactivated",
            );
          }
          await tx.$executeRaw`
            UPDATE gl_accounts
               SET code = COALESCE(${input.code ?? null}, code),
                   name_en = COALESCE(${input.nameEn ?? null}, name_en),
                   name_ru = COALESCE(${input.nameRu ?? null}, name_ru),
                   name_uz = COALESCE(${input.nameUz ?? null}, name_uz),
                   currency_code = CASE WHEN ${input.currency !== undefined} THEN ${input.currency ?? null}::char(3) ELSE currency_code END,
                   is_active = COALESCE(${input.isActive ?? null}::boolean, is_active),
                   updated_at = ${clock.now()}
             WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
          const after = await findAccount(tx, tenantId, id);
          if (!after) throw glAccountNotFound();
          const dto = toDto(after);
          await audit(tx, ctx, "gl_account", id, "update", { before: toDto(before), after: dto });
          return dto;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw codeTaken();
          throw error;
        });
    },

    /**
     * Moves an account, with everything under it, under another parent (null: the top of the chart)
     * (docs/decisions/0111-books-features.md). The parent must be of the account's type, take no lines
     * itself (only leaves do) and not be the account or one of its sub-accounts. Lines stay on their
     * accounts: only the tree's grouping — the reports' subtotals — changes.
     */
    moveAccount: async (ctx: TenantContext, id: string, raw: TMoveGlAccountInput): Promise<TGlAccountDto> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZMoveGlAccountInput, raw);
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        // One move at a time per chart: two moves at once could each pass the cycle check and, together,
        // make one (A under B while B goes under A). The lock of the chart's installation.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${0x4869_0093}, hashtext(${tenantId}))`;
        const before = await findAccount(tx, tenantId, id);
        if (!before) throw glAccountNotFound();
        if (input.parentId !== null) {
          const parent = await findAccount(tx, tenantId, input.parentId);
          if (!parent) {
            throw fieldError("parentId", "finance.unknown_gl_account", "is not an account of this chart");
          }
          const [cycle] = await tx.$queryRaw<{ found: boolean }[]>`
            WITH RECURSIVE up AS (
              SELECT id, parent_id FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid AND id = ${input.parentId}::uuid
              UNION
              SELECT a.id, a.parent_id FROM gl_accounts a JOIN up ON a.tenant_id = ${tenantId}::uuid AND a.id = up.parent_id
            )
            SELECT EXISTS (SELECT 1 FROM up WHERE id = ${id}::uuid) AS found`;
          if (cycle?.found) {
            throw fieldError(
              "parentId",
              "finance.gl_move_cycle",
              "is the account itself or one of its sub-accounts",
            );
          }
          if (parent.type !== before.type) {
            throw fieldError(
              "parentId",
              "finance.gl_type_differs",
              `must be an account of type ${before.type}`,
            );
          }
          if (parent.has_entries) {
            throw parentHasEntries();
          }
        }
        if (before.parent_id === input.parentId) return toDto(before);
        await tx.$executeRaw`
          UPDATE gl_accounts SET parent_id = ${input.parentId}::uuid, updated_at = ${clock.now()}
           WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
        const after = await findAccount(tx, tenantId, id);
        if (!after) throw glAccountNotFound();
        const dto = toDto(after);
        await audit(tx, ctx, "gl_account", id, "reparent", {
          before: { parentId: before.parent_id },
          after: { parentId: dto.parentId },
        });
        return dto;
      });
    },

    /** Refused for an account with lines (deactivate it instead), sub-accounts, a role or a mapping. */
    deleteAccount: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "accounts:update:all");
      const { tenantId } = ctx;
      await db.withTenant(tenantId, async (tx) => {
        const before = await findAccount(tx, tenantId, id);
        if (!before) throw glAccountNotFound();
        // Lines of draft journals count too: they hold the account (a posted one's are in journal_lines
        // already), and deleting it would break them (docs/decisions/0100-manual-journals-and-revaluation.md).
        const [lines] = await tx.$queryRaw<{ n: number }[]>`
          SELECT ((SELECT count(*) FROM journal_lines WHERE tenant_id = ${tenantId}::uuid AND gl_account_id = ${id}::uuid)
                + (SELECT count(*) FROM manual_journal_lines l
                     JOIN manual_journals j ON j.tenant_id = l.tenant_id AND j.id = l.journal_id AND j.state = 'draft'
                    WHERE l.tenant_id = ${tenantId}::uuid AND l.gl_account_id = ${id}::uuid))::int AS n`;
        if ((lines?.n ?? 0) > 0) {
          throw conflict(
            "finance.gl_account_has_entries",
            `The account has ${lines?.n} journal lines; it cannot be deleted, deactivate it instead`,
            { count: lines?.n ?? 0 },
          );
        }
        if (before.has_children) {
          throw conflict(
            "finance.gl_account_has_children",
            "The account has sub-accounts; delete or move them first",
          );
        }
        if (before.role !== null) {
          throw conflict(
            "finance.gl_account_has_role",
            "The postings use this account by default; it cannot be deleted",
          );
        }
        const [mapped] = await tx.$queryRaw<{ n: number }[]>`
          SELECT ((SELECT count(*) FROM money_accounts WHERE tenant_id = ${tenantId}::uuid AND gl_account_id = ${id}::uuid)
                + (SELECT count(*) FROM payment_categories WHERE tenant_id = ${tenantId}::uuid AND gl_account_id = ${id}::uuid)
                + (SELECT count(*) FROM expense_categories WHERE tenant_id = ${tenantId}::uuid AND gl_account_id = ${id}::uuid))::int AS n`;
        if ((mapped?.n ?? 0) > 0) {
          throw conflict(
            "finance.gl_account_mapped",
            `Money accounts or categories post to this account (${mapped?.n}); map them elsewhere first`,
            { count: mapped?.n ?? 0 },
          );
        }
        await tx.$executeRaw`DELETE FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid AND id = ${id}::uuid`;
        await audit(tx, ctx, "gl_account", id, "delete", { before: toDto(before) });
      });
    },

    /**
     * Where every money account and category posts: its mapping, and the leaf it posts to now (the
     * mapping, else the chart's default for its role — a money account in the base currency the
     * `money` leaf, another currency's `money_foreign`, a category `revenue` or `expense`). Read only:
     * it does not install the default chart (the first posting or `installChart` does).
     */
    mappings: async (ctx: TenantContext): Promise<TGlMappingDto[]> => {
      requirePermission(ctx, "accounts:read:all");
      const { tenantId } = ctx;
      return db.withTenant(tenantId, async (tx) => {
        const rows = await tx.$queryRaw<
          {
            kind: TGlMappingDto["kind"];
            id: string;
            name: string;
            currency: string | null;
            gl_account_id: string | null;
            default_id: string | null;
            posts_to: string | null;
          }[]
        >`
          WITH base AS (SELECT gl_base_currency(${tenantId}::uuid) AS code),
          roles AS (
            SELECT role, id FROM gl_accounts WHERE tenant_id = ${tenantId}::uuid AND role IS NOT NULL
          ),
          rows AS (
            SELECT 'moneyAccount' AS kind, 1 AS rank, m.id, m.name, m.currency_code::text AS currency, m.gl_account_id,
                   CASE WHEN b.code IS NULL OR m.currency_code = b.code THEN 'money' ELSE 'money_foreign' END AS role
              FROM money_accounts m CROSS JOIN base b WHERE m.tenant_id = ${tenantId}::uuid
            UNION ALL
            SELECT 'paymentCategory', 2, c.id, c.name, NULL, c.gl_account_id, 'revenue'
              FROM payment_categories c WHERE c.tenant_id = ${tenantId}::uuid
            UNION ALL
            SELECT 'expenseCategory', 3, c.id, c.name, NULL, c.gl_account_id, 'expense'
              FROM expense_categories c WHERE c.tenant_id = ${tenantId}::uuid
          )
          SELECT r.kind, r.id::text, r.name, r.currency, r.gl_account_id::text, roles.id::text AS default_id,
                 COALESCE(r.gl_account_id, roles.id)::text AS posts_to
            FROM rows r LEFT JOIN roles ON roles.role = r.role
           ORDER BY r.rank, r.name, r.id`;
        return rows.map((row) => ({
          kind: row.kind,
          id: row.id,
          name: row.name,
          currency: row.currency,
          glAccountId: row.gl_account_id,
          defaultGlAccountId: row.default_id,
          postsTo: row.posts_to,
        }));
      });
    },

    /**
     * Maps a money account to an asset leaf (of its currency, when the leaf names one) or a category
     * to an income or expense leaf; null returns it to the chart's default. Later postings use it.
     */
    setMapping: async (ctx: TenantContext, raw: TSetGlMappingInput): Promise<void> => {
      requirePermission(ctx, "accounts:update:all");
      const input = parseInput(ZSetGlMappingInput, raw);
      const { tenantId } = ctx;
      const mapping = MAPPING[input.kind];
      await db.withTenant(tenantId, async (tx) => {
        const [target] = await tx.$queryRawUnsafe<
          { id: string; gl_account_id: string | null; currency_code: string | null }[]
        >(
          `SELECT id::text, gl_account_id::text, ${input.kind === "moneyAccount" ? "currency_code::text" : "NULL::text AS currency_code"}
             FROM ${mapping.table} WHERE tenant_id = $1::uuid AND id = $2::uuid`,
          tenantId,
          input.id,
        );
        if (!target)
          throw fieldError(
            "id",
            "finance.unknown_mapped_row",
            `is not a ${mapping.entity.replace("_", " ")} of this organization`,
          );
        if (input.glAccountId !== null) {
          const account = await findAccount(tx, tenantId, input.glAccountId);
          if (!account)
            throw fieldError("glAccountId", "finance.unknown_gl_account", "is not an account of this chart");
          if (account.has_children) {
            throw fieldError(
              "glAccountId",
              "finance.gl_account_not_leaf",
              "has sub-accounts; only a leaf takes lines",
            );
          }
          if (!account.is_active)
            throw fieldError("glAccountId", "finance.gl_account_inactive", "is deactivated");
          if (account.type !== mapping.type) {
            throw fieldError(
              "glAccountId",
              "finance.gl_type_differs",
              `must be an account of type ${mapping.type}`,
            );
          }
          if (
            account.currency_code &&
            target.currency_code &&
            account.currency_code !== target.currency_code
          ) {
            throw fieldError(
              "glAccountId",
              "finance.gl_currency_differs",
              `holds ${account.currency_code}, not ${target.currency_code}`,
            );
          }
        }
        await tx.$executeRawUnsafe(
          `UPDATE ${mapping.table} SET gl_account_id = $3::uuid WHERE tenant_id = $1::uuid AND id = $2::uuid`,
          tenantId,
          input.id,
          input.glAccountId,
        );
        await audit(tx, ctx, mapping.entity, input.id, "update", {
          before: { glAccountId: target.gl_account_id },
          after: { glAccountId: input.glAccountId },
        });
      });
    },

    /**
     * Trial balance (оборотно-сальдовая ведомость) in the base currency: per leaf with lines, the
     * balance before the period, the debit and credit turnover in it and the balance after; one
     * aggregate over the lines up to the period's end.
     */
    trialBalance: async (ctx: TenantContext, raw: TTrialBalanceQuery): Promise<TTrialBalance> => {
      requirePermission(ctx, "reports:read:all");
      const query = parseInput(ZTrialBalanceQuery, raw);
      const { tenantId } = ctx;
      const { startDate, endDate } = query;
      return db.withTenant(tenantId, async (tx) => {
        // The lines aggregated per GL account in SQL, the chart (read anyway for the tree) joined here.
        // Joined in SQL, the planner put the tenant's accounts (estimated at one row) on the outer
        // side of a nested loop and ran the aggregate over every line once per account: 36× its bare
        // SQL over a year of 1,000,000 transactions (docs/decisions/0110-ledger-speed.md).
        const sums = await tx.$queryRaw<TrialSums[]>`
          SELECT l.gl_account_id::text AS id,
                 COALESCE(sum(l.base_amount) FILTER (WHERE l.date < ${startDate}::date), 0)::text AS opening,
                 COALESCE(sum(l.base_amount) FILTER (WHERE l.date >= ${startDate}::date AND l.base_amount > 0), 0)::text AS debit,
                 COALESCE(-sum(l.base_amount) FILTER (WHERE l.date >= ${startDate}::date AND l.base_amount < 0), 0)::text AS credit,
                 count(*) FILTER (WHERE l.date >= ${startDate}::date)::int AS entries
            FROM journal_lines l
           WHERE l.tenant_id = ${tenantId}::uuid AND l.date <= ${endDate}::date
           GROUP BY l.gl_account_id`;
        const chart = await loadChart(tx, tenantId);
        const byId = new Map(chart.map((account) => [account.accountId, account]));
        const rows = sums
          .filter((sum) => sum.opening !== "0" || sum.entries > 0)
          .flatMap((sum) => {
            const account = byId.get(sum.id);
            return account ? [{ account, sum }] : [];
          })
          .sort((a, b) => (a.account.code < b.account.code ? -1 : a.account.code > b.account.code ? 1 : 0));
        const [base] = await tx.$queryRaw<
          { code: string | null }[]
        >`SELECT gl_base_currency(${tenantId}::uuid)::text AS code`;
        const totals = { opening: 0n, debit: 0n, credit: 0n, closing: 0n };
        const out = rows.map(({ account, sum }) => {
          const opening = BigInt(sum.opening);
          const debit = BigInt(sum.debit);
          const credit = BigInt(sum.credit);
          const closing = opening + debit - credit;
          totals.opening += opening;
          totals.debit += debit;
          totals.credit += credit;
          totals.closing += closing;
          return {
            accountId: account.accountId,
            code: account.code,
            nameEn: account.nameEn,
            nameRu: account.nameRu,
            nameUz: account.nameUz,
            type: account.type,
            parentId: account.parentId,
            opening: opening.toString(),
            debit: debit.toString(),
            credit: credit.toString(),
            closing: closing.toString(),
          };
        });
        const leaves = new Map(
          out.map((row) => [
            row.accountId,
            {
              opening: BigInt(row.opening),
              debit: BigInt(row.debit),
              credit: BigInt(row.credit),
              closing: BigInt(row.closing),
            },
          ]),
        );
        const tree = rollUp(chart, leaves, ["opening", "debit", "credit", "closing"] as const).map((row) => ({
          ...row,
          opening: row.opening.toString(),
          debit: row.debit.toString(),
          credit: row.credit.toString(),
          closing: row.closing.toString(),
        }));
        return {
          startDate,
          endDate,
          baseCurrency: base?.code ?? null,
          rows: out,
          tree,
          totals: {
            opening: totals.opening.toString(),
            debit: totals.debit.toString(),
            credit: totals.credit.toString(),
            closing: totals.closing.toString(),
          },
          balanced: totals.opening === 0n && totals.closing === 0n && totals.debit === totals.credit,
        };
      });
    },
  };
};

export type GeneralLedgerService = ReturnType<typeof createGeneralLedgerService>;
