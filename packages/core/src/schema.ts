/*
 * The browser-safe schemas of core: zod only, shared by the server and the apps. Nothing here may
 * import a service, Prisma, exceljs or Node (a test bundles this entry for the browser).
 */

export * from "./audit/audit.schema";
export * from "./auth/auth.schema";
export * from "./currencies/currencies.schema";
export * from "./groups/groups.schema";
export * from "./profile/profile.schema";
export * from "./roles/roles.schema";
export * from "./sessions/sessions.schema";
export * from "./settings/settings.schema";
export * from "./tenants/tenants.schema";
export * from "./uploads/uploads.schema";
export * from "./users/users.schema";
