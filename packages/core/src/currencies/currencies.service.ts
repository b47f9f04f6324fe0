import {
  asPlatformEvent,
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  violatedForeignKey,
} from "@hisob/db";
import { AppError, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import {
  type TCurrencyDto,
  ZCreateCurrencyInput,
  ZSelectCurrenciesInput,
  ZUpdateCurrencyInput,
} from "./currencies.schema";

type CurrencyRow = { code: string; name: string; symbol: string; minorUnits: number; isActive: boolean };

const toDto = (row: CurrencyRow): TCurrencyDto => ({
  code: row.code,
  name: row.name,
  symbol: row.symbol,
  minorUnits: row.minorUnits,
  active: row.isActive,
});

const notFound = (code: string) =>
  new AppError("NOT_FOUND", {
    reason: "currency.not_found",
    message: `Currency ${code} not found`,
    params: { code },
  });

const baseInUse = () =>
  new AppError("CONFLICT", {
    reason: "currency.base_in_use",
    message: "The base currency cannot leave the organization's currencies: choose another base first",
  });

/**
 * The global ISO 4217 list (reference data any signed-in user may read; the platform admin
 * manages it) and each tenant's selection, which finance accepts as the only usable currencies.
 */
export const createCurrenciesService = (deps: { db: Db }) => {
  const { db } = deps;
  return {
    listAll: async (_ctx: TenantContext): Promise<TCurrencyDto[]> =>
      (await db.withPlatform((tx) => tx.currency.findMany({ orderBy: { code: "asc" } }))).map(toDto),

    create: async (ctx: TenantContext, raw: unknown): Promise<TCurrencyDto> => {
      requirePermission(ctx, "currencies:create:all");
      const input = parseInput(ZCreateCurrencyInput, raw);
      try {
        return await db.withPlatform(async (tx) => {
          const created = toDto(await tx.currency.create({ data: input }));
          await audit(tx, asPlatformEvent(ctx), "currency", created.code, "create", { after: created });
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError("CONFLICT", {
            reason: "currency.exists",
            message: `Currency ${input.code} already exists`,
          });
        }
        throw error;
      }
    },

    update: async (ctx: TenantContext, code: string, raw: unknown): Promise<TCurrencyDto> => {
      requirePermission(ctx, "currencies:update:all");
      const input = parseInput(ZUpdateCurrencyInput, raw);
      return db.withPlatform(async (tx) => {
        const found = await tx.currency.findUnique({ where: { code } });
        if (!found) throw notFound(code);
        const updated = toDto(
          await tx.currency.update({
            where: { code },
            data: {
              ...(input.name === undefined ? {} : { name: input.name }),
              ...(input.symbol === undefined ? {} : { symbol: input.symbol }),
              ...(input.active === undefined ? {} : { isActive: input.active }),
            },
          }),
        );
        await audit(tx, asPlatformEvent(ctx), "currency", code, "update", diffFields(toDto(found), updated));
        return updated;
      });
    },

    /** The caller's tenant's currencies (any signed-in user: finance screens need them). */
    listSelected: async (ctx: TenantContext): Promise<TCurrencyDto[]> =>
      db.withTenant(ctx.tenantId, async (tx) => {
        const rows = await tx.tenantCurrency.findMany({
          where: { tenantId: ctx.tenantId },
          select: { currency: true },
          orderBy: { currencyCode: "asc" },
        });
        return rows.map((row) => toDto(row.currency));
      }),

    /** Replaces the tenant's selection; every code must be an active currency of the global list. */
    setSelected: async (ctx: TenantContext, raw: unknown): Promise<TCurrencyDto[]> => {
      requirePermission(ctx, "currencies:select:all");
      const codes = [...new Set(parseInput(ZSelectCurrenciesInput, raw).codes)];
      return db.withTenant(ctx.tenantId, async (tx) => {
        const known = await tx.currency.findMany({ where: { code: { in: codes }, isActive: true } });
        const missing = codes.filter((code) => !known.some((currency) => currency.code === code));
        if (missing.length > 0) {
          throw new AppError("VALIDATION_ERROR", {
            reason: "currency.unknown",
            message: `validation error: codes has unknown or inactive currencies: ${missing.join(", ")}`,
            params: { issues: [{ path: "codes", message: `unknown or inactive: ${missing.join(", ")}` }] },
          });
        }
        const before = await tx.tenantCurrency.findMany({
          where: { tenantId: ctx.tenantId },
          orderBy: { currencyCode: "asc" },
        });
        // The base currency stays among the organization's currencies (the database refuses it too).
        const settings = await tx.tenantSetting.findUnique({
          where: { tenantId: ctx.tenantId },
          select: { baseCurrencyCode: true },
        });
        if (settings?.baseCurrencyCode && !codes.includes(settings.baseCurrencyCode)) throw baseInUse();
        // Money accounts reference their currency's selection: the database refuses to drop one in use.
        await tx.tenantCurrency
          .deleteMany({ where: { tenantId: ctx.tenantId, currencyCode: { notIn: codes } } })
          .catch((error: unknown) => {
            const constraint = violatedForeignKey(error);
            if (constraint?.includes("tenant_settings_base_currency")) throw baseInUse();
            if (constraint !== null) {
              throw new AppError("CONFLICT", {
                reason: "currency.in_use",
                message:
                  "A currency that money accounts, debts or inventory items use cannot be removed from the organization's currencies",
              });
            }
            throw error;
          });
        await tx.tenantCurrency.createMany({
          data: codes.map((currencyCode) => ({ tenantId: ctx.tenantId, currencyCode })),
          skipDuplicates: true,
        });
        await audit(
          tx,
          ctx,
          "tenant_currencies",
          ctx.tenantId,
          "select",
          diffFields({ codes: before.map((row) => row.currencyCode) }, { codes: [...codes].sort() }),
        );
        return known.sort((a, b) => a.code.localeCompare(b.code)).map(toDto);
      });
    },
  };
};

export type CurrenciesService = ReturnType<typeof createCurrenciesService>;
