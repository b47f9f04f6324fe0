import { z } from "zod";
import { crudOperations, op } from "../operations";
import {
  ZAddGroupUsersInput,
  ZCreateGroupInput,
  ZGroupDto,
  ZListGroupsQuery,
  ZUpdateGroupInput,
} from "./groups.schema";

const tag = "groups";

/** Groups of the caller's tenant: their users and roles. Members hold the group's roles' permissions. */
export const groupsOperations = {
  ...crudOperations({
    path: "/groups",
    tag,
    service: (services) => services.groups,
    schemas: {
      list: ZListGroupsQuery,
      listItem: ZGroupDto,
      create: ZCreateGroupInput,
      update: ZUpdateGroupInput,
      item: ZGroupDto,
    },
    access: {
      list: "groups:read:all",
      get: "groups:read:all",
      create: "groups:create:all",
      update: "groups:update:all",
      delete: "groups:delete:all",
    },
    summaries: {
      list: "List groups",
      get: "Get a group",
      create: "Create a group, optionally with roles and users",
      update: "Update a group; `roleIds` replaces its roles",
      delete: "Delete a group and its memberships",
    },
  }),
  addUsers: op.mutation({
    http: { method: "POST", path: "/groups/:id/users", status: 200, rest: "data" },
    input: z.object({ id: z.uuid(), data: ZAddGroupUsersInput }),
    output: ZGroupDto,
    access: { requires: ["groups:update:all"] },
    summary: "Add users to a group; idempotent",
    tag,
    call: (services, ctx, input) => services.groups.addUsers(ctx, input.id, input.data),
  }),
  removeUser: op.mutation({
    http: { method: "DELETE", path: "/groups/:id/users/:uid", status: 200 },
    input: z.object({ id: z.uuid(), uid: z.uuid() }),
    output: ZGroupDto,
    access: { requires: ["groups:update:all"] },
    summary: "Remove a user from a group",
    tag,
    call: (services, ctx, input) => services.groups.removeUser(ctx, input.id, input.uid),
  }),
};
