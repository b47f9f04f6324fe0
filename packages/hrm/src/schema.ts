/*
 * The browser-safe schemas of the HRM module: zod only (and finance's date schema).
 * Nothing here may import a service, Prisma or Node (a test bundles this entry for the browser).
 */

export * from "./employees/employees.schema";
