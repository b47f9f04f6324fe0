import type { Readable } from "node:stream";
import { audit, type Db, type Prisma } from "@hisob/db";
import {
  AppError,
  containsText,
  likeLiteral,
  newId,
  type Page,
  parseInput,
  requirePermission,
  requireScope,
  type TenantContext,
} from "@hisob/kernel";
import type { z } from "zod";
import { sniffMimeType } from "./sniff";
import type { UploadStorage } from "./storage";
import { cleanFileName, MAX_UPLOAD_BYTES, type TUploadDto, ZListUploadsQuery } from "./uploads.schema";

type UploadRow = Prisma.UploadGetPayload<object>;

const toDto = (row: UploadRow): TUploadDto => ({
  id: row.id,
  name: row.originalName,
  size: Number(row.size),
  mimeType: row.mimeType,
  sha256: row.sha256,
  createdById: row.createdById,
  createdAt: row.createdAt.toISOString(),
  contentUrl: `/uploads/${row.id}/content`,
});

/** A partial file untouched this long belongs to an upload no process is writing any more. */
export const STALE_PARTIAL_MS = 60 * 60_000;

const notFound = () => new AppError("NOT_FOUND", { reason: "upload.not_found", message: "Upload not found" });

export const createUploadsService = (deps: { db: Db; storage: UploadStorage; maxBytes?: number }) => {
  const { db, storage } = deps;
  const maxBytes = deps.maxBytes ?? MAX_UPLOAD_BYTES;

  /** own-scoped readers see only what they uploaded. */
  const ownerFilter = (ctx: TenantContext, action: "read" | "delete") =>
    requireScope(ctx, "uploads", action) === "own" ? { createdById: ctx.actor.userId } : {};

  const find = (ctx: TenantContext, id: string, action: "read" | "delete") =>
    db.withTenant(ctx.tenantId, (tx) =>
      tx.upload.findFirst({ where: { tenantId: ctx.tenantId, id, ...ownerFilter(ctx, action) } }),
    );

  return {
    maxBytes,

    /** Removes partial files of uploads interrupted by a crash (at start, then hourly; see main.ts). */
    sweepStalePartials: (olderThanMs = STALE_PARTIAL_MS) => storage.sweepPartials(olderThanMs),

    /** Streams one file to storage, sniffs its type and records it; nothing remains if any step fails. */
    save: async (
      ctx: TenantContext,
      file: { filename: string | undefined; stream: Readable },
    ): Promise<TUploadDto> => {
      requirePermission(ctx, "uploads:create:all");
      const id = newId();
      const stored = await storage.write(ctx.tenantId, id, file.stream, maxBytes);
      try {
        const mimeType = await sniffMimeType(stored.head);
        const row = await db.withTenant(ctx.tenantId, async (tx) => {
          const created = await tx.upload.create({
            data: {
              id,
              tenantId: ctx.tenantId,
              originalName: cleanFileName(file.filename),
              size: BigInt(stored.size),
              mimeType,
              sha256: stored.sha256,
              createdById: ctx.actor.userId,
            },
          });
          await audit(tx, ctx, "upload", id, "create", { after: toDto(created) });
          // The bytes become visible under their id only together with the row.
          await stored.commit();
          return created;
        });
        return toDto(row);
      } catch (error) {
        await stored.discard();
        throw error;
      }
    },

    /** Removes uploads made by a request that failed part-way (all-or-nothing multi-file posts). */
    discard: async (ctx: TenantContext, ids: string[]) => {
      if (ids.length === 0) return;
      await db.withTenant(ctx.tenantId, async (tx) => {
        const rows = await tx.upload.findMany({ where: { tenantId: ctx.tenantId, id: { in: ids } } });
        await tx.upload.deleteMany({ where: { tenantId: ctx.tenantId, id: { in: ids } } });
        for (const row of rows) await audit(tx, ctx, "upload", row.id, "delete", { before: toDto(row) });
      });
      for (const id of ids) await storage.remove(ctx.tenantId, id);
    },

    list: async (ctx: TenantContext, raw: z.input<typeof ZListUploadsQuery>): Promise<Page<TUploadDto>> => {
      const where: Prisma.UploadWhereInput = { tenantId: ctx.tenantId, ...ownerFilter(ctx, "read") };
      const query = parseInput(ZListUploadsQuery, raw);
      if (query.name) where.originalName = containsText(query.name);
      if (query.mimeType) where.mimeType = { startsWith: likeLiteral(query.mimeType) }; // LIKE '…%', unescaped by Prisma
      const sortColumn = query.sortBy === "name" ? "originalName" : query.sortBy;
      const [rows, total] = await db.withTenant(ctx.tenantId, (tx) =>
        Promise.all([
          tx.upload.findMany({
            where,
            orderBy: [{ [sortColumn]: query.order }, { id: query.order }],
            skip: query.offset,
            take: query.limit,
          }),
          tx.upload.count({ where }),
        ]),
      );
      return { items: rows.map(toDto), total, limit: query.limit, offset: query.offset };
    },

    get: async (ctx: TenantContext, id: string): Promise<TUploadDto> => {
      const row = await find(ctx, id, "read");
      if (!row) throw notFound();
      return toDto(row);
    },

    /** The metadata and a stream of the bytes. */
    open: async (ctx: TenantContext, id: string): Promise<{ upload: TUploadDto; stream: Readable }> => {
      const row = await find(ctx, id, "read");
      if (!row) throw notFound();
      try {
        return { upload: toDto(row), stream: await storage.read(ctx.tenantId, id) };
      } catch (error) {
        // The storage's own answer (an unreachable bucket: 503) stands; anything else means no content.
        if (error instanceof AppError) throw error;
        throw new AppError("NOT_FOUND", {
          reason: "upload.content_missing",
          message: "The file's content is missing",
        });
      }
    },

    remove: async (ctx: TenantContext, id: string): Promise<void> => {
      const filter = ownerFilter(ctx, "delete");
      await db.withTenant(ctx.tenantId, async (tx) => {
        const row = await tx.upload.findFirst({ where: { tenantId: ctx.tenantId, id, ...filter } });
        const deleted = await tx.upload.deleteMany({ where: { tenantId: ctx.tenantId, id, ...filter } });
        if (!row || deleted.count === 0) throw notFound();
        await audit(tx, ctx, "upload", row.id, "delete", { before: toDto(row) });
      });
      await storage.remove(ctx.tenantId, id);
    },
  };
};

export type UploadsService = ReturnType<typeof createUploadsService>;
