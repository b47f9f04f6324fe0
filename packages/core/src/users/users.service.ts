import type { Db, Outbox } from "@hisob/db";
import {
  AppError,
  hashPassword,
  type Page,
  parseInput,
  requirePermission,
  requireScope,
  type TenantContext,
} from "@hisob/kernel";
import { raiseSessionDeleted } from "../auth/auth.service";
import { isUniqueViolation } from "../prisma-errors";
import { insertUser } from "./insert-user";
import { usersRepository } from "./users.repository";
import {
  type TListUsersQuery,
  type TUpdateUserInput,
  type TUserDto,
  ZAssignRolesInput,
  ZCreateUserInput,
  ZListUsersQuery,
  ZUpdateUserInput,
} from "./users.schema";

const notFound = () => new AppError("NOT_FOUND", { reason: "user.not_found", message: "User not found" });

/** Fields a user with only `users:update:own` may change on themselves. */
const OWN_EDITABLE = new Set(["firstName", "lastName", "uiLanguage", "avatarUrl"]);

export const createUsersService = (deps: { db: Db; outbox: Outbox }) => {
  const { db } = deps;

  const get = async (ctx: TenantContext, id: string): Promise<TUserDto> => {
    const scope = requireScope(ctx, "users", "read");
    if (scope === "own" && id !== ctx.actor.userId) throw notFound();
    const user = await db.withTenant(ctx.tenantId, (tx) => usersRepository.findDto(tx, ctx.tenantId, id));
    if (!user) throw notFound();
    return user;
  };

  return {
    list: async (ctx: TenantContext, rawQuery: TListUsersQuery): Promise<Page<TUserDto>> => {
      const scope = requireScope(ctx, "users", "read");
      const query = parseInput(ZListUsersQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, (tx) =>
        usersRepository.list(tx, ctx.tenantId, query, scope === "own" ? ctx.actor.userId : undefined),
      );
      return { ...page, limit: query.limit, offset: query.offset };
    },

    get,

    create: async (ctx: TenantContext, raw: unknown): Promise<TUserDto> => {
      requirePermission(ctx, "users:create:all");
      const input = parseInput(ZCreateUserInput, raw);
      const created = await db.withTenant(ctx.tenantId, (tx) =>
        insertUser(tx, deps.outbox, ctx.tenantId, input),
      );
      return get(ctx, created.id);
    },

    update: async (ctx: TenantContext, id: string, raw: TUpdateUserInput | unknown): Promise<TUserDto> => {
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
        await db.withTenant(ctx.tenantId, async (tx) => {
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
          if (input.active === false || passwordHash !== undefined) {
            const sessions = await tx.session.findMany({ where: { tenantId: ctx.tenantId, userId: id } });
            await tx.session.deleteMany({ where: { tenantId: ctx.tenantId, userId: id } });
            for (const session of sessions) await raiseSessionDeleted(deps.outbox, tx, session);
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError("CONFLICT", {
            reason: "user.email_taken",
            message: "A user with this email already exists",
          });
        }
        throw error;
      }
      return get(ctx, id);
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
        const sessions = await tx.session.findMany({ where: { tenantId: ctx.tenantId, userId: id } });
        const deleted = await tx.user.deleteMany({ where: { tenantId: ctx.tenantId, id } });
        if (deleted.count === 0) throw notFound();
        for (const session of sessions) await raiseSessionDeleted(deps.outbox, tx, session);
        await deps.outbox.raise(tx, { type: "UserDeleted", tenantId: ctx.tenantId, payload: { userId: id } });
      });
    },

    assignRoles: async (ctx: TenantContext, id: string, raw: unknown): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      const { roleIds } = parseInput(ZAssignRolesInput, raw);
      await db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        const unique = [...new Set(roleIds)];
        const roles = await tx.role.findMany({
          where: { tenantId: ctx.tenantId, id: { in: unique } },
          select: { id: true },
        });
        if (roles.length !== unique.length) {
          throw new AppError("NOT_FOUND", { reason: "role.not_found", message: "Role not found" });
        }
        await tx.userRole.createMany({
          data: unique.map((roleId) => ({ tenantId: ctx.tenantId, userId: id, roleId })),
          skipDuplicates: true,
        });
      });
      return get(ctx, id);
    },

    unassignRole: async (ctx: TenantContext, id: string, roleId: string): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      await db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        const removed = await tx.userRole.deleteMany({
          where: { tenantId: ctx.tenantId, userId: id, roleId },
        });
        if (removed.count === 0)
          throw new AppError("NOT_FOUND", {
            reason: "user.role_not_assigned",
            message: "The user does not have this role",
          });
      });
      return get(ctx, id);
    },
  };
};

export type UsersService = ReturnType<typeof createUsersService>;
