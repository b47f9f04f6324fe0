import { audit, type Db, diffFields, type Outbox } from "@hisob/db";
import {
  AppError,
  type Clock,
  isPlatformOnlyPermission,
  isRegisteredPermission,
  listPermissions,
  parseInput,
  requirePermission,
  systemClock,
  type TenantContext,
} from "@hisob/kernel";
import { raiseAccessChanged } from "../permissions/access-changed";
import { assertCanGrant } from "../permissions/grant-guard";
import { nameAndDescription, namedRecordReads, rethrowNameTaken } from "../permissions/named-records";
import { ADMIN_ROLE_NAME } from "../tenants/provision-tenant";
import { rolesRepository } from "./roles.repository";
import {
  type TPermissionDto,
  type TRoleDto,
  ZAddRolePermissionsInput,
  ZCreateRoleInput,
  ZListRolesQuery,
  ZUpdateRoleInput,
} from "./roles.schema";

const notFound = () => new AppError("NOT_FOUND", { reason: "role.not_found", message: "Role not found" });

const nameTaken = () =>
  new AppError("CONFLICT", { reason: "role.name_taken", message: "A role with this name already exists" });

const builtin = (what: string) =>
  new AppError("BUSINESS_RULE", {
    reason: "role.builtin",
    message: `The built-in ${ADMIN_ROLE_NAME} role cannot be ${what}`,
  });

const invalidPermissions = (reason: string, problem: string, names: string[]) =>
  new AppError("VALIDATION_ERROR", {
    reason,
    message: `validation error: permissions ${problem}: ${names.join(", ")}`,
    params: {
      issues: [{ path: "permissions", message: `${problem}: ${names.join(", ")}` }],
      permissions: names,
    },
  });

/**
 * The permissions a role in the caller's tenant may hold: registered ones, and platform-only ones
 * only in the platform tenant. Returns them de-duplicated.
 */
const checkGrantable = (ctx: TenantContext, names: readonly string[]): string[] => {
  const unique = [...new Set(names)];
  const unknown = unique.filter((name) => !isRegisteredPermission(name));
  if (unknown.length > 0) throw invalidPermissions("role.unknown_permission", "has unknown values", unknown);
  if (ctx.isPlatformAdmin !== true) {
    const platformOnly = unique.filter(isPlatformOnlyPermission);
    if (platformOnly.length > 0) {
      throw invalidPermissions(
        "role.platform_permission",
        "may be granted only in the platform tenant",
        platformOnly,
      );
    }
  }
  // No one hands out more than they hold (see grant-guard.ts).
  assertCanGrant(ctx, unique);
  return unique;
};

const rethrowConflict = rethrowNameTaken(nameTaken);

export const createRolesService = (deps: { db: Db; outbox: Outbox; clock?: Clock }) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;

  const { list, get, current } = namedRecordReads({
    db,
    read: "roles:read:all",
    listQuery: ZListRolesQuery,
    repository: rolesRepository,
    notFound,
  });

  return {
    list,
    get,

    create: async (ctx: TenantContext, raw: unknown): Promise<TRoleDto> => {
      requirePermission(ctx, "roles:create:all");
      const input = parseInput(ZCreateRoleInput, raw);
      const permissions = checkGrantable(ctx, input.permissions);
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          const role = await tx.role.create({
            data: { tenantId: ctx.tenantId, name: input.name, description: input.description },
            select: { id: true },
          });
          const permissionIds = await rolesRepository.permissionIds(tx, permissions);
          await rolesRepository.grant(tx, ctx.tenantId, role.id, permissionIds);
          const created = await current(tx, ctx.tenantId, role.id);
          await audit(tx, ctx, "role", role.id, "create", { after: created });
          return created;
        })
        .catch(rethrowConflict);
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<TRoleDto> => {
      requirePermission(ctx, "roles:update:all");
      const input = parseInput(ZUpdateRoleInput, raw);
      const permissions =
        input.permissions === undefined ? undefined : checkGrantable(ctx, input.permissions);
      return db
        .withTenant(ctx.tenantId, async (tx) => {
          const name = await rolesRepository.findName(tx, ctx.tenantId, id);
          if (name === null) throw notFound();
          if (name === ADMIN_ROLE_NAME && input.name !== undefined && input.name !== name) {
            throw builtin("renamed");
          }
          // The admin role always holds every permission: changing its set could lock a tenant out.
          if (name === ADMIN_ROLE_NAME && permissions !== undefined) throw builtin("changed");
          const before = await current(tx, ctx.tenantId, id);
          await tx.role.updateMany({
            where: { tenantId: ctx.tenantId, id },
            data: nameAndDescription(input, clock.now()),
          });
          if (permissions !== undefined) {
            const permissionIds = await rolesRepository.permissionIds(tx, permissions);
            await rolesRepository.revokeAll(tx, ctx.tenantId, id);
            await rolesRepository.grant(tx, ctx.tenantId, id, permissionIds);
            await raiseAccessChanged(tx, outbox, ctx.tenantId);
          }
          const after = await current(tx, ctx.tenantId, id);
          await audit(tx, ctx, "role", id, "update", diffFields(before, after));
          return after;
        })
        .catch(rethrowConflict);
    },

    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, "roles:delete:all");
      await db.withTenant(ctx.tenantId, async (tx) => {
        const name = await rolesRepository.findName(tx, ctx.tenantId, id);
        if (name === null) throw notFound();
        if (name === ADMIN_ROLE_NAME) throw builtin("deleted");
        const before = await current(tx, ctx.tenantId, id);
        // Foreign keys cascade: its permissions and its user and group assignments go with it.
        await tx.role.deleteMany({ where: { tenantId: ctx.tenantId, id } });
        await audit(tx, ctx, "role", id, "delete", { before });
        await raiseAccessChanged(tx, outbox, ctx.tenantId);
      });
    },

    listRolePermissions: async (ctx: TenantContext, id: string): Promise<string[]> => {
      requirePermission(ctx, "roles:read:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        if ((await rolesRepository.findName(tx, ctx.tenantId, id)) === null) throw notFound();
        return rolesRepository.permissionsOf(tx, ctx.tenantId, id);
      });
    },

    /** Adds permissions; ones the role already holds are left as they are. Returns the new set. */
    grantPermissions: async (ctx: TenantContext, id: string, raw: unknown): Promise<string[]> => {
      requirePermission(ctx, "roles:update:all");
      const input = parseInput(ZAddRolePermissionsInput, raw);
      const permissions = checkGrantable(ctx, input.permissions);
      return db.withTenant(ctx.tenantId, async (tx) => {
        const name = await rolesRepository.findName(tx, ctx.tenantId, id);
        if (name === null) throw notFound();
        if (name === ADMIN_ROLE_NAME) throw builtin("changed");
        const permissionIds = await rolesRepository.permissionIds(tx, permissions);
        if ((await rolesRepository.grant(tx, ctx.tenantId, id, permissionIds)) > 0) {
          await rolesRepository.touch(tx, ctx.tenantId, id, clock.now());
          await audit(tx, ctx, "role_permission", id, "grant", { after: { permissions } });
          await raiseAccessChanged(tx, outbox, ctx.tenantId);
        }
        return rolesRepository.permissionsOf(tx, ctx.tenantId, id);
      });
    },

    /** Removes one permission; NOT_FOUND when the role does not hold it. Returns the new set. */
    revokePermission: async (ctx: TenantContext, id: string, permission: string): Promise<string[]> => {
      requirePermission(ctx, "roles:update:all");
      return db.withTenant(ctx.tenantId, async (tx) => {
        const name = await rolesRepository.findName(tx, ctx.tenantId, id);
        if (name === null) throw notFound();
        if (name === ADMIN_ROLE_NAME) throw builtin("changed");
        // No registry check: a permission whose module is gone must still be removable.
        if ((await rolesRepository.revoke(tx, ctx.tenantId, id, permission)) === 0) {
          throw new AppError("NOT_FOUND", {
            reason: "role.permission_not_granted",
            message: "The role does not hold this permission",
          });
        }
        await rolesRepository.touch(tx, ctx.tenantId, id, clock.now());
        await audit(tx, ctx, "role_permission", id, "revoke", { before: { permission } });
        await raiseAccessChanged(tx, outbox, ctx.tenantId);
        return rolesRepository.permissionsOf(tx, ctx.tenantId, id);
      });
    },

    /** The registered permissions a role of the caller's tenant may hold, for admin screens. */
    listPermissions: (ctx: TenantContext): TPermissionDto[] => {
      requirePermission(ctx, "roles:read:all");
      return listPermissions()
        .filter((definition) => ctx.isPlatformAdmin === true || !definition.platformOnly)
        .map(({ name, resource, action, modifier, description, platformOnly, module }) => ({
          name,
          module,
          resource,
          action,
          modifier,
          description,
          platformOnly,
        }));
    },
  };
};

export type RolesService = ReturnType<typeof createRolesService>;
