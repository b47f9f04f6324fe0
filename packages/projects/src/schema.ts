/*
 * The browser-safe schemas of the Projects module: zod only (and finance's date schema).
 * Nothing here may import a service, Prisma or Node (a test bundles this entry for the browser).
 */

export * from "./projects/projects.schema";
export * from "./stages/stages.schema";
