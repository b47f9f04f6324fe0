import { type Db, isUniqueViolation, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  hashPassword,
  type Page,
  parseFilters,
  parseInput,
  parseSort,
  requirePermission,
  requireScope,
  type TenantContext,
} from "@hisob/kernel";
import { raiseSessionDeleted } from "../auth/auth.service";
import { assertCanGrant, permissionsGrantedBy } from "../permissions/grant-guard";
import { insertUser } from "./insert-user";
import { createUsersExport } from "./users.export";
import { usersRepository } from "./users.repository";
import {
  type TListUsersQuery,
  type TUserDto,
  type TUserListing,
  USER_FILTERS,
  USER_SORT_FIELDS,
  ZAssignRolesInput,
  ZCreateUserInput,
  ZListUsersQuery,
  ZUpdateUserInput,
} from "./users.schema";

const notFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });
const emailTaken = () =>
  new AppError("CONFLICT", { reason: "user.email_taken", message: "A user with this email already exists" });

/** Fields a user with only `users:update:own` may change on themselves. */
const OWN_EDITABLE = new Set(["firstName", "lastName", "uiLanguage", "avatarUrl"]);

/** The DTO from inside the changing transaction: a change needs no read permission to answer. */
const loadDto = async (tx: Tx, tenantId: string, id: string): Promise<TUserDto> => {
  const user = await usersRepository.findDto(tx, tenantId, id);
  if (!user) throw notFound();
  return user;
};

/** Ends every session of a user (deactivation, deletion, password reset), announcing each. */
const endSessions = async (tx: Tx, outbox: Outbox, tenantId: string, userId: string) => {
  const sessions = await tx.session.findMany({ where: { tenantId, userId } });
  await tx.session.deleteMany({ where: { tenantId, userId } });
  for (const session of sessions) await raiseSessionDeleted(outbox, tx, session);
};

export const createUsersService = (deps: { db: Db; outbox: Outbox }) => {
  const { db, outbox } = deps;

  return {
    /** The list as .xlsx: same query as `list`, checked before the first byte is written. */
    prepareExport: createUsersExport({ db }).prepare,

    /** `listing` adds the generic filters and multi-field sort (GraphQL); REST uses the query's own. */
    list: async (
      ctx: TenantContext,
      rawQuery: TListUsersQuery,
      listing: TUserListing = {},
    ): Promise<Page<TUserDto>> => {
      const scope = requireScope(ctx, "users", "read");
      const query = parseInput(ZListUsersQuery, rawQuery);
      const filters = parseFilters(USER_FILTERS, listing.filters);
      const sort = parseSort(USER_SORT_FIELDS, listing.sortBy, query.order);
      const page = await db.withTenant(ctx.tenantId, (tx) =>
        usersRepository.list(tx, ctx.tenantId, query, scope === "own" ? ctx.actor.userId : undefined, {
          filters,
          sort,
        }),
      );
      return { ...page, limit: query.limit, offset: query.offset };
    },

    get: async (ctx: TenantContext, id: string): Promise<TUserDto> => {
      const scope = requireScope(ctx, "users", "read");
      if (scope === "own" && id !== ctx.actor.userId) throw notFound();
      return db.withTenant(ctx.tenantId, (tx) => loadDto(tx, ctx.tenantId, id));
    },

    create: async (ctx: TenantContext, raw: unknown): Promise<TUserDto> => {
      requirePermission(ctx, "users:create:all");
      const input = parseInput(ZCreateUserInput, raw);
      return db.withTenant(ctx.tenantId, async (tx) => {
        assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, input));
        const created = await insertUser(tx, outbox, ctx.tenantId, input);
        return loadDto(tx, ctx.tenantId, created.id);
      });
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TUserDto> => {
      const scope = requireScope(ctx, "users", "update");
      const input = parseInput(ZUpdateUserInput, raw);
      if (scope === "own") {
        if (id !== ctx.actor.userId) throw notFound();
        const forbidden = Object.keys(input).filter((key) => !OWN_EDITABLE.has(key));
        if (forbidden.length > 0) {
          throw new AppError("FORBIDDEN", {
            reason: "user.fields_need_update_all",
            params: { fields: forbidden },
          });
        }
      }
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          const updated = await tx.user.updateMany({
            where: { tenantId: ctx.tenantId, id },
            data: {
              ...(input.email === undefined ? {} : { email: input.email }),
              ...(input.firstName === undefined ? {} : { firstName: input.firstName }),
              ...(input.lastName === undefined ? {} : { lastName: input.lastName }),
              ...(input.uiLanguage === undefined ? {} : { uiLanguage: input.uiLanguage }),
              ...(input.active === undefined ? {} : { isActive: input.active }),
              ...(input.avatarUrl === undefined ? {} : { avatarUrl: input.avatarUrl }),
              ...(passwordHash === undefined ? {} : { passwordHash }),
            },
          });
          if (updated.count === 0) throw notFound();
          // Deactivation or a password reset ends the user's sessions at once.
          if (input.active === false || passwordHash !== undefined)
            await endSessions(tx, outbox, ctx.tenantId, id);
          return loadDto(tx, ctx.tenantId, id);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "users:delete:all");
      if (id === ctx.actor.userId) {
        throw new AppError("BUSINESS_RULE", {
          reason: "user.cannot_delete_self",
          message: "You cannot delete yourself",
        });
      }
      await db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        await endSessions(tx, outbox, ctx.tenantId, id);
        await tx.user.deleteMany({ where: { tenantId: ctx.tenantId, id } });
        await outbox.raise(tx, { type: "UserDeleted", tenantId: ctx.tenantId, payload: { userId: id } });
      });
    },

    assignRoles: async (ctx: TenantContext, id: string, raw: unknown): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      const roleIds = [...new Set(parseInput(ZAssignRolesInput, raw).roleIds)];
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        const roles = await tx.role.findMany({
          where: { tenantId: ctx.tenantId, id: { in: roleIds } },
          select: { id: true },
        });
        const missing = roleIds.filter((roleId) => !roles.some((role) => role.id === roleId));
        if (missing.length > 0) {
          // The same answer as creating a user with an unknown role: ids in a body are input, not paths.
          throw new AppError("VALIDATION_ERROR", {
            reason: "user.unknown_role",
            message: `validation error: roleIds has unknown values: ${missing.join(", ")}`,
            params: { issues: [{ path: "roleIds", message: `unknown: ${missing.join(", ")}` }] },
          });
        }
        assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { roleIds }));
        await tx.userRole.createMany({
          data: roleIds.map((roleId) => ({ tenantId: ctx.tenantId, userId: id, roleId })),
          skipDuplicates: true,
        });
        return loadDto(tx, ctx.tenantId, id);
      });
    },

    unassignRole: async (ctx: TenantContext, id: string, roleId: string): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        const removed = await tx.userRole.deleteMany({
          where: { tenantId: ctx.tenantId, userId: id, roleId },
        });
        if (removed.count === 0) {
          throw new AppError("NOT_FOUND", {
            reason: "user.role_not_assigned",
            message: "The user does not have this role",
          });
        }
        return loadDto(tx, ctx.tenantId, id);
      });
    },
  };
};

export type UsersService = ReturnType<typeof createUsersService>;
