import { PassThrough } from "node:stream";
import { type PreparedExport, XLSX_CONTENT_TYPE } from "@hisob/core";
import { create as contentDisposition } from "content-disposition";
import type { FastifyReply, FastifyRequest } from "fastify";

export { XLSX_CONTENT_TYPE };

/**
 * Streams a prepared spreadsheet: permission and input were checked when it was prepared, and its
 * first query runs before the headers go, so those failures still get a proper status; a failure
 * later can only cut the download (and is logged).
 */
export const sendXlsx = async (request: FastifyRequest, reply: FastifyReply, exporter: PreparedExport) => {
  await exporter.open();
  const body = new PassThrough();
  exporter.write(body).catch((error: unknown) => {
    // The client went away (closed tab, cancelled download): not a failure of ours.
    const gone = (error as { code?: unknown } | null)?.code === "ERR_STREAM_PREMATURE_CLOSE";
    if (gone) request.log.info("export cancelled: the client closed the download");
    else request.log.error({ err: error }, "export failed mid-stream");
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .type(XLSX_CONTENT_TYPE)
    .header("content-disposition", contentDisposition(exporter.fileName))
    .header("cache-control", "private, no-store")
    .header("content-language", request.ctx?.locale ?? "en")
    .send(body);
};
