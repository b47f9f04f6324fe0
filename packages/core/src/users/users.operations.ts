import { z } from "zod";
import { crudOperations, op } from "../operations";
import {
  ZAssignRolesInput,
  ZCreateUserInput,
  ZExportUsersQuery,
  ZListUsersQuery,
  ZSetUserGroupsInput,
  ZUpdateUserInput,
  ZUserDto,
} from "./users.schema";

/** Reading users: every user of the tenant, or with only `users:read:own`, oneself. */
const read = {
  requires: ["users:read:all"],
  own: { permission: "users:read:own", which: "oneself" },
} as const;

const tag = "users";

const crud = crudOperations({
  path: "/users",
  tag,
  service: (services) => services.users,
  schemas: {
    list: ZListUsersQuery,
    listItem: ZUserDto,
    create: ZCreateUserInput,
    update: ZUpdateUserInput,
    item: ZUserDto,
  },
  access: {
    list: { ...read, wording: "users:read:all; users:read:own lists only oneself" },
    get: { ...read, wording: "users:read:all, or users:read:own for oneself" },
    create: "users:create:all",
    update: {
      requires: ["users:update:all"],
      own: { permission: "users:update:own", which: "one's own name, language and avatar" },
      wording: "users:update:all, or users:update:own for one's own name, language, avatar",
    },
    delete: "users:delete:all",
  },
  summaries: {
    list: "List users",
    get: "Get a user",
    create: "Create a user",
    update: "Update a user",
    delete: "Delete a user",
  },
});

/** Users of the caller's tenant, their roles and groups. */
export const usersOperations = {
  list: crud.list,
  export: op.download({
    http: { method: "GET", path: "/users/export", status: 200 },
    input: ZExportUsersQuery,
    access: { ...read, wording: "users:read:all; users:read:own lists only oneself" },
    summary:
      "The users list as a spreadsheet (.xlsx), same query as GET /users; every matching row unless limit is given",
    tag,
    call: async (services, ctx, input) => services.users.prepareExport(ctx, input),
  }),
  create: crud.create,
  get: crud.get,
  update: crud.update,
  delete: crud.delete,
  assignRoles: op.mutation({
    http: { method: "POST", path: "/users/:id/roles", status: 200, rest: "data" },
    input: z.object({ id: z.uuid(), data: ZAssignRolesInput }),
    output: ZUserDto,
    access: { requires: ["users:update:all"] },
    summary: "Assign roles to a user",
    tag,
    call: (services, ctx, input) => services.users.assignRoles(ctx, input.id, input.data),
  }),
  unassignRole: op.mutation({
    http: { method: "DELETE", path: "/users/:id/roles/:roleId", status: 200 },
    input: z.object({ id: z.uuid(), roleId: z.uuid() }),
    output: ZUserDto,
    access: { requires: ["users:update:all"] },
    summary: "Unassign a role from a user",
    tag,
    call: (services, ctx, input) => services.users.unassignRole(ctx, input.id, input.roleId),
  }),
  setGroups: op.mutation({
    http: { method: "PUT", path: "/users/:id/groups", status: 200, rest: "data" },
    input: z.object({ id: z.uuid(), data: ZSetUserGroupsInput }),
    output: ZUserDto,
    access: { requires: ["users:update:all", "groups:update:all"] },
    summary:
      "Replace a user's groups (joining needs every permission the group's roles carry; leaving, every permission the user holds)",
    tag,
    call: (services, ctx, input) => services.users.setGroups(ctx, input.id, input.data),
  }),
};
