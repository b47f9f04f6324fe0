/*
 * The browser-safe part of the kernel: zod schemas and pure helpers only. The accountant and admin
 * apps import this entry; it must never reach Node, Prisma or native modules (a test bundles it for
 * the browser). Password hashing and the permission registry stay in the server entry (`@hisob/kernel`).
 */
export * from "./dates";
export * from "./errors";
export * from "./filters";
export * from "./ids";
export * from "./locale";
export * from "./money";
// An operation's HTTP binding and its URL for an input: plain data and string work (the admin app's
// client builds its calls with them).
export { type HttpBinding, inputKeyOf, operationUrl, pathParams } from "./operations";
export * from "./pagination";
export * from "./password-rule";
export * from "./quantity";
export * from "./text";
export * from "./validation";
