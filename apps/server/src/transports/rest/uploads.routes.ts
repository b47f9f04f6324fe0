import fastifyMultipart from "@fastify/multipart";
import { type CoreServices, ZListUploadsQuery, ZUploadDto } from "@hisob/core";
import { AppError, isAppError, ZPage } from "@hisob/kernel";
import { create as contentDisposition } from "content-disposition";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../shared/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["uploads"];
const MAX_FILES_PER_REQUEST = 20;

/** Types safe to show inline in a browser (no active content); everything else downloads. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"]);

/**
 * A multipart body the parser could not read. The parser's limits (too many files or parts) keep
 * their 413; everything else (no boundary, a body cut short, an aborted upload) is a 400 naming the problem.
 */
const invalidMultipart = (error: unknown): unknown => {
  if (isAppError(error)) return error;
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (statusCode === 413) return error;
  const detail = error instanceof Error ? error.message.replace(/^Multipart: /, "") : "unreadable body";
  return new AppError("VALIDATION_ERROR", {
    reason: "request.invalid_multipart",
    message: `validation error: the multipart body is malformed (${detail.slice(0, 200)})`,
    params: {
      issues: [{ path: "body", message: `is not valid multipart/form-data: ${detail.slice(0, 200)}` }],
    },
  });
};

export const uploadsRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  const { uploads } = services;
  await app.register(fastifyMultipart, {
    // One byte over our own limit reaches the service, which refuses it; busboy cuts anything longer.
    limits: {
      fileSize: uploads.maxBytes + 1,
      files: MAX_FILES_PER_REQUEST,
      fields: 10,
      fieldSize: 1024,
      parts: 40,
      headerPairs: 100,
    },
  });

  app.post(
    "/uploads",
    {
      schema: {
        tags,
        summary: "Upload one or more files (multipart/form-data; uploads:create:all; 100 MiB per file)",
        description:
          "All or nothing: if any file is refused, none is kept. Cookie-authenticated uploads need the x-csrf-token header.",
        consumes: ["multipart/form-data"],
        response: { 201: z.object({ items: z.array(ZUploadDto) }) },
      },
    },
    async (request, reply) => {
      const ctx = ctxOf(request);
      if (!request.isMultipart()) {
        throw new AppError("VALIDATION_ERROR", {
          reason: "upload.not_multipart",
          message: "validation error: body must be multipart/form-data",
        });
      }
      const saved: string[] = [];
      const items = [];
      try {
        const parts = request.files();
        for (;;) {
          // The parser's own failures (no boundary, a body cut short, garbage) are the client's.
          const next = await parts.next().catch((error: unknown) => {
            throw invalidMultipart(error);
          });
          if (next.done) break;
          const part = next.value;
          let sourceError: unknown;
          part.file.once("error", (error: unknown) => {
            sourceError = error;
          });
          try {
            const upload = await uploads.save(ctx, { filename: part.filename, stream: part.file });
            saved.push(upload.id);
            items.push(upload);
          } catch (error) {
            // Our refusals (too large, storage) stand; a broken source stream is the client's.
            const broken = sourceError ?? part.file.errored ?? undefined;
            throw isAppError(error) || broken === undefined ? error : invalidMultipart(broken);
          }
        }
      } catch (error) {
        await uploads.discard(ctx, saved);
        throw error;
      }
      if (items.length === 0) {
        throw new AppError("VALIDATION_ERROR", {
          reason: "upload.no_file",
          message: "validation error: file is required",
          params: { issues: [{ path: "file", message: "is required" }] },
        });
      }
      return reply.code(201).send({ items });
    },
  );

  app.get(
    "/uploads",
    {
      schema: {
        tags,
        summary: "List uploads (uploads:read:all; uploads:read:own lists one's own)",
        querystring: ZListUploadsQuery,
        response: { 200: ZPage(ZUploadDto) },
      },
    },
    (request) => uploads.list(ctxOf(request), request.query),
  );

  app.get(
    "/uploads/:id",
    { schema: { tags, summary: "An upload's metadata", params: ZIdParams, response: { 200: ZUploadDto } } },
    (request) => uploads.get(ctxOf(request), request.params.id),
  );

  app.get(
    "/uploads/:id/content",
    {
      config: { freshCaller: true },
      schema: { tags, summary: "Download an upload's bytes", params: ZIdParams },
    },
    async (request, reply) => {
      const { upload, stream } = await uploads.open(ctxOf(request), request.params.id);
      const disposition = INLINE_TYPES.has(upload.mimeType) ? "inline" : "attachment";
      return (
        reply
          .type(upload.mimeType)
          .header("content-length", String(upload.size))
          .header("content-disposition", contentDisposition(upload.name, { type: disposition }))
          .header("x-content-type-options", "nosniff")
          // Even if a browser renders it, the file gets no scripts and no access to our origin.
          .header(
            "content-security-policy",
            "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
          )
          .header("cache-control", "private, no-store")
          .header("etag", `"${upload.sha256}"`)
          .send(stream)
      );
    },
  );

  app.delete(
    "/uploads/:id",
    {
      schema: {
        tags,
        summary: "Delete an upload (uploads:delete:all; uploads:delete:own for one's own)",
        params: ZIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await uploads.remove(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
