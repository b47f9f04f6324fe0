import { z } from "zod";
import type { TenantContext } from "./context";
import { type Access, operationsOf } from "./operations";
import { type Page, ZPage } from "./pagination";
import type { Permission } from "./permissions";

/** One record's id (REST: the `:id` path parameter). */
export const ZIdInput = z.object({ id: z.uuid() });
/** A change to one record: its id beside the body (REST: `PUT /…/:id` with the body). */
export const withId = <S extends z.ZodType>(data: S) => z.object({ id: z.uuid(), data });

export type AccessOf<P extends Permission> = P | Access<P>;
export const accessOf = <P extends Permission>(access: AccessOf<P>): Access<P> =>
  typeof access === "string" ? { requires: [access] } : access;

type Verb = "list" | "get" | "create" | "update" | "delete";

/** The five operations of a record over one service shape; each service parses its input again. */
export type CrudService<LQ, C, U, Item, ListItem> = {
  list(ctx: TenantContext, query: LQ): Promise<Page<ListItem>>;
  get(ctx: TenantContext, id: string): Promise<Item>;
  create(ctx: TenantContext, input: C): Promise<Item>;
  update(ctx: TenantContext, id: string, input: U): Promise<Item>;
  delete(ctx: TenantContext, id: string): Promise<void>;
};

/**
 * The CRUD declaration helper of one module (its services and permissions): `GET path`, `POST path`
 * (201), `GET path/:id`, `PUT path/:id`, `DELETE path/:id` (204) — and the tRPC procedures `list`,
 * `create`, `get`, `update` (`{ id, data }`) and `delete`.
 */
export const crudOperationsOf = <S, P extends Permission>() => {
  const op = operationsOf<S, P>();
  return <
    L extends z.ZodType,
    LI extends z.ZodType,
    C extends z.ZodType,
    U extends z.ZodType,
    D extends z.ZodType,
    K extends true | undefined = undefined,
  >(def: {
    path: string;
    tag: string;
    service: (services: S) => CrudService<z.output<L>, z.output<C>, z.output<U>, z.input<D>, z.input<LI>>;
    schemas: { list: L; listItem: LI; create: C; update: U; item: D };
    access: Record<Verb, AccessOf<P>>;
    summaries: Record<Verb, string>;
    /** Creating posts money or a debt: once per Idempotency-Key (the service makes it so). */
    idempotentCreate?: K;
  }) => {
    const { path, tag, service, schemas, access, summaries } = def;
    const item = `${path}/:id`;
    return {
      list: op.query({
        http: { method: "GET", path, status: 200 },
        input: schemas.list,
        output: ZPage(schemas.listItem),
        access: accessOf(access.list),
        summary: summaries.list,
        tag,
        call: (services, ctx, input) => service(services).list(ctx, input),
      }),
      create: op.mutation({
        http: { method: "POST", path, status: 201 },
        input: schemas.create,
        output: schemas.item,
        access: accessOf(access.create),
        summary: summaries.create,
        tag,
        idempotent: def.idempotentCreate,
        call: (services, ctx, input) => service(services).create(ctx, input),
      }),
      get: op.query({
        http: { method: "GET", path: item, status: 200 },
        input: ZIdInput,
        output: schemas.item,
        access: accessOf(access.get),
        summary: summaries.get,
        tag,
        call: (services, ctx, input) => service(services).get(ctx, input.id),
      }),
      update: op.mutation({
        http: { method: "PUT", path: item, status: 200, rest: "data" },
        input: withId(schemas.update),
        output: schemas.item,
        access: accessOf(access.update),
        summary: summaries.update,
        tag,
        call: (services, ctx, input) => {
          // The output of a generic object schema is opaque to TypeScript; its shape is withId's.
          const { id, data } = input as { id: string; data: z.output<U> };
          return service(services).update(ctx, id, data);
        },
      }),
      delete: op.mutation({
        http: { method: "DELETE", path: item, status: 204 },
        input: ZIdInput,
        output: z.null(),
        access: accessOf(access.delete),
        summary: summaries.delete,
        tag,
        call: async (services, ctx, input) => {
          await service(services).delete(ctx, input.id);
          return null;
        },
      }),
    };
  };
};
