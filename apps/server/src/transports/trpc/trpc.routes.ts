import { DATABASE_RETRY_AFTER_SECONDS } from "@hisob/db";
import { type AppRouter, appRouter } from "@hisob/trpc";
import { type FastifyTRPCPluginOptions, fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import type { FastifyPluginAsync } from "fastify";
import type { AppServices } from "../../app-services";
import { trpcCalls } from "../shared/api-rate-limit";
import { bearerRefusalProblem, isNonSimple, routePolicy } from "../shared/auth-context";
import { localizeProblem, withStatus } from "../shared/errors";
import { requestLocale } from "../shared/locale";
import { desktopCors } from "./desktop-cors";

/**
 * The accountant app's tRPC API at /trpc. The auth hook has already resolved the caller (session
 * cookie or first-party bearer) as for REST; errors go through REST's one mapping and language.
 * Not in the OpenAPI document: its contract is the `AppRouter` type.
 */
export const trpcRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  // tRPC answers an anonymous caller itself, in its error shape (its procedures require the caller
  // resolved by the auth hook); a batch runs calls of its own, so its caller is always fresh.
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook("onRoute", routePolicy({ public: true, freshCaller: true, ownUnavailable: true }));
  // Only these routes answer the desktop app's origin.
  await app.register(desktopCors);
  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }) => ({
        caller: req.ctx,
        csrfRefused: req.authMethod === "cookie" && !isNonSimple(req),
        requestId: req.id,
        calls: trpcCalls(req),
        rateLimited: req.apiRateLimited,
        callerUnavailable: req.callerUnavailable,
        callerRefused: req.bearerRefusal ? bearerRefusalProblem(req.bearerRefusal) : null,
        services,
        describe: (failure) => {
          const problem = localizeProblem(withStatus(failure), requestLocale(req));
          return {
            status: problem.status,
            code: problem.code,
            reason: problem.reason,
            message: problem.message,
            ...(problem.issues ? { issues: problem.issues } : {}),
          };
        },
      }),
      // A call that may be retried (the database is away, the service busy) says when, as REST does.
      // A refused bearer is named in WWW-Authenticate (RFC 6750), as on REST and GraphQL.
      responseMeta: ({ errors, ctx }) => {
        if (errors.some((error) => error.code === "SERVICE_UNAVAILABLE"))
          return { headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } };
        if (ctx?.callerRefused && errors.some((error) => error.code === "UNAUTHORIZED"))
          return { headers: { "www-authenticate": ctx.callerRefused.wwwAuthenticate } };
        return {};
      },
      onError: ({ error, req, path }) => {
        if (error.code === "INTERNAL_SERVER_ERROR")
          req.log.error({ err: error.cause ?? error, path }, "tRPC failure");
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"],
  });
};
