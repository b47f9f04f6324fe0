import {
  checkPasswordStrength,
  EXPORT_MAX_ROWS,
  type FilterSpec,
  LOCALES,
  ZLocale,
  ZPagination,
  ZQueryBoolean,
  ZRequiredLine,
} from "@hisob/kernel/schema";
import { z } from "zod";

export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: "must be a valid email address" }))
  .transform((email) => email.toLowerCase());

export const ZPassword = z.string().superRefine((password, ctx) => {
  const problem = checkPasswordStrength(password);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

const ZName = ZRequiredLine(100);

/**
 * An avatar: an http(s) URL, or one of our uploads' content paths (as `POST /uploads` returns it).
 * Never `javascript:` or `data:`: the URL is published to relying parties as the `picture` claim.
 */
const UPLOAD_CONTENT_PATH = /^\/uploads\/([0-9a-f-]{36})\/content$/;
export const ZAvatarUrl = z.union([
  z.httpUrl().max(2048),
  z.string().regex(UPLOAD_CONTENT_PATH, {
    message: "must be an http(s) URL or an upload's content path",
  }),
]);

/** The upload an avatar URL points to, when it is one of ours (the caller checks it is the tenant's). */
export const avatarUploadId = (avatarUrl: string | null | undefined): string | undefined =>
  avatarUrl ? UPLOAD_CONTENT_PATH.exec(avatarUrl)?.[1] : undefined;

export const ZCreateUserInput = z
  .object({
    email: ZEmail,
    firstName: ZName,
    lastName: ZName,
    password: ZPassword.optional(),
    uiLanguage: ZLocale.default("en"),
    active: z.boolean().default(true),
    avatarUrl: ZAvatarUrl.optional(),
    /** Roles by name (CLI, bootstrap) … */
    roleNames: z.array(ZRequiredLine(100)).max(50).default([]),
    /** … or by id (the API). */
    roleIds: z.array(z.uuid()).max(50).default([]),
    groupIds: z.array(z.uuid()).max(50).default([]),
  })
  .strict();
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;

export const ZUserRef = z.object({ id: z.uuid(), name: z.string() });

export const ZUserDto = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    uiLanguage: ZLocale,
    active: z.boolean(),
    avatarUrl: z.string().nullable(),
    hasPassword: z.boolean(),
    roles: z.array(ZUserRef),
    groups: z.array(ZUserRef),
    /** Effective permissions: the union over the user's roles and their groups' roles, sorted. */
    permissions: z.array(z.string()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "User" });
export type TUserDto = z.infer<typeof ZUserDto>;

export const USER_SORT_FIELDS = ["email", "firstName", "lastName", "createdAt", "updatedAt"] as const;

/** Fields a users list may be filtered on (GraphQL `filters`), with their types. */
export const USER_FILTERS: FilterSpec = {
  id: { kind: "uuid" },
  email: { kind: "string" },
  firstName: { kind: "string" },
  lastName: { kind: "string" },
  uiLanguage: { kind: "enum", values: LOCALES },
  active: { kind: "boolean", column: "isActive" },
  createdAt: { kind: "time" },
  updatedAt: { kind: "time" },
};

/** A list's generic filters and multi-field sort (GraphQL); checked by the service against the lists' specs. */
export type TUserListing = { filters?: unknown; sortBy?: unknown };

export const ZListUsersQuery = z.object({
  ...ZPagination.shape,
  sortBy: z.enum(USER_SORT_FIELDS).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("asc"),
  /** Substring of the email, case-insensitive. */
  email: ZRequiredLine(254).optional(),
  /** Substring of the first or last name, case-insensitive. */
  name: ZRequiredLine(100).optional(),
  /** Only users holding this role directly. */
  roleId: z.uuid().optional(),
  active: ZQueryBoolean.optional(),
});
export type TListUsersQuery = z.input<typeof ZListUsersQuery>;

export const ZUpdateUserInput = z
  .object({
    email: ZEmail.optional(),
    firstName: ZName.optional(),
    lastName: ZName.optional(),
    uiLanguage: ZLocale.optional(),
    active: z.boolean().optional(),
    avatarUrl: ZAvatarUrl.nullable().optional(),
    /** Sets a new password (an administrator's reset); the user's own change goes through /account. */
    password: ZPassword.optional(),
  })
  .strict();
export type TUpdateUserInput = z.input<typeof ZUpdateUserInput>;

export const ZAssignRolesInput = z.object({ roleIds: z.array(z.uuid()).min(1).max(50) }).strict();

/** A user's groups, all of them: the user leaves the groups not listed (an empty list leaves every group). */
export const ZSetUserGroupsInput = z.object({ groupIds: z.array(z.uuid()).max(50) }).strict();
export type TSetUserGroupsInput = z.input<typeof ZSetUserGroupsInput>;

/** The users list as a spreadsheet: the list's filters and sort; every matching row unless `limit` is given. */
export const ZExportUsersQuery = ZListUsersQuery.extend({
  limit: z.coerce.number().int().min(1).max(EXPORT_MAX_ROWS).optional(),
});
