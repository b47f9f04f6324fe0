import type { CoreServices } from "@hisob/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";

const tags = ["sessions"];
const ZSession = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.date().transform((date) => date.toISOString()),
  expiresAt: z.date().transform((date) => date.toISOString()),
});

/** Login sessions: list a user's, end one or all (ending one ends its OIDC grants too). */
export const sessionsRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (
  app,
  { services },
) => {
  app.get(
    "/users/:id/sessions",
    {
      schema: {
        tags,
        summary: "A user's live sessions, newest first (one's own, or sessions:read:all)",
        params: z.object({ id: z.uuid() }),
        response: { 200: z.array(ZSession) },
      },
    },
    (request) => services.sessions.listForUser(ctxOf(request), request.params.id),
  );

  app.delete(
    "/users/:id/sessions",
    {
      schema: {
        tags,
        summary: "End every session of a user (one's own, or sessions:delete:all)",
        params: z.object({ id: z.uuid() }),
        response: { 200: z.object({ ended: z.number().int() }) },
      },
    },
    (request) => services.sessions.endAllForUser(ctxOf(request), request.params.id),
  );

  app.delete(
    "/sessions/:id",
    {
      schema: {
        tags,
        summary: "End one session (one's own, or sessions:delete:all)",
        params: z.object({ id: z.uuid() }),
        response: { 200: ZSession },
      },
    },
    (request) => services.sessions.end(ctxOf(request), request.params.id),
  );
};
