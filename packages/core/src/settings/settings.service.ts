import { audit, type Db, diffFields, violatedForeignKey } from "@hisob/db";
import { AppError, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import { type TTenantSettingsDto, ZUpdateTenantSettingsInput } from "./settings.schema";

type SettingsRow = { baseCurrencyCode: string | null; setupStep: number | null; setupFinished: boolean };

const toDto = (row: SettingsRow | null): TTenantSettingsDto => ({
  baseCurrency: row?.baseCurrencyCode ?? null,
  setup: { step: row?.setupStep ?? null, finished: row?.setupFinished ?? false },
});

const baseError = (reason: string, message: string) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: baseCurrency ${message}`,
    params: { issues: [{ path: "baseCurrency", message }] },
  });

/**
 * The organization's settings (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md): any
 * signed-in user reads them (the dashboard and the forms default to the base currency); whoever chooses
 * the organization's currencies (`currencies:select:all`) changes them, the first-run setup included.
 */
export const createSettingsService = (deps: { db: Db }) => {
  const { db } = deps;
  const select = { baseCurrencyCode: true, setupStep: true, setupFinished: true } as const;
  return {
    get: async (ctx: TenantContext): Promise<TTenantSettingsDto> =>
      db.withTenant(ctx.tenantId, async (tx) =>
        toDto(await tx.tenantSetting.findUnique({ where: { tenantId: ctx.tenantId }, select })),
      ),

    update: async (ctx: TenantContext, raw: unknown): Promise<TTenantSettingsDto> => {
      requirePermission(ctx, "currencies:select:all");
      const input = parseInput(ZUpdateTenantSettingsInput, raw);
      return db.withTenant(ctx.tenantId, async (tx) => {
        const base = input.baseCurrency;
        if (base !== undefined) {
          const known = await tx.currency.count({ where: { code: base, isActive: true } });
          if (known === 0) throw baseError("currency.unknown", `unknown or inactive: ${base}`);
          const selected = await tx.tenantCurrency.count({
            where: { tenantId: ctx.tenantId, currencyCode: base },
          });
          if (selected === 0) {
            throw baseError("currency.base_not_selected", "is not one of the organization's currencies");
          }
          // Journal lines carry amounts in the base currency (docs/decisions/0093-general-ledger.md):
          // another base once something is posted would add two currencies' minor units together.
          const [books] = await tx.$queryRaw<{ base: string | null; posted: boolean }[]>`
            SELECT gl_base_currency(${ctx.tenantId}::uuid)::text AS base,
                   EXISTS (SELECT 1 FROM journal_lines WHERE tenant_id = ${ctx.tenantId}::uuid) AS posted`;
          if (books?.posted && books.base !== base) {
            throw baseError("currency.base_posted", `cannot change: the books are kept in ${books.base}`);
          }
        }
        const before = toDto(
          await tx.tenantSetting.findUnique({ where: { tenantId: ctx.tenantId }, select }),
        );
        const data = {
          ...(base === undefined ? {} : { baseCurrencyCode: base }),
          ...(input.setup?.step === undefined ? {} : { setupStep: input.setup.step }),
          ...(input.setup?.finished === undefined ? {} : { setupFinished: input.setup.finished }),
        };
        const after = toDto(
          await tx.tenantSetting
            .upsert({
              where: { tenantId: ctx.tenantId },
              create: { tenantId: ctx.tenantId, ...data },
              update: data,
              select,
            })
            .catch((error: unknown) => {
              // The currency was deselected by a concurrent request after the check above: the same
              // answer as when it was never selected, not a 500.
              if (violatedForeignKey(error)?.includes("base_currency")) {
                throw baseError("currency.base_not_selected", "is not one of the organization's currencies");
              }
              throw error;
            }),
        );
        await audit(tx, ctx, "tenant_settings", ctx.tenantId, "update", diffFields(before, after));
        return after;
      });
    },
  };
};

export type SettingsService = ReturnType<typeof createSettingsService>;
