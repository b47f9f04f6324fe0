import { z } from "zod";
import { crudOperations, op } from "../operations";
import {
  ZAddRolePermissionsInput,
  ZCreateRoleInput,
  ZListRolesQuery,
  ZPermissionDto,
  ZRoleDto,
  ZRolePermissions,
  ZUpdateRoleInput,
} from "./roles.schema";

const tag = "roles";

/** Roles of the caller's tenant, their permissions, and the catalogue of grantable permissions. */
export const rolesOperations = {
  ...crudOperations({
    path: "/roles",
    tag,
    service: (services) => services.roles,
    schemas: {
      list: ZListRolesQuery,
      listItem: ZRoleDto,
      create: ZCreateRoleInput,
      update: ZUpdateRoleInput,
      item: ZRoleDto,
    },
    access: {
      list: "roles:read:all",
      get: "roles:read:all",
      create: "roles:create:all",
      update: "roles:update:all",
      delete: "roles:delete:all",
    },
    summaries: {
      list: "List roles",
      get: "Get a role",
      create: "Create a role",
      update: "Update a role; `permissions` replaces the whole set",
      delete: "Delete a role and its assignments",
    },
  }),
  permissions: op.query({
    http: { method: "GET", path: "/roles/:id/permissions", status: 200 },
    input: z.object({ id: z.uuid() }),
    output: ZRolePermissions,
    access: { requires: ["roles:read:all"] },
    summary: "A role's permissions, sorted",
    tag,
    call: (services, ctx, input) => services.roles.listRolePermissions(ctx, input.id),
  }),
  grantPermissions: op.mutation({
    http: { method: "POST", path: "/roles/:id/permissions", status: 200, rest: "data" },
    input: z.object({ id: z.uuid(), data: ZAddRolePermissionsInput }),
    output: ZRolePermissions,
    access: { requires: ["roles:update:all"] },
    summary: "Add permissions to a role; idempotent; returns the new set",
    tag,
    call: (services, ctx, input) => services.roles.grantPermissions(ctx, input.id, input.data),
  }),
  revokePermission: op.mutation({
    http: { method: "DELETE", path: "/roles/:id/permissions/:permission", status: 200 },
    input: z.object({ id: z.uuid(), permission: z.string().min(1).max(200) }),
    output: ZRolePermissions,
    access: { requires: ["roles:update:all"] },
    summary: "Remove one permission from a role; returns the new set",
    tag,
    call: (services, ctx, input) => services.roles.revokePermission(ctx, input.id, input.permission),
  }),
  grantable: op.query({
    http: { method: "GET", path: "/permissions", status: 200 },
    output: z.array(ZPermissionDto),
    access: { requires: ["roles:read:all"] },
    summary: "Permissions a role of the caller's tenant may hold",
    tag,
    call: async (services, ctx) => services.roles.listPermissions(ctx),
  }),
};
