import { type CoreServices, ZLoginInput, ZSignInMethods } from "@hisob/core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { isSecureRequest, setSessionCookie } from "../shared/auth-context";

export const ZLoginResponse = z
  .object({ sessionId: z.uuid(), userId: z.uuid(), tenantId: z.uuid(), expiresAt: z.iso.datetime() })
  .meta({ id: "LoginResult" });

/** JSON login (GET/PUT /account come from the core operation catalog). */
export const accountRoutes: FastifyPluginAsyncZod<{
  services: CoreServices;
  issuerUrl: string;
  /** The configured upstream OpenID provider, if any. */
  external?: { name: string };
}> = async (app, { services, issuerUrl, external }) => {
  // The admin's new-organization form speaks of the upstream provider only when there is one.
  app.get(
    "/auth/methods",
    {
      schema: {
        tags: ["auth"],
        summary: "How people sign in here: a password, and the upstream provider when one is configured",
        response: { 200: ZSignInMethods },
      },
    },
    async () => ({ password: true as const, external: external ? { name: external.name } : null }),
  );

  app.post(
    "/auth/login",
    {
      config: { public: true },
      schema: {
        tags: ["auth"],
        summary: "Sign in with email and password; sets the `session` cookie",
        body: ZLoginInput,
        response: { 200: ZLoginResponse },
      },
    },
    async (request, reply) => {
      const { token, session } = await services.auth.login(request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? "",
        requestId: request.id,
      });
      setSessionCookie(reply, token, session.expiresAt, isSecureRequest(request, issuerUrl));
      return {
        sessionId: session.id,
        userId: session.userId,
        tenantId: session.tenantId,
        expiresAt: session.expiresAt.toISOString(),
      };
    },
  );
};
