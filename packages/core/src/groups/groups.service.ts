import { audit, type Db, diffFields, type Outbox, type Tx } from "@hisob/db";
import {
  AppError,
  type Clock,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { raiseAccessChanged } from "../permissions/access-changed";
import { assertCanGrant, permissionsGrantedBy } from "../permissions/grant-guard";
import { nameAndDescription, namedRecordReads, rethrowNameTaken } from "../permissions/named-records";
import { groupsRepository } from "./groups.repository";
import {
  type TGroupDto,
  ZAddGroupUsersInput,
  ZCreateGroupInput,
  ZListGroupsQuery,
  ZUpdateGroupInput,
} from "./groups.schema";

const notFound = () => new AppError("NOT_FOUND", { reason: "group.not_found", message: "Group not found" });

const rethrowConflict = rethrowNameTaken(
  () =>
    new AppError("CONFLICT", {
      reason: "group.name_taken",
      message: "A group with this name already exists",
    }),
);

// Ids in a body that name nothing in the tenant are bad input, as in insertUser.
const unknownIds = (field: string, reason: string, ids: string[]) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: ${field} has unknown values: ${ids.join(", ")}`,
    params: { issues: [{ path: field, message: `unknown: ${ids.join(", ")}` }] },
  });

const requireRoles = async (tx: Tx, tenantId: string, roleIds: readonly string[]) => {
  const missing = await groupsRepository.missingRoles(tx, tenantId, roleIds);
  if (missing.length > 0) throw unknownIds("roleIds", "group.unknown_role", missing);
};

const requireUsers = async (tx: Tx, tenantId: string, userIds: readonly string[]) => {
  const missing = await groupsRepository.missingUsers(tx, tenantId, userIds);
  if (missing.length > 0) throw unknownIds("userIds", "group.unknown_user", missing);
};

export const createGroupsService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const { list, get, current } = namedRecordReads({
    db,
    read: "groups:read:all",
    listQuery: ZListGroupsQuery,
    repository: groupsRepository,
    notFound,
  });

  return {
    list,
    get,

    create: async (ctx: TenantContext, raw: unknown): Promise<TGroupDto> => {
      requirePermission(ctx, "groups:create:all");
      const input = parseInput(ZCreateGroupInput, raw);
      const roleIds = [...new Set(input.roleIds)];
      const userIds = [...new Set(input.userIds)];
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          await requireRoles(tx, ctx.tenantId, roleIds);
          await requireUsers(tx, ctx.tenantId, userIds);
          assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { roleIds }));
          const group = await tx.group.create({
            data: { tenantId: ctx.tenantId, name: input.name, description: input.description },
            select: { id: true },
          });
          await groupsRepository.addRoles(tx, ctx.tenantId, group.id, roleIds);
          await groupsRepository.addUsers(tx, ctx.tenantId, group.id, userIds);
          if (userIds.length > 0 && roleIds.length > 0)
            await raiseAccessChanged(tx, outbox, ctx.tenantId, userIds);
          const created = await current(tx, ctx.tenantId, group.id);
          await audit(tx, ctx, "group", group.id, "create", { after: created });
          return created;
        })
        .catch(rethrowConflict);
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TGroupDto> => {
      requirePermission(ctx, "groups:update:all");
      const input = parseInput(ZUpdateGroupInput, raw);
      const roleIds = input.roleIds === undefined ? undefined : [...new Set(input.roleIds)];
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          // The path id first: an unknown group is 404 even when the body is also wrong.
          if (!(await groupsRepository.exists(tx, ctx.tenantId, id))) throw notFound();
          if (roleIds !== undefined) {
            await requireRoles(tx, ctx.tenantId, roleIds);
            assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { roleIds }));
          }
          const before = await current(tx, ctx.tenantId, id);
          await tx.group.updateMany({
            where: { tenantId: ctx.tenantId, id },
            data: nameAndDescription(input, clock.now()),
          });
          if (roleIds !== undefined) {
            await groupsRepository.removeAllRoles(tx, ctx.tenantId, id);
            await groupsRepository.addRoles(tx, ctx.tenantId, id, roleIds);
            await raiseAccessChanged(tx, outbox, ctx.tenantId);
          }
          const after = await current(tx, ctx.tenantId, id);
          await audit(tx, ctx, "group", id, "update", diffFields(before, after));
          return after;
        })
        .catch(rethrowConflict);
    },

    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "groups:delete:all");
      await db.withTenant(ctx.tenantId, async (tx) => {
        const before = await current(tx, ctx.tenantId, id);
        // Foreign keys cascade: memberships and role grants go with the group.
        await tx.group.deleteMany({ where: { tenantId: ctx.tenantId, id } });
        await audit(tx, ctx, "group", id, "delete", { before });
        await raiseAccessChanged(tx, outbox, ctx.tenantId);
      });
    },

    /** Adds users; ones already in the group are left as they are. */
    addUsers: async (ctx: TenantContext, id: string, raw: unknown): Promise<TGroupDto> => {
      requirePermission(ctx, "groups:update:all");
      const userIds = [...new Set(parseInput(ZAddGroupUsersInput, raw).userIds)];
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await groupsRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        await requireUsers(tx, ctx.tenantId, userIds);
        // Joining a group grants its roles: the caller must hold what they carry.
        assertCanGrant(ctx, await permissionsGrantedBy(tx, ctx.tenantId, { groupIds: [id] }));
        if ((await groupsRepository.addUsers(tx, ctx.tenantId, id, userIds)) > 0) {
          await groupsRepository.touch(tx, ctx.tenantId, id, clock.now());
          await audit(tx, ctx, "group_member", id, "add", { after: { userIds } });
          await raiseAccessChanged(tx, outbox, ctx.tenantId, userIds);
        }
        return current(tx, ctx.tenantId, id);
      });
    },

    removeUser: async (ctx: TenantContext, id: string, userId: string): Promise<TGroupDto> => {
      requirePermission(ctx, "groups:update:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        if (!(await groupsRepository.exists(tx, ctx.tenantId, id))) throw notFound();
        if ((await groupsRepository.removeUser(tx, ctx.tenantId, id, userId)) === 0) {
          throw new AppError("NOT_FOUND", {
            reason: "group.user_not_member",
            message: "The user is not a member of this group",
          });
        }
        await groupsRepository.touch(tx, ctx.tenantId, id, clock.now());
        await audit(tx, ctx, "group_member", id, "remove", { before: { userId } });
        await raiseAccessChanged(tx, outbox, ctx.tenantId, [userId]);
        return current(tx, ctx.tenantId, id);
      });
    },
  };
};

export type GroupsService = ReturnType<typeof createGroupsService>;
