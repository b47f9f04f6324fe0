import {
  type CoreServices,
  XLSX_CONTENT_TYPE,
  ZAuditEntryDto,
  ZExportAuditQuery,
  ZListAuditQuery,
} from "@hisob/core";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ctxOf } from "../shared/auth-context";
import { sendXlsx } from "./xlsx-reply";

const tags = ["audit"];

/** The audit log: read and export only (no route, nor any other interface, changes an entry). */
export const auditRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  app.get(
    "/audit",
    {
      schema: {
        tags,
        summary:
          "Audit entries of the caller's tenant, newest first; platform administrators also see platform events (audit:read:all)",
        querystring: ZListAuditQuery,
        response: { 200: ZPage(ZAuditEntryDto) },
      },
      // A platform administrator may read another organization's log (decision 0084).
      config: { actsInTenant: true },
    },
    (request) => services.audit.list(ctxOf(request), request.query),
  );

  app.get(
    "/audit/export",
    {
      schema: {
        tags,
        summary: "The audit entries as a spreadsheet (.xlsx), same filters as GET /audit (audit:read:all)",
        querystring: ZExportAuditQuery,
        produces: [XLSX_CONTENT_TYPE],
      },
      config: { freshCaller: true, actsInTenant: true },
    },
    (request, reply) => sendXlsx(request, reply, services.audit.prepareExport(ctxOf(request), request.query)),
  );
};
