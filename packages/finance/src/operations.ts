import { type Access, operationsOf, type Page, type TenantContext, ZPage } from "@hisob/kernel";
import { z } from "zod";
import type { FinancePermission } from "./finance.permissions";
import type { FinanceServices } from "./finance-services";

/** Declares a finance operation (see `@hisob/kernel`'s operations): the finance services and permissions. */
export const op = operationsOf<FinanceServices, FinancePermission>();

export const ZId = z.object({ id: z.uuid() });
/** A change to one record: its id beside the body (REST: `PUT /…/:id` with the body). */
export const withId = <S extends z.ZodType>(data: S) => z.object({ id: z.uuid(), data });

type AccessOf = FinancePermission | Access<FinancePermission>;
export const accessOf = (access: AccessOf): Access<FinancePermission> =>
  typeof access === "string" ? { requires: [access] } : access;

type Verb = "list" | "get" | "create" | "update" | "delete";

/** The five operations of a record over one service shape; each service parses its input again. */
type CrudService<LQ, C, U, Item, ListItem> = {
  list(ctx: TenantContext, query: LQ): Promise<Page<ListItem>>;
  get(ctx: TenantContext, id: string): Promise<Item>;
  create(ctx: TenantContext, input: C): Promise<Item>;
  update(ctx: TenantContext, id: string, input: U): Promise<Item>;
  delete(ctx: TenantContext, id: string): Promise<void>;
};

/**
 * `GET path`, `POST path` (201), `GET path/:id`, `PUT path/:id`, `DELETE path/:id` (204) — and the
 * tRPC procedures `list`, `create`, `get`, `update` (`{ id, data }`) and `delete`.
 */
export const crudOperations = <
  L extends z.ZodType,
  LI extends z.ZodType,
  C extends z.ZodType,
  U extends z.ZodType,
  D extends z.ZodType,
>(def: {
  path: string;
  tag: string;
  service: (
    services: FinanceServices,
  ) => CrudService<z.output<L>, z.output<C>, z.output<U>, z.input<D>, z.input<LI>>;
  schemas: { list: L; listItem: LI; create: C; update: U; item: D };
  access: Record<Verb, AccessOf>;
  summaries: Record<Verb, string>;
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
      call: (services, ctx, input) => service(services).create(ctx, input),
    }),
    get: op.query({
      http: { method: "GET", path: item, status: 200 },
      input: ZId,
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
      input: ZId,
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
