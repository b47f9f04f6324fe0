import type { coreOperations } from "@hisob/core";
import { type HttpBinding, operationUrl } from "@hisob/kernel/schema";
import type { z } from "zod";

/*
 * The catalog's operations, typed (decision 0097). Their input and output types come from the
 * operation catalog's own declarations (a type-only import: nothing of the server is bundled); the
 * HTTP binding of each operation the admin calls is listed in `ROUTES`, which a test checks against
 * the catalog. No screen writes a wire type of its own.
 */
type Catalog = typeof coreOperations;
type IsOperation<T> = T extends { kind: string; http: HttpBinding } ? true : false;

/** Every operation's dotted id: `users.list`, `currencies.select`. */
export type OperationId<C = Catalog, P extends string = ""> = {
  [K in keyof C & string]: IsOperation<C[K]> extends true ? `${P}${K}` : OperationId<C[K], `${P}${K}.`>;
}[keyof C & string];

type At<C, Id extends string> = Id extends `${infer Head}.${infer Tail}`
  ? Head extends keyof C
    ? At<C[Head], Tail>
    : never
  : Id extends keyof C
    ? C[Id]
    : never;

/** What an operation takes (what the caller sends: defaults may be left out). */
export type InputOf<Id extends OperationId> =
  At<Catalog, Id> extends { input?: infer I } ? (I extends z.ZodType ? z.input<I> : undefined) : undefined;
/** What an operation answers. */
export type OutputOf<Id extends OperationId> =
  At<Catalog, Id> extends { output: infer O } ? (O extends z.ZodType ? z.output<O> : never) : never;
/** One item of a list operation's page. */
export type ItemOf<Id extends OperationId> = OutputOf<Id> extends { items: (infer T)[] } ? T : never;

/** Where the operations the admin calls live over HTTP: the catalog's bindings (checked by `catalog.test.ts`). */
export const ROUTES = {
  "profile.get": { method: "GET", path: "/account", status: 200 },
  "profile.update": { method: "PUT", path: "/account", status: 200 },
  "currencies.all": { method: "GET", path: "/currencies", status: 200 },
  "currencies.update": { method: "PUT", path: "/currencies/:code", status: 200, rest: "data" },
  "currencies.selected": { method: "GET", path: "/tenant/currencies", status: 200 },
  "currencies.select": { method: "PUT", path: "/tenant/currencies", status: 200 },
  "users.list": { method: "GET", path: "/users", status: 200 },
  "users.export": { method: "GET", path: "/users/export", status: 200 },
  "users.create": { method: "POST", path: "/users", status: 201 },
  "users.update": { method: "PUT", path: "/users/:id", status: 200, rest: "data" },
  "users.delete": { method: "DELETE", path: "/users/:id", status: 204 },
  "users.assignRoles": { method: "POST", path: "/users/:id/roles", status: 200, rest: "data" },
  "users.unassignRole": { method: "DELETE", path: "/users/:id/roles/:roleId", status: 200 },
  "users.setGroups": { method: "PUT", path: "/users/:id/groups", status: 200, rest: "data" },
  "roles.list": { method: "GET", path: "/roles", status: 200 },
  "roles.create": { method: "POST", path: "/roles", status: 201 },
  "roles.update": { method: "PUT", path: "/roles/:id", status: 200, rest: "data" },
  "roles.delete": { method: "DELETE", path: "/roles/:id", status: 204 },
  "roles.grantable": { method: "GET", path: "/permissions", status: 200 },
  "groups.list": { method: "GET", path: "/groups", status: 200 },
  "groups.create": { method: "POST", path: "/groups", status: 201 },
  "groups.update": { method: "PUT", path: "/groups/:id", status: 200, rest: "data" },
  "groups.delete": { method: "DELETE", path: "/groups/:id", status: 204 },
  "groups.addUsers": { method: "POST", path: "/groups/:id/users", status: 200, rest: "data" },
  "groups.removeUser": { method: "DELETE", path: "/groups/:id/users/:uid", status: 200 },
  "tenants.list": { method: "GET", path: "/tenants", status: 200 },
  "tenants.create": { method: "POST", path: "/tenants", status: 201 },
  "tenants.get": { method: "GET", path: "/tenants/:id", status: 200 },
  "tenants.update": { method: "PUT", path: "/tenants/:id", status: 200, rest: "data" },
  "sessions.listForTenant": { method: "GET", path: "/sessions", status: 200 },
  "sessions.listForUser": { method: "GET", path: "/users/:id/sessions", status: 200 },
  "sessions.endAllForUser": { method: "DELETE", path: "/users/:id/sessions", status: 200 },
  "sessions.end": { method: "DELETE", path: "/sessions/:id", status: 200 },
  "consents.listForUser": { method: "GET", path: "/users/:id/consents", status: 200 },
  "consents.revokeForUser": { method: "DELETE", path: "/users/:id/consents/:clientId", status: 200 },
} as const satisfies Partial<Record<OperationId, HttpBinding>>;

export type AdminOperationId = keyof typeof ROUTES;

/**
 * The URL of a query or a download for an input (parameters in the path, the rest as the query
 * string, empty text left out like the filters' `queryString`).
 */
export const urlOf = <Id extends AdminOperationId>(id: Id, input: InputOf<Id>): string => {
  const http: HttpBinding = ROUTES[id];
  const values = (input ?? {}) as Record<string, unknown>;
  const query = http.rest ? ((values[http.rest] ?? {}) as Record<string, unknown>) : values;
  const kept = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ""));
  return operationUrl(http, http.rest ? { ...values, [http.rest]: kept } : kept);
};
