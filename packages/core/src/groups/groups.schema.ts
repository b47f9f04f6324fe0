import { ZPagination, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

const ZGroupName = ZRequiredLine(100);
const ZDescription = ZText(1000);
const ZRoleIds = z.array(z.uuid()).max(50);
const ZUserIds = z.array(z.uuid()).max(500);

export const ZCreateGroupInput = z
  .object({
    name: ZGroupName,
    description: ZDescription.default(""),
    roleIds: ZRoleIds.default([]),
    userIds: ZUserIds.default([]),
  })
  .strict();
export type TCreateGroupInput = z.input<typeof ZCreateGroupInput>;

export const ZUpdateGroupInput = z
  .object({
    name: ZGroupName.optional(),
    description: ZDescription.optional(),
    /** Replaces the group's roles; membership changes go through /groups/:id/users. */
    roleIds: ZRoleIds.optional(),
  })
  .strict();
export type TUpdateGroupInput = z.input<typeof ZUpdateGroupInput>;

export const ZAddGroupUsersInput = z.object({ userIds: ZUserIds.min(1) }).strict();
export type TAddGroupUsersInput = z.input<typeof ZAddGroupUsersInput>;

export const GROUP_SORT_FIELDS = ["name", "createdAt"] as const;

export const ZListGroupsQuery = ZPagination.extend({
  sortBy: z.enum(GROUP_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  /** Substring of the name, case-insensitive. */
  name: ZRequiredLine(100).optional(),
});
export type TListGroupsQuery = z.input<typeof ZListGroupsQuery>;

export const ZGroupMember = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});

export const ZGroupDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    /** Sorted by name. */
    roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
    /** Sorted by last name, first name, email. */
    users: z.array(ZGroupMember),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Group" });
export type TGroupDto = z.infer<typeof ZGroupDto>;
