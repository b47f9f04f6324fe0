import { type AccessOf, crudOperationsOf, MAX_FILTERS, type Permission, ZPagination } from "@hisob/kernel";
import { z } from "zod";
import type { RecordService, TRecordListQuery } from "./record-service";

/*
 * The REST and tRPC side of the record building block: a record's five operations as catalog entries
 * (see `@hisob/kernel`'s operations), from which the routes, the OpenAPI document, the tRPC procedures
 * and the README's tables are derived. The GraphQL side is `@hisob/graphql`'s `records.ts`.
 */

const FILTERS_EXAMPLE = '[{"field":"name","operator":"like","value":"acme"}]';

/**
 * The shared filter grammar (`[{ field, operator, value }]`). Over REST it is one `filters` query
 * parameter holding the JSON array; tRPC sends the array itself. The service checks each condition
 * against the record's filterable fields (naming what is wrong).
 */
export const ZRecordFilters = z
  .union([
    z.array(z.unknown()).max(MAX_FILTERS, `must have at most ${MAX_FILTERS} conditions`),
    z
      .string()
      .max(4000)
      .transform((text, ctx): unknown[] => {
        try {
          const value: unknown = JSON.parse(text);
          if (Array.isArray(value) && value.length <= MAX_FILTERS) return value;
        } catch {
          // answered below
        }
        ctx.addIssue({
          code: "custom",
          message: `must be a JSON array of at most ${MAX_FILTERS} conditions like ${FILTERS_EXAMPLE}`,
        });
        return z.NEVER;
      }),
  ])
  .describe(`The filter conditions, every one must hold: a JSON array like ${FILTERS_EXAMPLE}`);

/** A record list's query: paging, up to three sort fields (id breaks ties), order and filters. */
export const recordListQuery = <const F extends readonly [string, ...string[]]>(sortFields: F) => {
  const ZSortField = z.enum(sortFields);
  return ZPagination.extend({
    sortBy: z.union([ZSortField, z.array(ZSortField).min(1).max(3)]).optional(),
    order: z.enum(["asc", "desc"]).optional(),
    filters: ZRecordFilters.optional(),
  });
};

type Verb = "list" | "get" | "create" | "update" | "delete";

/** The usual permissions of a record: `<resource>:read:all`, `:create:all`, `:update:all`, `:delete:all`. */
export const crudPermissions = <const R extends string>(resource: R) => ({
  read: `${resource}:read:all` as const,
  create: `${resource}:create:all` as const,
  update: `${resource}:update:all` as const,
  delete: `${resource}:delete:all` as const,
});

/**
 * The declaration helper of one module's records (its services and permissions): `GET path`,
 * `POST path` (201), `GET path/:id`, `PUT path/:id`, `DELETE path/:id` (204), and the tRPC
 * procedures of the same names, over a record service (`createRecordService`).
 */
export const recordOperationsOf = <S, P extends Permission>() => {
  const crud = crudOperationsOf<S, P>();
  return <
    const F extends readonly [string, ...string[]],
    C extends z.ZodType,
    U extends z.ZodType,
    D extends z.ZodType,
  >(def: {
    path: string;
    tag: string;
    service: (services: S) => RecordService<z.input<D> & { id: string }>;
    sortFields: F;
    schemas: { create: C; update: U; item: D };
    permissions: { read: AccessOf<P>; create: AccessOf<P>; update: AccessOf<P>; delete: AccessOf<P> };
    summaries: Record<Verb, string>;
  }) =>
    crud({
      path: def.path,
      tag: def.tag,
      service: (services) => {
        const records = def.service(services);
        return {
          list: (ctx, query: TRecordListQuery) => records.list(ctx, query),
          get: records.get,
          create: records.create,
          update: records.update,
          delete: records.delete,
        };
      },
      schemas: {
        list: recordListQuery(def.sortFields),
        listItem: def.schemas.item,
        create: def.schemas.create,
        update: def.schemas.update,
        item: def.schemas.item,
      },
      access: {
        list: def.permissions.read,
        get: def.permissions.read,
        create: def.permissions.create,
        update: def.permissions.update,
        delete: def.permissions.delete,
      },
      summaries: def.summaries,
    });
};
