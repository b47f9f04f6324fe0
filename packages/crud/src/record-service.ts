import {
  audit,
  type Db,
  diffFields,
  isUniqueViolation,
  type Outbox,
  type Tx,
  violatedForeignKey,
} from "@hisob/db";
import {
  AppError,
  type Clock,
  type FilterSpec,
  filterConditions,
  type Page,
  type Permission,
  parseFilters,
  parseInput,
  parseSort,
  requirePermission,
  systemClock,
  type TenantContext,
  ZPagination,
} from "@hisob/kernel";
import { z } from "zod";

/*
 * One building block for a tenant-owned record: list (pagination, sort, the shared filter grammar), get,
 * batch read for loaders, create, update and delete, each checking its permission first, scoping every
 * statement to the caller's tenant inside `withTenant` (row-level security behind it), checking that ids
 * in the input name records of the same tenant, mapping uniqueness and "still referenced" to CONFLICT, and
 * writing a `<Name>Created/Updated/Deleted` event to the outbox and an audit entry (`auditEntity`: the
 * record whole on create and delete, the changed fields on update) in the same transaction.
 *
 * What is particular to a record stays in its definition as plain functions (`toData`, `beforeUpdate`,
 * `beforeDelete`, `view`); what is particular to a domain (stock movements, state machines, ordering)
 * stays in the module's own service, which may use `records.get`/`findRow` for the common part. A record
 * whose writes are all particular (finance's debts and inventory items) takes only the reads:
 * `createRecordReads` (docs/decisions/0096-tests-beside-their-features-crud-reads.md).
 */

/* biome-ignore lint/suspicious/noExplicitAny: Prisma's delegates differ per model; rows are typed by `toDto` */
type Args = any;

/** The part of a Prisma model delegate the block uses (every model has it). */
export type RecordDelegate = {
  findMany(args: Args): Promise<unknown[]>;
  findFirst(args: Args): Promise<unknown>;
  count(args: Args): Promise<number>;
  create(args: Args): Promise<unknown>;
  updateMany(args: Args): Promise<{ count: number }>;
  deleteMany(args: Args): Promise<{ count: number }>;
};

/** An id in the input that must name a record of the caller's tenant (else NOT_FOUND naming the field). */
export type RecordReference = {
  /** The referenced record, for the message: "Client not found". */
  label: string;
  /** Stable reason, e.g. `crm.client_not_found`. */
  reason: string;
  exists(tx: Tx, tenantId: string, id: string): Promise<boolean>;
  /** The refusal when it does not exist; default NOT_FOUND `${label} not found (field)`. */
  refuse?: (field: string) => AppError;
};

export type RecordDefinition<Row, Dto extends { id: string }, C extends z.ZodType, U extends z.ZodType> = {
  /** Event name, e.g. "Client" → ClientCreated, ClientUpdated, ClientDeleted. */
  name: string;
  /**
   * The audit log's name of the record (`crm_client`, `employee`…): every create, update and delete is
   * audited in its transaction with the record's DTO as `toDto` gives it (before `view` hides anything;
   * readers without the right permission get protected fields masked, see protectAuditFields).
   */
  auditEntity: string;
  /** The answer for an id that names no record of the caller's tenant. */
  missing: { reason: string; message: string };
  permissions: { read: Permission; create: Permission; update: Permission; delete: Permission };
  model: (tx: Tx) => RecordDelegate;
  select: Record<string, unknown>;
  toDto: (row: Row) => Dto;
  createInput: C;
  updateInput: U;
  /** Sortable fields (Prisma field names); the first is the default, `id` always breaks ties. */
  sortFields: readonly [string, ...string[]];
  defaultOrder?: "asc" | "desc";
  /**
   * How one sort field orders the rows; default `{ [field]: order }`. Debts put those without a due
   * date last in either direction: `{ dueDate: { sort: order, nulls: "last" } }`.
   */
  orderOf?: (field: string, order: "asc" | "desc") => Record<string, unknown>;
  filters: FilterSpec;
  /**
   * Conditions from a list query's own named parameters beyond the shared grammar (finance's
   * `?type=customer&search=…`): the query as the caller's service parsed it → a Prisma where.
   */
  listWhere?: (query: Record<string, unknown>) => Record<string, unknown>;
  /** Input fields holding ids of other tenant-owned records. */
  references?: Readonly<Record<string, RecordReference>>;
  /** Validated input → the row's columns (money strings to bigint, dates, `createdBy`…); default: as is. */
  toData?: (
    input: Record<string, unknown>,
    ctx: TenantContext,
    operation: "create" | "update",
  ) => Record<string, unknown>;
  /** Rules on a new record beyond its schema (a code another module already uses, …); throw AppError to refuse. */
  beforeCreate?: (tx: Tx, ctx: TenantContext, input: z.output<C>) => Promise<void> | void;
  /** Rules that need the stored row (a closed record is read-only, …); throw AppError to refuse. */
  beforeUpdate?: (tx: Tx, ctx: TenantContext, current: Row, input: z.output<U>) => Promise<void> | void;
  beforeDelete?: (tx: Tx, ctx: TenantContext, current: Row) => Promise<void> | void;
  /** What this caller may see of a record (hide a field without a permission). */
  view?: (ctx: TenantContext, dto: Dto) => Dto;
  conflicts?: {
    /** A unique index refused the write. */
    unique?: { reason: string; message: string };
    /** A foreign key refused the delete: something still refers to the record. */
    inUse?: { reason: string; message: string };
  };
};

/**
 * What the reads need (list, get, batch read): a record whose writes carry rules of their own (a
 * debt's row lock and idempotency, an item's stock movements) keeps its writes in its module and
 * lists, counts and reads through the block.
 */
export type RecordReadDefinition<Row, Dto extends { id: string }> = Pick<
  RecordDefinition<Row, Dto, z.ZodType, z.ZodType>,
  | "missing"
  | "model"
  | "select"
  | "toDto"
  | "sortFields"
  | "defaultOrder"
  | "orderOf"
  | "filters"
  | "listWhere"
  | "view"
> & { permissions: { read: Permission } };

export type RecordDeps = { db: Db; outbox: Outbox; clock?: Clock };

/** The shared list arguments (GraphQL's `offset, limit, sortBy, ascending, filters`; REST's `order`). */
export type TRecordListQuery = {
  /** A record's own named list parameters (see `listWhere`). */
  [parameter: string]: unknown;
  offset?: number | undefined;
  limit?: number | undefined;
  sortBy?: string | readonly string[] | null | undefined;
  order?: "asc" | "desc" | undefined;
  filters?: unknown;
};

const ZOrder = z.enum(["asc", "desc"]).optional();

type ListShape = Pick<RecordReadDefinition<never, { id: string }>, "listWhere" | "orderOf">;

/**
 * The rows a list (and its download) shows of a tenant: the record's named list parameters
 * (`listWhere`) and the shared grammar's conditions, all of which must hold.
 */
export const recordWhere = (
  def: ListShape,
  tenantId: string,
  query: Record<string, unknown>,
  conditions: readonly Record<string, unknown>[] = [],
) => ({ AND: [{ tenantId }, ...conditions, ...(def.listWhere ? [def.listWhere(query)] : [])] });

/**
 * The list's order: each sort field as the record orders it (`orderOf`), then the id, so pages and a
 * download's keyset batches never repeat or skip a row.
 */
export const recordOrder = (
  def: ListShape,
  sort: readonly { field: string; order: "asc" | "desc" }[],
  order: "asc" | "desc",
) => [
  ...sort.map((entry) =>
    def.orderOf ? def.orderOf(entry.field, entry.order) : { [entry.field]: entry.order },
  ),
  { id: order },
];

const ZId = z.uuid();

export const notFound = (reason: string, message: string, field?: string) =>
  new AppError("NOT_FOUND", {
    reason,
    message: field ? `${message} (${field})` : message,
    ...(field
      ? { params: { issues: [{ path: field, message: "names no record of this organization" }] } }
      : {}),
  });

/** Only what the row's `updateMany` may take: undefined fields are left alone by Prisma. */
const definedOnly = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));

/**
 * A record's reads, each checking the read permission first and scoping every statement to the
 * caller's tenant: the list (pagination, sort, the shared filter grammar and the record's named
 * parameters, its count in the same transaction), one record by id, the batch read for loaders.
 */
export const createRecordReads = <Row, Dto extends { id: string }>(
  def: RecordReadDefinition<Row, Dto>,
  deps: { db: Db },
) => {
  const { db } = deps;
  const missing = () => notFound(def.missing.reason, def.missing.message);
  const view = (ctx: TenantContext, dto: Dto) => (def.view ? def.view(ctx, dto) : dto);

  const findRow = async (tx: Tx, tenantId: string, id: string): Promise<Row | null> => {
    if (!ZId.safeParse(id).success) return null;
    return (await def
      .model(tx)
      .findFirst({ where: { tenantId, id: id.toLowerCase() }, select: def.select })) as Row | null;
  };

  return {
    list: async (ctx: TenantContext, query: TRecordListQuery = {}): Promise<Page<Dto>> => {
      requirePermission(ctx, def.permissions.read);
      const page = parseInput(ZPagination, { limit: query.limit, offset: query.offset });
      const order =
        parseInput(z.object({ order: ZOrder }), { order: query.order }).order ?? def.defaultOrder ?? "asc";
      const sort = parseSort(def.sortFields, query.sortBy, order);
      const filters = parseFilters(def.filters, query.filters);
      const where = recordWhere(def, ctx.tenantId, query, filterConditions(filters));
      const orderBy = recordOrder(def, sort.length > 0 ? sort : [{ field: def.sortFields[0], order }], order);
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          def.model(tx).findMany({ where, select: def.select, orderBy, skip: page.offset, take: page.limit }),
          def.model(tx).count({ where }),
        ]),
      );
      return {
        items: (rows as Row[]).map((row) => view(ctx, def.toDto(row))),
        total,
        limit: page.limit,
        offset: page.offset,
      };
    },

    get: async (ctx: TenantContext, id: string): Promise<Dto> => {
      requirePermission(ctx, def.permissions.read);
      const row = await db.withTenant(ctx.tenantId, (tx) => findRow(tx, ctx.tenantId, id));
      if (!row) throw missing();
      return view(ctx, def.toDto(row));
    },

    /** Batch read for per-request loaders: those of the caller's tenant, in any order; malformed ids skipped. */
    findByIds: async (ctx: TenantContext, ids: readonly string[]): Promise<Dto[]> => {
      requirePermission(ctx, def.permissions.read);
      const valid = [...new Set(ids.filter((id) => ZId.safeParse(id).success).map((id) => id.toLowerCase()))];
      if (valid.length === 0) return [];
      const rows = await db.withTenant(ctx.tenantId, (tx) =>
        def.model(tx).findMany({ where: { tenantId: ctx.tenantId, id: { in: valid } }, select: def.select }),
      );
      return (rows as Row[]).map((row) => view(ctx, def.toDto(row)));
    },

    /** The stored row in a module's own transaction (for rules beyond the common five operations). */
    findRow,
    /** The record as its DTO, for a module's own operations. */
    toDto: (ctx: TenantContext, row: Row) => view(ctx, def.toDto(row)),
    missing,
  };
};

export const createRecordService = <
  Row,
  Dto extends { id: string },
  C extends z.ZodType,
  U extends z.ZodType,
>(
  def: RecordDefinition<Row, Dto, C, U>,
  deps: RecordDeps,
) => {
  const { db, outbox } = deps;
  const clock = deps.clock ?? systemClock;
  const reads = createRecordReads(def, deps);
  const { findRow, missing } = reads;
  const view = (ctx: TenantContext, dto: Dto) => (def.view ? def.view(ctx, dto) : dto);
  const toData = (input: Record<string, unknown>, ctx: TenantContext, operation: "create" | "update") =>
    def.toData ? def.toData(input, ctx, operation) : input;

  /** Every id the input names must be a record of this tenant: another tenant's is NOT_FOUND, like an unknown one. */
  const checkReferences = async (tx: Tx, tenantId: string, input: Record<string, unknown>) => {
    for (const [field, reference] of Object.entries(def.references ?? {})) {
      const id = input[field];
      if (typeof id !== "string") continue;
      if (!(await reference.exists(tx, tenantId, id))) {
        throw reference.refuse?.(field) ?? notFound(reference.reason, `${reference.label} not found`, field);
      }
    }
  };

  /** Database refusals that are the caller's: a duplicate, or a reference deleted meanwhile. */
  const writeError = (error: unknown): unknown => {
    if (def.conflicts?.unique && isUniqueViolation(error)) {
      return new AppError("CONFLICT", def.conflicts.unique);
    }
    const constraint = violatedForeignKey(error);
    if (constraint !== null) {
      const field = Object.keys(def.references ?? {}).find((name) =>
        constraint.includes(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)),
      );
      const reference = field ? def.references?.[field] : undefined;
      if (field && reference) {
        return reference.refuse?.(field) ?? notFound(reference.reason, `${reference.label} not found`, field);
      }
    }
    return error;
  };

  const raise = (
    tx: Tx,
    ctx: TenantContext,
    verb: "Created" | "Updated" | "Deleted",
    payload: Record<string, unknown>,
  ) =>
    outbox.raise(tx, {
      type: `${def.name}${verb}`,
      tenantId: ctx.tenantId,
      payload: { ...payload, actorId: ctx.actor.userId },
    });

  return {
    definition: def,
    ...reads,

    create: async (ctx: TenantContext, raw: unknown): Promise<Dto> => {
      requirePermission(ctx, def.permissions.create);
      const input = parseInput(def.createInput, raw) as Record<string, unknown>;
      const now = clock.now();
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          await checkReferences(tx, ctx.tenantId, input);
          await def.beforeCreate?.(tx, ctx, input as z.output<C>);
          const row = (await def.model(tx).create({
            data: { ...toData(input, ctx, "create"), tenantId: ctx.tenantId, createdAt: now, updatedAt: now },
            select: def.select,
          })) as Row;
          const dto = def.toDto(row);
          await raise(tx, ctx, "Created", { id: dto.id });
          await audit(tx, ctx, def.auditEntity, dto.id, "create", { after: dto });
          return view(ctx, dto);
        });
      } catch (error) {
        throw writeError(error);
      }
    },

    update: async (ctx: TenantContext, id: string, raw: unknown): Promise<Dto> => {
      requirePermission(ctx, def.permissions.update);
      const input = parseInput(def.updateInput, raw) as z.output<U>;
      try {
        return await db.withTenant(ctx.tenantId, async (tx) => {
          const current = await findRow(tx, ctx.tenantId, id);
          if (!current) throw missing();
          await checkReferences(tx, ctx.tenantId, input as Record<string, unknown>);
          await def.beforeUpdate?.(tx, ctx, current, input);
          const key = id.toLowerCase();
          await def.model(tx).updateMany({
            where: { tenantId: ctx.tenantId, id: key },
            data: {
              ...definedOnly(toData(input as Record<string, unknown>, ctx, "update")),
              updatedAt: clock.now(),
            },
          });
          const row = await findRow(tx, ctx.tenantId, key);
          if (!row) throw missing();
          const dto = def.toDto(row);
          await raise(tx, ctx, "Updated", {
            id: dto.id,
            fields: Object.keys(definedOnly(input as Record<string, unknown>)),
          });
          await audit(tx, ctx, def.auditEntity, dto.id, "update", diffFields(def.toDto(current), dto));
          return view(ctx, dto);
        });
      } catch (error) {
        throw writeError(error);
      }
    },

    /** Refused with CONFLICT while another record refers to it (the tenant-scoped foreign keys decide, race-free). */
    delete: async (ctx: TenantContext, id: string): Promise<void> => {
      requirePermission(ctx, def.permissions.delete);
      try {
        await db.withTenant(ctx.tenantId, async (tx) => {
          const current = await findRow(tx, ctx.tenantId, id);
          if (!current) throw missing();
          await def.beforeDelete?.(tx, ctx, current);
          const deleted = await def
            .model(tx)
            .deleteMany({ where: { tenantId: ctx.tenantId, id: id.toLowerCase() } });
          if (deleted.count === 0) throw missing();
          await raise(tx, ctx, "Deleted", { id: id.toLowerCase() });
          await audit(tx, ctx, def.auditEntity, id.toLowerCase(), "delete", { before: def.toDto(current) });
        });
      } catch (error) {
        if (def.conflicts?.inUse && violatedForeignKey(error) !== null) {
          throw new AppError("CONFLICT", def.conflicts.inUse);
        }
        throw error;
      }
    },
  };
};

export type RecordService<Dto extends { id: string }> = {
  list(ctx: TenantContext, query?: TRecordListQuery): Promise<Page<Dto>>;
  get(ctx: TenantContext, id: string): Promise<Dto>;
  findByIds(ctx: TenantContext, ids: readonly string[]): Promise<Dto[]>;
  create(ctx: TenantContext, raw: unknown): Promise<Dto>;
  update(ctx: TenantContext, id: string, raw: unknown): Promise<Dto>;
  delete(ctx: TenantContext, id: string): Promise<void>;
};

/** A reference checker for a model with (tenant_id, id): `exists: existsIn((tx) => tx.crmClient)`. */
export const existsIn =
  (model: (tx: Tx) => RecordDelegate) =>
  async (tx: Tx, tenantId: string, id: string): Promise<boolean> =>
    ZId.safeParse(id).success && (await model(tx).count({ where: { tenantId, id: id.toLowerCase() } })) > 0;
