import { notFound, type RecordDeps } from "@hisob/crud";
import { audit, diffFields, Prisma, type Tx } from "@hisob/db";
import { AppError, parseInput, requirePermission, systemClock, type TenantContext } from "@hisob/kernel";
import { dateOf, toIsoDate } from "@hisob/kernel/schema";
import { z } from "zod";
import {
  MAX_STAGES,
  type TStageDto,
  ZAddStageInput,
  ZReorderStagesInput,
  ZUpdateStageInput,
} from "./stages.schema";

const stageSelect = {
  id: true,
  projectId: true,
  name: true,
  position: true,
  dueDate: true,
  isDone: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ProjectStageSelect;

type StageRow = Prisma.ProjectStageGetPayload<{ select: typeof stageSelect }>;

const toDto = ({ isDone, dueDate, ...row }: StageRow): TStageDto => ({
  ...row,
  done: isDone,
  dueDate: dueDate ? toIsoDate(dueDate) : null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const projectMissing = () => notFound("projects.project_not_found", "Project not found");
const stageMissing = () => notFound("projects.stage_not_found", "Stage not found");
const ZId = z.uuid();

/**
 * A project's stages in order. Positions are always 0..n-1, no gaps, no duplicates: every change
 * (add, remove, reorder) first locks the project's row, so changes to one project's stages run one
 * after another and each sees the order the previous one committed; a unique index on
 * (tenant, project, position) would refuse a duplicate even if code got it wrong.
 */
export const createStagesService = (deps: RecordDeps) => {
  const clock = deps.clock ?? systemClock;

  const lockProject = async (tx: Tx, tenantId: string, projectId: string) => {
    if (!ZId.safeParse(projectId).success) throw projectMissing();
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM projects WHERE tenant_id = ${tenantId}::uuid AND id = ${projectId.toLowerCase()}::uuid FOR UPDATE`;
    const id = rows[0]?.id;
    if (!id) throw projectMissing();
    return id;
  };

  const stagesOf = (tx: Tx, tenantId: string, projectId: string) =>
    tx.projectStage.findMany({
      where: { tenantId, projectId },
      select: stageSelect,
      orderBy: { position: "asc" },
    });

  /**
   * Gives `ids` the positions 0..n-1 in two statements: first every stage of the project moves a
   * million places down (still distinct, out of the way of the unique index, which PostgreSQL checks row
   * by row), then each takes its final one.
   */
  const renumber = async (tx: Tx, tenantId: string, projectId: string, ids: readonly string[]) => {
    await tx.$executeRaw`
      UPDATE project_stages SET position = position + 1000000
      WHERE tenant_id = ${tenantId}::uuid AND project_id = ${projectId}::uuid`;
    if (ids.length === 0) return;
    const values = Prisma.join(ids.map((id, position) => Prisma.sql`(${id}::uuid, ${position}::int)`));
    await tx.$executeRaw`
      UPDATE project_stages AS s SET position = v.position, updated_at = ${clock.now()}
      FROM (VALUES ${values}) AS v(id, position)
      WHERE s.tenant_id = ${tenantId}::uuid AND s.project_id = ${projectId}::uuid AND s.id = v.id`;
  };

  const raise = (tx: Tx, ctx: TenantContext, type: string, payload: Record<string, unknown>) =>
    deps.outbox.raise(tx, {
      type,
      tenantId: ctx.tenantId,
      payload: { ...payload, actorId: ctx.actor.userId },
    });

  return {
    /** The project's stages, first to last (projects:read:all). */
    list: async (ctx: TenantContext, projectId: string): Promise<TStageDto[]> => {
      requirePermission(ctx, "projects:read:all");
      if (!ZId.safeParse(projectId).success) throw projectMissing();
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const exists = await tx.project.count({
          where: { tenantId: ctx.tenantId, id: projectId.toLowerCase() },
        });
        if (exists === 0) throw projectMissing();
        return (await stagesOf(tx, ctx.tenantId, projectId.toLowerCase())).map(toDto);
      });
    },

    /** Stages of several projects (per-request loaders), grouped by project id. */
    listByProjects: async (
      ctx: TenantContext,
      projectIds: readonly string[],
    ): Promise<Map<string, TStageDto[]>> => {
      requirePermission(ctx, "projects:read:all");
      const ids = projectIds.filter((id) => ZId.safeParse(id).success);
      const rows =
        ids.length === 0
          ? []
          : await deps.db.withTenant(ctx.tenantId, (tx) =>
              tx.projectStage.findMany({
                where: { tenantId: ctx.tenantId, projectId: { in: ids } },
                select: stageSelect,
                orderBy: [{ projectId: "asc" }, { position: "asc" }],
              }),
            );
      const grouped = new Map<string, TStageDto[]>();
      for (const row of rows) grouped.set(row.projectId, [...(grouped.get(row.projectId) ?? []), toDto(row)]);
      return grouped;
    },

    /** Adds a stage at `position` (default: last); the ones after it move down by one. */
    add: async (ctx: TenantContext, projectId: string, raw: unknown): Promise<TStageDto> => {
      requirePermission(ctx, "projects:update:all");
      const input = parseInput(ZAddStageInput, raw);
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const project = await lockProject(tx, ctx.tenantId, projectId);
        const stages = await stagesOf(tx, ctx.tenantId, project);
        if (stages.length >= MAX_STAGES) {
          throw new AppError("BUSINESS_RULE", {
            reason: "projects.too_many_stages",
            message: `A project has at most ${MAX_STAGES} stages`,
          });
        }
        const now = clock.now();
        const created = await tx.projectStage.create({
          data: {
            tenantId: ctx.tenantId,
            projectId: project,
            name: input.name,
            dueDate: input.dueDate ? dateOf(input.dueDate) : null,
            position: stages.length,
            createdAt: now,
            updatedAt: now,
          },
          select: { id: true },
        });
        const at = Math.min(input.position ?? stages.length, stages.length);
        if (at < stages.length) {
          const order = stages.map((stage) => stage.id);
          order.splice(at, 0, created.id);
          await renumber(tx, ctx.tenantId, project, order);
        }
        const row = await tx.projectStage.findFirst({
          where: { tenantId: ctx.tenantId, id: created.id },
          select: stageSelect,
        });
        if (!row) throw stageMissing();
        await raise(tx, ctx, "StageAdded", { id: row.id, projectId: project, position: row.position });
        await audit(tx, ctx, "project_stage", row.id, "create", { after: toDto(row) });
        return toDto(row);
      });
    },

    update: async (ctx: TenantContext, stageId: string, raw: unknown): Promise<TStageDto> => {
      requirePermission(ctx, "projects:update:all");
      const input = parseInput(ZUpdateStageInput, raw);
      if (!ZId.safeParse(stageId).success) throw stageMissing();
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const id = stageId.toLowerCase();
        const before = await tx.projectStage.findFirst({
          where: { tenantId: ctx.tenantId, id },
          select: stageSelect,
        });
        if (!before) throw stageMissing();
        const updated = await tx.projectStage.updateMany({
          where: { tenantId: ctx.tenantId, id },
          data: {
            ...(input.name === undefined ? {} : { name: input.name }),
            ...(input.dueDate === undefined ? {} : { dueDate: input.dueDate ? dateOf(input.dueDate) : null }),
            ...(input.done === undefined ? {} : { isDone: input.done }),
            updatedAt: clock.now(),
          },
        });
        if (updated.count === 0) throw stageMissing();
        const row = await tx.projectStage.findFirst({
          where: { tenantId: ctx.tenantId, id },
          select: stageSelect,
        });
        if (!row) throw stageMissing();
        await raise(tx, ctx, "StageUpdated", { id, projectId: row.projectId });
        await audit(tx, ctx, "project_stage", id, "update", diffFields(toDto(before), toDto(row)));
        return toDto(row);
      });
    },

    /** Removes a stage; the ones after it move up, so no gap is left. */
    delete: async (ctx: TenantContext, stageId: string): Promise<void> => {
      requirePermission(ctx, "projects:update:all");
      if (!ZId.safeParse(stageId).success) throw stageMissing();
      await deps.db.withTenant(ctx.tenantId, async (tx) => {
        const id = stageId.toLowerCase();
        const stage = await tx.projectStage.findFirst({
          where: { tenantId: ctx.tenantId, id },
          select: stageSelect,
        });
        if (!stage) throw stageMissing();
        const project = await lockProject(tx, ctx.tenantId, stage.projectId);
        const deleted = await tx.projectStage.deleteMany({ where: { tenantId: ctx.tenantId, id } });
        // Deleted meanwhile by someone who held the lock first.
        if (deleted.count === 0) throw stageMissing();
        const rest = await stagesOf(tx, ctx.tenantId, project);
        await renumber(
          tx,
          ctx.tenantId,
          project,
          rest.map((each) => each.id),
        );
        await raise(tx, ctx, "StageDeleted", { id, projectId: project });
        await audit(tx, ctx, "project_stage", id, "delete", { before: toDto(stage) });
      });
    },

    /** Puts the project's stages in the given order: every stage exactly once (else 400 on stageIds). */
    reorder: async (ctx: TenantContext, projectId: string, raw: unknown): Promise<TStageDto[]> => {
      requirePermission(ctx, "projects:update:all");
      const { stageIds } = parseInput(ZReorderStagesInput, raw);
      return deps.db.withTenant(ctx.tenantId, async (tx) => {
        const project = await lockProject(tx, ctx.tenantId, projectId);
        const current = await stagesOf(tx, ctx.tenantId, project);
        const known = new Set(current.map((stage) => stage.id));
        if (
          new Set(stageIds).size !== stageIds.length ||
          stageIds.length !== known.size ||
          stageIds.some((id) => !known.has(id))
        ) {
          throw new AppError("VALIDATION_ERROR", {
            reason: "projects.reorder_mismatch",
            message: "validation error: stageIds must list every stage of the project exactly once",
            params: {
              issues: [{ path: "stageIds", message: "must list every stage of the project exactly once" }],
            },
          });
        }
        await renumber(tx, ctx.tenantId, project, stageIds);
        await raise(tx, ctx, "StagesReordered", { projectId: project, stageIds });
        await audit(tx, ctx, "project", project, "reorder_stages", {
          before: { stageIds: current.map((stage) => stage.id) },
          after: { stageIds },
        });
        return (await stagesOf(tx, ctx.tenantId, project)).map(toDto);
      });
    },
  };
};

export type StagesService = ReturnType<typeof createStagesService>;
