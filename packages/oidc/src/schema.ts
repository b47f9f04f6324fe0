/*
 * The browser-safe schemas of the OIDC administration: zod only, shared by the server and the admin
 * screens (a test bundles this entry for the browser).
 */
export * from "./admin/oidc-admin.schema";
