import { type Db, isUniqueViolation, type Tx } from "@hisob/db";
import {
  type AppError,
  type Page,
  type Permission,
  parseInput,
  requirePermission,
  type TenantContext,
} from "@hisob/kernel";
import type { z } from "zod";

/*
 * What a tenant's named bundles of permissions — roles and groups — share: the reads (a page, one
 * by id, and the record as it stands inside a change), a unique name, and name/description edits.
 * Their changes differ (the admin role's rules; a group's roles and members) and stay their own.
 */

type Repository<Q extends z.ZodType, Dto> = {
  list(tx: Tx, tenantId: string, query: z.output<Q>): Promise<{ items: Dto[]; total: number }>;
  findDto(tx: Tx, tenantId: string, id: string): Promise<Dto | null>;
};

export const namedRecordReads = <Q extends z.ZodType<{ limit: number; offset: number }>, Dto>(deps: {
  db: Db;
  /** Needed to read: list and get. */
  read: Permission;
  listQuery: Q;
  repository: Repository<Q, Dto>;
  notFound: () => AppError;
}) => {
  const { db, read, listQuery, repository, notFound } = deps;

  /** The record as it stands after a change, in the change's transaction (the caller may not hold read). */
  const current = async (tx: Tx, tenantId: string, id: string): Promise<Dto> => {
    const record = await repository.findDto(tx, tenantId, id);
    if (!record) throw notFound();
    return record;
  };

  return {
    current,
    get: async (ctx: TenantContext, id: string): Promise<Dto> => {
      requirePermission(ctx, read);
      return db.withTenant(ctx.tenantId, (tx) => current(tx, ctx.tenantId, id));
    },
    list: async (ctx: TenantContext, rawQuery: z.input<Q>): Promise<Page<Dto>> => {
      requirePermission(ctx, read);
      const query = parseInput(listQuery, rawQuery);
      const page = await db.withTenant(ctx.tenantId, (tx) => repository.list(tx, ctx.tenantId, query));
      return { ...page, limit: query.limit, offset: query.offset };
    },
  };
};

/** A write's failure: the taken-name error for a unique violation, else the failure itself. */
export const rethrowNameTaken =
  (nameTaken: () => AppError) =>
  (error: unknown): never => {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  };

/** The columns an edit of name and description changes (absent fields stay), stamped `now`. */
export const nameAndDescription = (
  input: { name?: string | undefined; description?: string | undefined },
  now: Date,
) => ({
  ...(input.name === undefined ? {} : { name: input.name }),
  ...(input.description === undefined ? {} : { description: input.description }),
  updatedAt: now,
});
