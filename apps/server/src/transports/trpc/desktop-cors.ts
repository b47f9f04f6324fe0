import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/*
 * The desktop app's renderer runs at app://hisob (Electron's privileged scheme) and calls /trpc on
 * this server with a bearer token: a cross-origin request. That one origin, on the routes of the
 * plugin that registers this one (tRPC's, whose route takes every method, OPTIONS too), gets CORS
 * (its own origin back, never `*`, never credentials: the token is sent explicitly, cookies never).
 * Browsers at /app are same-origin and need none of this.
 */

export const DESKTOP_APP_ORIGIN = "app://hisob";

export const desktopCors = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", async (request, reply) => {
    if (request.headers.origin !== DESKTOP_APP_ORIGIN) return;
    reply.header("access-control-allow-origin", DESKTOP_APP_ORIGIN).header("vary", "Origin");
    if (request.method === "OPTIONS") {
      return reply
        .header("access-control-allow-methods", "GET, POST")
        .header("access-control-allow-headers", "authorization, content-type, trpc-accept, idempotency-key")
        .header("access-control-max-age", "600")
        .code(204)
        .send();
    }
  });
});
