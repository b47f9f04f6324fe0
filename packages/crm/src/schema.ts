/*
 * The browser-safe schemas of the CRM module: zod only, shared by the server and the apps. Nothing here may
 * import a service, Prisma or Node (a test bundles this entry for the browser).
 */

export * from "./chats/chats.schema";
export * from "./clients/clients.schema";
