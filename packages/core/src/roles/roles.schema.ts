import { ZPagination, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

const ZRoleName = ZRequiredLine(100);
const ZDescription = ZText(1000);
/** Shape only; whether the string is registered (and grantable here) is the service's check. */
const ZPermissionName = z.string().trim().min(1).max(200);
/** Bounded by the size of the registry, with room to grow. */
const ZPermissionList = z.array(ZPermissionName).max(500);

export const ZCreateRoleInput = z
  .object({
    name: ZRoleName,
    description: ZDescription.default(""),
    permissions: ZPermissionList.default([]),
  })
  .strict();
export type TCreateRoleInput = z.input<typeof ZCreateRoleInput>;

export const ZUpdateRoleInput = z
  .object({
    name: ZRoleName.optional(),
    description: ZDescription.optional(),
    /** Replaces the role's whole permission set. */
    permissions: ZPermissionList.optional(),
  })
  .strict();
export type TUpdateRoleInput = z.input<typeof ZUpdateRoleInput>;

export const ZAddRolePermissionsInput = z.object({ permissions: ZPermissionList.min(1) }).strict();
export type TAddRolePermissionsInput = z.input<typeof ZAddRolePermissionsInput>;

export const ROLE_SORT_FIELDS = ["name", "createdAt"] as const;

export const ZListRolesQuery = ZPagination.extend({
  sortBy: z.enum(ROLE_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  /** Substring of the name, case-insensitive. */
  name: ZRequiredLine(100).optional(),
});
export type TListRolesQuery = z.input<typeof ZListRolesQuery>;

export const ZRoleDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    /** Sorted permission strings. */
    permissions: z.array(z.string()),
    /** Users holding the role directly (not through a group). */
    userCount: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Role" });
export type TRoleDto = z.infer<typeof ZRoleDto>;

export const ZRolePermissions = z.array(z.string()).describe("Sorted permission strings");

export const ZPermissionDto = z
  .object({
    name: z.string(),
    resource: z.string(),
    action: z.string(),
    modifier: z.enum(["all", "own"]),
    description: z.string(),
    /** The module that registered it (core, finance, oidc…): the admin screens group by it. */
    module: z.string(),
    /** Grantable only in the platform tenant. */
    platformOnly: z.boolean(),
  })
  .meta({ id: "Permission" });
export type TPermissionDto = z.infer<typeof ZPermissionDto>;
