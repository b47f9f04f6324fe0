import type { Db, Tx } from "@hisob/db";
import { type AppError, type Page, parseInput, requirePermission, type TenantContext } from "@hisob/kernel";
import type { z } from "zod";
import type { FinancePermission } from "./finance.permissions";

/** The reads a feature's repository offers, each for one tenant. */
export type RepositoryReads<Query, Dto> = {
  findById(tx: Tx, tenantId: string, id: string): Promise<Dto | null>;
  findByIds(tx: Tx, tenantId: string, ids: readonly string[]): Promise<Dto[]>;
  list(tx: Tx, tenantId: string, query: Query): Promise<{ items: Dto[]; total: number }>;
};

/**
 * A service's three reads over its repository, behind one read permission: the list (its query
 * parsed), the batch read for per-request loaders (GraphQL) and one record by id (not found → the
 * feature's 404).
 */
export const repositoryReads = <S extends z.ZodType<{ limit: number; offset: number }>, Dto>(deps: {
  db: Db;
  permission: FinancePermission;
  listQuery: S;
  repository: RepositoryReads<z.output<S>, Dto>;
  notFound: () => AppError;
}) => {
  const { db, permission, listQuery, repository } = deps;
  return {
    list: async (ctx: TenantContext, rawQuery: z.input<S>): Promise<Page<Dto>> => {
      requirePermission(ctx, permission);
      const query = parseInput(listQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, (tx) => repository.list(tx, ctx.tenantId, query));
      return { ...page, limit: query.limit, offset: query.offset };
    },

    /** Batch read for per-request loaders (GraphQL): the ones that exist in the caller's tenant, any order. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<Dto[]> => {
      requirePermission(ctx, permission);
      if (ids.length === 0) return [];
      return db.withTenant(ctx.tenantId, (tx) => repository.findByIds(tx, ctx.tenantId, ids));
    },

    get: async (ctx: TenantContext, id: string): Promise<Dto> => {
      requirePermission(ctx, permission);
      const found = await db.withTenant(ctx.tenantId, (tx) => repository.findById(tx, ctx.tenantId, id));
      if (!found) throw deps.notFound();
      return found;
    },
  };
};
