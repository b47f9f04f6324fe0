import type { z } from "zod";
import type { TenantContext } from "./context";
import type { Permission } from "./permissions";

/*
 * An operation, declared once: what it takes and returns (zod), who may call it, where it lives over
 * HTTP, and the service call. The transports (REST routes with their OpenAPI document, tRPC
 * procedures) and the README's route → permission tables are derived from these declarations.
 * Nothing here knows a transport library: the HTTP binding is plain data.
 */

/** A query reads, a mutation changes, a download streams a file (REST) or links to it (tRPC). */
export type OperationKind = "query" | "mutation" | "download";
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export type HttpBinding = {
  method: HttpMethod;
  /** Fastify-style path: `/finance/accounts/:id/transactions`. */
  path: string;
  status: 200 | 201 | 204;
  /** A call that returns null answers this instead, without a body (e.g. 204 "Removed"). */
  empty?: { status: 204; description: string };
  /** Path parameters whose input key differs from their name: `{ id: "accountId" }`. */
  params?: Readonly<Record<string, string>>;
  /**
   * When the path carries parameters and the operation also takes a query or body, the input key
   * that holds it (`query`, `data`). Without parameters the whole input is the query or body.
   */
  rest?: string;
};

/**
 * Who may call an operation. The service checks it (on its first line); this is its declaration, for
 * the documents and the permission sweep. `requires: []` is any signed-in user.
 */
export type Access<P extends Permission = Permission> = {
  /** Every one of these. */
  requires: readonly P[];
  /** And one of these, depending on the record (e.g. a receivable's payment or a payable's expense). */
  oneOf?: readonly { permission: P; when: string }[];
  /** With only this permission instead of the first of `requires`, a narrower set of records. */
  own?: { permission: P; which: string };
  /** Only the platform tenant's roles hold these permissions. */
  platformOnly?: boolean;
  /** Any signed-in user on their own records (`requires: []`); on another user's, this permission. */
  othersNeed?: P;
  /**
   * The API reference's own words for this access (the parenthesis of the OpenAPI summary), where
   * they read better there than `describeAccess`'s: `users:read:all, or users:read:own for oneself`.
   * It may name only the permissions declared above (a test checks it); the README's tables keep
   * `describeAccess`.
   */
  wording?: string;
};

/** An operation that takes nothing leaves `input` out; its input type is this. */
export type NoInput = z.ZodUndefined;

type OperationBase<P extends Permission, I extends z.ZodType> = {
  http: HttpBinding;
  /**
   * What the caller sends (tRPC's input; REST splits it into path parameters and query or body).
   * Absent when the operation takes nothing.
   */
  input?: I;
  access: Access<P>;
  /** One line for the API reference; the permission is added from `access`. */
  summary: string;
  /** The API reference's group. */
  tag: string;
  /** False: REST only (the accountant app does not call it). */
  rpc?: boolean;
  /**
   * It posts money or closes a debt once per `Idempotency-Key` (packages/db/src/idempotency.ts);
   * the API reference documents the header on it.
   */
  idempotent?: true;
};

export type QueryOrMutation<
  S,
  P extends Permission,
  I extends z.ZodType,
  O extends z.ZodType,
> = OperationBase<P, I> & {
  kind: "query" | "mutation";
  output: O;
  call: (services: S, ctx: TenantContext, input: z.output<I>) => Promise<z.input<O>>;
};

export type Download<S, P extends Permission, I extends z.ZodType, F> = OperationBase<P, I> & {
  kind: "download";
  /** Prepares the file: checks permission, input and ids before anything is sent. */
  call: (services: S, ctx: TenantContext, input: z.output<I>) => Promise<F>;
};

/** An operation declared `idempotent: true` says so in its type. */
export type IdempotentMark<K> = [K] extends [true] ? { idempotent: true } : unknown;

/** Any operation, its types erased: what the transports iterate over. */
export type AnyOperation = OperationBase<Permission, z.ZodType> &
  ({ kind: "query" | "mutation"; output: z.ZodType } | { kind: "download" }) & {
    // biome-ignore lint/suspicious/noExplicitAny: erased; each operation was checked where it was declared
    call: (services: any, ctx: TenantContext, input: any) => Promise<unknown>;
  };

/** Operations grouped the way the tRPC router nests them: `{ payments: { list, get, … } }`. */
export type OperationCatalog = { readonly [name: string]: AnyOperation | OperationCatalog };

/**
 * The declaration helpers of one module: its services and its permissions. Each returns its
 * argument unchanged, typed, so the catalog keeps every operation's exact schemas.
 */
export const operationsOf = <S, P extends Permission>() => ({
  query: <O extends z.ZodType, I extends z.ZodType = NoInput>(
    op: Omit<QueryOrMutation<S, P, I, O>, "kind">,
  ): QueryOrMutation<S, P, I, O> & { kind: "query" } => ({ ...op, kind: "query" }),
  // `idempotent: true` stays in the type: tRPC's procedure then takes an `idempotencyKey` field.
  mutation: <O extends z.ZodType, I extends z.ZodType = NoInput, K extends true | undefined = undefined>(
    op: Omit<QueryOrMutation<S, P, I, O>, "kind" | "idempotent"> & { idempotent?: K },
  ): QueryOrMutation<S, P, I, O> & { kind: "mutation" } & IdempotentMark<K> =>
    ({ ...op, kind: "mutation" }) as QueryOrMutation<S, P, I, O> & { kind: "mutation" } & IdempotentMark<K>,
  download: <F, I extends z.ZodType = NoInput>(
    op: Omit<Download<S, P, I, F>, "kind">,
  ): Download<S, P, I, F> & { kind: "download" } => ({ ...op, kind: "download" }),
});

export const isOperation = (entry: AnyOperation | OperationCatalog): entry is AnyOperation =>
  typeof (entry as { call?: unknown }).call === "function";

/** Every operation of a catalog with its id, the dotted path of its key (`payments.list`). */
export const listOperations = (
  catalog: OperationCatalog,
  prefix = "",
): { id: string; operation: AnyOperation }[] =>
  Object.entries(catalog).flatMap(([name, entry]) =>
    isOperation(entry)
      ? [{ id: `${prefix}${name}`, operation: entry }]
      : listOperations(entry, `${prefix}${name}.`),
  );

/** The names of a path's parameters, in order: `/a/:id/b/:settlementId` → `["id", "settlementId"]`. */
export const pathParams = (path: string): string[] =>
  [...path.matchAll(/:([A-Za-z][A-Za-z0-9]*)/g)].map((match) => match[1] ?? "");

/** The input key a path parameter carries. */
export const inputKeyOf = (http: HttpBinding, param: string): string => http.params?.[param] ?? param;

/**
 * The URL of an operation for an input: path parameters filled in, the query (the `rest` key, or
 * the whole input without parameters) as a query string with undefined dropped and arrays repeated.
 * The accountant app fetches downloads at this URL.
 */
export const operationUrl = (http: HttpBinding, input: unknown): string => {
  const values = (input ?? {}) as Record<string, unknown>;
  const params = pathParams(http.path);
  const path = http.path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) =>
    encodeURIComponent(String(values[inputKeyOf(http, name)])),
  );
  const query = http.rest
    ? ((values[http.rest] ?? {}) as Record<string, unknown>)
    : params.length > 0
      ? {}
      : values;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** The access in the API reference's words: its own `wording`, else `describeAccess`'s. */
export const accessWording = (access: Access): string => access.wording ?? describeAccess(access);

/** Who may call, in words: `debts:update:all and payments:create:all (receivable) or …`. */
export const describeAccess = (access: Access, code: (permission: string) => string = (p) => p): string => {
  if (access.othersNeed) return `oneself, or ${code(access.othersNeed)}`;
  if (access.requires.length === 0) return "any signed-in user";
  let text = access.requires.map(code).join(" and ");
  if (access.oneOf) {
    text += ` and ${access.oneOf.map(({ permission, when }) => `${code(permission)} (${when})`).join(" or ")}`;
  }
  if (access.own) text += `; with only ${code(access.own.permission)}, ${access.own.which}`;
  if (access.platformOnly) text += " (platform only)";
  return text;
};
