import type { RecordService, TRecordListQuery } from "@hisob/crud";
import { type Access, describeAccess, type TenantContext } from "@hisob/kernel";
import DataLoader from "dataloader";
import type { z } from "zod";
import { fieldOf, pageArgsSdl } from "./catalog-sdl";
import { callerOf, type GraphqlContext, type GraphqlServices } from "./context";
import { enumValuesOf, inputTypeSdl, objectTypeSdl, type ShapeOptions } from "./zod-sdl";

/*
 * The GraphQL side of the record building block (@hisob/crud): the SDL of a record's five operations
 * and their types, printed from the record's catalog entry, and their thin resolvers, plus a per-request
 * loader for records other types point to. A module names what zod cannot tell (money, enums, words).
 */

/**
 * What a record's catalog entry (`recordOperationsOf`) declares that its SDL reads: who may do what, the
 * list's sort fields and paging, the item's schema and the create and update inputs.
 */
type RecordCatalogEntry = {
  readonly list: { readonly access: Access; readonly input?: z.ZodType };
  readonly get: { readonly access: Access; readonly output: z.ZodType };
  readonly create: { readonly access: Access; readonly input?: z.ZodType };
  readonly update: { readonly access: Access; readonly input?: z.ZodType };
  readonly delete: { readonly access: Access };
};

/** The GraphQL types of a record, printed from its catalog schemas (what zod cannot tell, named here). */
export type RecordTypes = {
  /** `type <Type>` from the get operation's output. */
  item: ShapeOptions;
  /** `input <Type>Input` from the create operation's input. */
  input?: ShapeOptions;
  /** `input <Type>Patch` from the update operation's input (its `data`). */
  patch?: ShapeOptions;
};

export type RecordSdlOptions = {
  /** The object type, e.g. "Client". */
  type: string;
  /** The list query's name, e.g. "clients" (the get query is `type` lower-cased first: "client"). */
  plural: string;
  /** The record's catalog entry (e.g. `crmOperations.clients`): its permissions, sort fields, paging and types. */
  operations: RecordCatalogEntry;
  /** The record's object and input types from the catalog's schemas. */
  types: RecordTypes;
  filterFields: readonly string[];
  /** Ascending by default (false: newest first, e.g. by date). */
  ascending?: boolean;
};

const lowerFirst = (value: string) => `${value.charAt(0).toLowerCase()}${value.slice(1)}`;

/** `Paginated<Type>s`, the list and get queries, and create/update/delete mutations over `<Type>Input`/`<Type>Patch`. */
export const recordSdl = (options: RecordSdlOptions): string => {
  const { type, plural, operations } = options;
  const permissions = {
    read: describeAccess(operations.list.access),
    create: describeAccess(operations.create.access),
    update: describeAccess(operations.update.access),
    delete: describeAccess(operations.delete.access),
  };
  const single = lowerFirst(type);
  const { list, create, update } = operations;
  if (!list.input || !create.input || !update.input)
    throw new Error(`${type}: a record operation without input`);
  const sortFields = enumValuesOf(fieldOf(list.input, "sortBy"), `${plural}.sortBy`);
  return /* GraphQL */ `
${objectTypeSdl(type, operations.get.output, options.types.item)}
${inputTypeSdl(`${type}Input`, create.input, options.types.input)}
${inputTypeSdl(`${type}Patch`, fieldOf(update.input, "data"), options.types.patch)}
  type Paginated${type}s {
    data: [${type}!]!
    total: Int64!
  }

  type Query {
    """
    ${type} records of the caller's organization (${permissions.read}). sortBy: ${sortFields.join(", ")}
    (id breaks ties). Filters on ${options.filterFields.join(", ")}.
    """
    ${plural}(
      ${pageArgsSdl(list.input)}
      sortBy: [String!]
      ascending: Boolean = ${options.ascending === false ? "false" : "true"}
      filters: [Filter!]
    ): Paginated${type}s!
    "One ${type} by id (${permissions.read}); another organization's id is NOT_FOUND."
    ${single}(id: ID!): ${type}!
  }

  type Mutation {
    "Creates a ${type} (${permissions.create})."
    create${type}(input: ${type}Input!): ${type}!
    "Changes the fields given (${permissions.update})."
    update${type}(id: ID!, input: ${type}Patch!): ${type}!
    "Deletes a ${type} (${permissions.delete}); CONFLICT while other records refer to it."
    delete${type}(id: ID!): Boolean!
  }
`;
};

export type RecordListArgs = {
  offset?: number | null;
  limit?: number | null;
  sortBy?: string[] | null;
  ascending?: boolean | null;
  filters?: unknown;
};

/** GraphQL list arguments as the building block's list query. */
export const recordListQuery = (args: RecordListArgs): TRecordListQuery => ({
  offset: args.offset ?? undefined,
  limit: args.limit ?? undefined,
  sortBy: args.sortBy ?? undefined,
  order: args.ascending === false ? "desc" : args.ascending === true ? "asc" : undefined,
  filters: args.filters ?? undefined,
});

/** The five resolvers of a record, over the service `pick` finds in the context's services. */
export const recordResolvers = <Dto extends { id: string }>(
  options: { type: string; plural: string },
  pick: (services: GraphqlServices) => RecordService<Dto>,
) => {
  const single = lowerFirst(options.type);
  return {
    Query: {
      [options.plural]: async (_: unknown, args: RecordListArgs, context: GraphqlContext) => {
        const page = await pick(context.services).list(callerOf(context), recordListQuery(args));
        return { data: page.items, total: page.total };
      },
      [single]: (_: unknown, args: { id: string }, context: GraphqlContext) =>
        pick(context.services).get(callerOf(context), args.id),
    },
    Mutation: {
      [`create${options.type}`]: (_: unknown, args: { input: unknown }, context: GraphqlContext) =>
        pick(context.services).create(callerOf(context), args.input),
      [`update${options.type}`]: (
        _: unknown,
        args: { id: string; input: unknown },
        context: GraphqlContext,
      ) => pick(context.services).update(callerOf(context), args.id, args.input),
      [`delete${options.type}`]: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
        await pick(context.services).delete(callerOf(context), args.id);
        return true;
      },
    },
  };
};

/**
 * A record another type points to, through one DataLoader per kind per request (one query per page).
 * A record the caller may not read rejects with FORBIDDEN: the field is null with an error at its path.
 */
export const loadRecord = <Dto extends { id: string }>(
  context: GraphqlContext,
  key: string,
  findByIds: (caller: TenantContext, ids: readonly string[]) => Promise<Dto[]>,
  id: string | null | undefined,
): Promise<Dto | null> | null => {
  if (!id) return null;
  const loader = context.loaders.use(
    key,
    () =>
      new DataLoader<string, Dto | null>(async (ids) => {
        const rows = await findByIds(callerOf(context), ids);
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((each) => byId.get(each) ?? null);
      }),
  );
  return loader.load(id);
};

/** Deep-merges resolver maps (several records of one module each add Query and Mutation fields). */
export const mergeResolvers = (
  ...maps: Record<string, Record<string, unknown>>[]
): Record<string, Record<string, unknown>> => {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) merged[type] = { ...merged[type], ...fields };
  }
  return merged;
};
