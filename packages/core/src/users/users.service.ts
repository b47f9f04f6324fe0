import {
  type AuditChange,
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  type Outbox,
  type Tx,
} from "@hisob/db";
import {
  AppError,
  hashPassword,
  isAppError,
  type Page,
  parseFilters,
  parseInput,
  parseSort,
  requirePermission,
  requireScope,
  type TenantContext,
} from "@hisob/kernel";
import type { AttemptBudget } from "../auth/attempt-budget";
import { raiseAccessChanged } from "../permissions/access-changed";
import { loadEffectivePermissions } from "../permissions/effective-permissions";
import { assertCanGrant, holds, permissionsGrantedBy } from "../permissions/grant-guard";
import { endSessionsWhere, type SessionEndReason } from "../sessions/end-sessions";
import { assertAvatarIsOwnUpload } from "./avatar";
import { insertUser, unknownValues } from "./insert-user";
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
  ZSetUserGroupsInput,
  ZUpdateUserInput,
} from "./users.schema";

/** Marks a password change in an audit diff without recording anything about the password. */
const withPasswordFlag = (change: AuditChange, passwordHash: string | undefined): AuditChange =>
  passwordHash === undefined
    ? change
    : { before: change.before ?? {}, after: { ...change.after, passwordChanged: true } };

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

/** Ends every session of a user (deactivation, deletion, password or email change), announcing each. */
const endSessions = (tx: Tx, outbox: Outbox, tenantId: string, userId: string, reason: SessionEndReason) =>
  endSessionsWhere(tx, outbox, tenantId, { userId }, reason);

/** Changes to another user that could take their account over or lock them out. */
const CREDENTIAL_FIELDS = ["password", "email", "active"] as const;

/**
 * No one acts on the credentials of a user who holds more than they do: changing another user's
 * password, email or active flag, deleting them or taking a role from them needs every permission
 * that user holds (the rule "no one grants more than they hold", applied to the user acted on).
 * Otherwise `users:update:all` alone could reset an administrator's password and sign in as them.
 */
const assertDoesNotOutrank = async (tx: Tx, ctx: TenantContext, userId: string): Promise<void> => {
  const held = (await loadEffectivePermissions(tx, ctx.tenantId, [userId])).get(userId) ?? [];
  const missing = held.filter((name) => !holds(ctx, name));
  if (missing.length > 0) {
    throw new AppError("FORBIDDEN", {
      reason: "user.outranks_you",
      message: "This user holds permissions you do not hold; only someone who holds them all can do this",
      params: { permissions: missing },
    });
  }
};

export const createUsersService = (deps: {
  db: Db;
  outbox: Outbox;
  /** "Email taken" answers per caller: emails are unique platform-wide, so each answer tells something. */
  emailTakenBudget: AttemptBudget;
}) => {
  const { db, outbox, emailTakenBudget } = deps;

  /**
   * Runs a write that may answer "email taken" within the caller's budget of such answers: the
   * attempt is reserved before the write (parallel probes cannot outrun the budget), kept when the
   * answer tells that the email exists, and given back otherwise. Writes in flight only hold their
   * place: parallel writes with fresh emails wait for each other, none is refused (attempt-budget.ts).
   */
  const withEmailCheck = async <T>(
    ctx: TenantContext,
    email: string | undefined,
    write: () => Promise<T>,
  ) => {
    if (email === undefined) return write();
    const reservation = await emailTakenBudget.reserve(`${ctx.tenantId}|${ctx.actor.userId}`);
    if (!reservation.ok) {
      throw new AppError("RATE_LIMITED", {
        reason: "user.too_many_email_checks",
        message: "Too many attempts with emails that are already in use; try again later",
        params: { retryAfterSeconds: reservation.retryAfterSeconds },
      });
    }
    try {
      const result = await write();
      await reservation.release();
      return result;
    } catch (error) {
      const taken = isUniqueViolation(error) || (isAppError(error) && error.reason === "user.email_taken");
      if (!taken) {
        await reservation.release();
        throw error;
      }
      // This answer tells the caller the email exists: it counts.
      await reservation.keep();
      throw isUniqueViolation(error) ? emailTaken() : error;
    }
  };

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
      return withEmailCheck(ctx, input.email, () =>
        db.withTenant(ctx.tenantId, async (tx) => {
          assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, input));
          const created = await insertUser(tx, outbox, ctx.tenantId, input);
          const dto = await loadDto(tx, ctx.tenantId, created.id);
          await audit(tx, ctx, "user", created.id, "create", { after: dto });
          return dto;
        }),
      );
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
      const isSelf = id === ctx.actor.userId;
      if (isSelf && input.password !== undefined) {
        // One's own password changes only with the current one (PUT /account): a stolen session is not enough.
        throw new AppError("FORBIDDEN", {
          reason: "user.own_password_needs_current",
          message: "Change your own password in your account, with your current password",
        });
      }
      const changesCredentials = CREDENTIAL_FIELDS.some((field) => input[field] !== undefined);
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      return withEmailCheck(ctx, input.email, () =>
        db.withTenant(ctx.tenantId, async (tx) => {
          if (!isSelf && changesCredentials) {
            if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
            await assertDoesNotOutrank(tx, ctx, id);
          }
          await assertAvatarIsOwnUpload(tx, ctx.tenantId, input.avatarUrl);
          const before = await usersRepository.findDto(tx, ctx.tenantId, id);
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
          // Deactivation, a password reset or a new email ends the user's sessions at once
          // (one's own email change keeps the session that made it).
          if (input.active === false || passwordHash !== undefined || (input.email !== undefined && !isSelf))
            await endSessions(
              tx,
              outbox,
              ctx.tenantId,
              id,
              isSelf ? "credentials_changed" : "ended_by_admin",
            );
          // Sockets opened with a token that outlives sessions (an OIDC access token) re-check too.
          if (input.active !== undefined) await raiseAccessChanged(tx, outbox, ctx.tenantId, [id]);
          const after = await loadDto(tx, ctx.tenantId, id);
          // A new password shows as `passwordChanged` only: the hash never reaches the log.
          await audit(
            tx,
            ctx,
            "user",
            id,
            "update",
            withPasswordFlag(diffFields(before, after), passwordHash),
          );
          return after;
        }),
      );
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
        await assertDoesNotOutrank(tx, ctx, id);
        const before = await usersRepository.findDto(tx, ctx.tenantId, id);
        await endSessions(tx, outbox, ctx.tenantId, id, "ended_by_admin");
        await audit(tx, ctx, "user", id, "delete", { before });
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
        // The same answer as creating a user with an unknown role.
        if (missing.length > 0) throw unknownValues("roleIds", "user.unknown_role", missing);
        assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { roleIds }));
        await tx.userRole.createMany({
          data: roleIds.map((roleId) => ({ tenantId: ctx.tenantId, userId: id, roleId })),
          skipDuplicates: true,
        });
        await audit(tx, ctx, "user_role", id, "assign", { after: { roleIds } });
        await raiseAccessChanged(tx, outbox, ctx.tenantId, [id]);
        return loadDto(tx, ctx.tenantId, id);
      });
    },

    /**
     * Replaces the user's group memberships in one transaction. Joining a group grants its roles (the
     * caller must hold what they carry); leaving one may lock the user out (the caller must not be
     * outranked by them), the same rules as assigning and unassigning roles.
     */
    setGroups: async (ctx: TenantContext, id: string, raw: unknown): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      requirePermission(ctx, "groups:update:all");
      const groupIds = [...new Set(parseInput(ZSetUserGroupsInput, raw).groupIds)].sort();
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        const found = groupIds.length
          ? await tx.group.findMany({
              where: { tenantId: ctx.tenantId, id: { in: groupIds } },
              select: { id: true },
            })
          : [];
        const missing = groupIds.filter((groupId) => !found.some((group) => group.id === groupId));
        if (missing.length > 0) throw unknownValues("groupIds", "user.unknown_group", missing);
        const current = (
          await tx.groupUser.findMany({
            where: { tenantId: ctx.tenantId, userId: id },
            select: { groupId: true },
          })
        )
          .map((row) => row.groupId)
          .sort();
        const added = groupIds.filter((groupId) => !current.includes(groupId));
        const removed = current.filter((groupId) => !groupIds.includes(groupId));
        if (added.length > 0) {
          assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { groupIds: added }));
        }
        if (removed.length > 0 && id !== ctx.actor.userId) await assertDoesNotOutrank(tx, ctx, id);
        if (added.length + removed.length > 0) {
          await tx.groupUser.deleteMany({
            where: { tenantId: ctx.tenantId, userId: id, groupId: { in: removed } },
          });
          await tx.groupUser.createMany({
            data: added.map((groupId) => ({ tenantId: ctx.tenantId, userId: id, groupId })),
          });
          await audit(tx, ctx, "user_group", id, "set", {
            before: { groupIds: current },
            after: { groupIds },
          });
          await raiseAccessChanged(tx, outbox, ctx.tenantId, [id]);
        }
        return loadDto(tx, ctx.tenantId, id);
      });
    },

    unassignRole: async (ctx: TenantContext, id: string, roleId: string): Promise<TUserDto> => {
      requirePermission(ctx, "users:update:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await usersRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        if (id !== ctx.actor.userId) await assertDoesNotOutrank(tx, ctx, id);
        const removed = await tx.userRole.deleteMany({
          where: { tenantId: ctx.tenantId, userId: id, roleId },
        });
        if (removed.count === 0) {
          throw new AppError("NOT_FOUND", {
            reason: "user.role_not_assigned",
            message: "The user does not have this role",
          });
        }
        await audit(tx, ctx, "user_role", id, "unassign", { before: { roleId } });
        await raiseAccessChanged(tx, outbox, ctx.tenantId, [id]);
        return loadDto(tx, ctx.tenantId, id);
      });
    },
  };
};

export type UsersService = ReturnType<typeof createUsersService>;
