import {
  asPlatformEvent,
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  type Outbox,
  type Prisma,
} from "@hisob/db";
import {
  AppError,
  containsText,
  type Page,
  parseInput,
  requirePermission,
  type TenantContext,
  ZId,
} from "@hisob/kernel";
import type { z } from "zod";
import { endAllSessions } from "../sessions/end-sessions";
import { insertUser } from "../users/insert-user";
import { provisionTenant } from "./provision-tenant";
import { type TTenantDto, ZCreateTenantInput, ZListTenantsQuery, ZUpdateTenantInput } from "./tenants.schema";

const TENANT_SELECT = {
  id: true,
  name: true,
  domain: true,
  isActive: true,
  isPlatform: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.TenantSelect;

const toDto = (row: Prisma.TenantGetPayload<{ select: typeof TENANT_SELECT }>): TTenantDto => ({
  id: row.id,
  name: row.name,
  domain: row.domain,
  active: row.isActive,
  isPlatform: row.isPlatform,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const notFound = () => new AppError("NOT_FOUND", { reason: "tenant.not_found", message: "Tenant not found" });
const domainTaken = () =>
  new AppError("CONFLICT", {
    reason: "tenant.domain_taken",
    message: "Another tenant already uses this domain",
  });

/**
 * Tenants, managed by the platform admin (tenants:*:all, held only in the platform tenant). Runs
 * as the platform role, which may read and update every tenant row but no tenant-owned data.
 */
export const createTenantsService = (deps: { db: Db; outbox: Outbox }) => {
  const { db } = deps;
  const get = async (ctx: TenantContext, id: string): Promise<TTenantDto> => {
    requirePermission(ctx, "tenants:read:all");
    const row = await db.withPlatform((tx) => tx.tenant.findUnique({ where: { id }, select: TENANT_SELECT }));
    if (!row) throw notFound();
    return toDto(row);
  };

  return {
    list: async (ctx: TenantContext, raw: z.input<typeof ZListTenantsQuery>): Promise<Page<TTenantDto>> => {
      requirePermission(ctx, "tenants:read:all");
      const query = parseInput(ZListTenantsQuery, raw);
      const where: Prisma.TenantWhereInput = {
        ...(query.name ? { name: containsText(query.name) } : {}),
        ...(query.active === undefined ? {} : { isActive: query.active }),
      };
      const [rows, total] = await db.withPlatform((tx) =>
        Promise.all([
          tx.tenant.findMany({
            where,
            select: TENANT_SELECT,
            orderBy: [{ [query.sortBy]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.tenant.count({ where }),
        ]),
      );
      return { items: rows.map(toDto), total, limit: query.limit, offset: query.offset };
    },

    get,

    create: async (ctx: TenantContext, raw: unknown): Promise<TTenantDto> => {
      requirePermission(ctx, "tenants:create:all");
      const { admin, ...input } = parseInput(ZCreateTenantInput, raw);
      const tenant = await provisionTenant(deps, input, async (tx, created) => {
        // The first administrator commits or fails with the tenant: never a tenant no one can run.
        const firstAdmin = admin
          ? await insertUser(tx, deps.outbox, created.id, { ...admin, roleIds: [created.adminRoleId] })
          : null;
        await audit(tx, asPlatformEvent(ctx), "tenant", created.id, "create", {
          after: {
            ...input,
            name: created.name,
            ...(firstAdmin ? { admin: { id: firstAdmin.id, email: firstAdmin.email } } : {}),
          },
        });
        if (firstAdmin) {
          // The new tenant's own log shows who made its administrator.
          await audit(tx, { ...ctx, tenantId: created.id }, "user", firstAdmin.id, "create", {
            after: {
              email: firstAdmin.email,
              firstName: firstAdmin.firstName,
              lastName: firstAdmin.lastName,
              roles: firstAdmin.roles,
              passwordSet: admin?.password !== undefined,
            },
          });
        }
      });
      return get(ctx, tenant.id);
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TTenantDto> => {
      requirePermission(ctx, "tenants:update:all");
      const input = parseInput(ZUpdateTenantInput, raw);
      if (!ZId.safeParse(id).success) throw notFound();
      try {
        // One transaction in the tenant (whose role may update its own tenant row, as provisioning
        // inserts it): the change, its audit entry and — on deactivation — every session ended, each
        // with SessionDeleted, and TenantDeactivated commit together or not at all.
        await db.withTenant(id, async (tx) => {
          const current = await tx.tenant.findUnique({
            where: { id },
            select: { isPlatform: true, isActive: true, name: true, domain: true },
          });
          if (!current) throw notFound();
          if (current.isPlatform && input.active === false) {
            throw new AppError("BUSINESS_RULE", {
              reason: "tenant.platform_cannot_deactivate",
              message: "The platform tenant cannot be deactivated",
            });
          }
          const after = await tx.tenant.update({
            where: { id },
            data: {
              ...(input.name === undefined ? {} : { name: input.name }),
              ...(input.domain === undefined ? {} : { domain: input.domain }),
              ...(input.active === undefined ? {} : { isActive: input.active }),
            },
            select: { isPlatform: true, isActive: true, name: true, domain: true },
          });
          await audit(tx, asPlatformEvent(ctx), "tenant", id, "update", diffFields(current, after));
          if (input.active === false) {
            // Sessions already stop working (context checks the tenant); ended as a user's deactivation
            // ends them, so their owners hear `sessionDeleted` and the sockets opened with them close
            // (4401) on every instance. TenantDeactivated makes every socket of the organization resolve
            // its caller again (docs/decisions/0011-graphql-socket-authorization.md).
            await endAllSessions(tx, deps.outbox, id);
            await deps.outbox.raise(tx, {
              type: "TenantDeactivated",
              tenantId: id,
              payload: { tenantId: id },
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw domainTaken();
        throw error;
      }
      return get(ctx, id);
    },
  };
};

export type TenantsService = ReturnType<typeof createTenantsService>;
