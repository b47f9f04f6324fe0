import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

export const ZHealthResponse = z.object({ status: z.literal("ok") });
export const ZReadyResponse = z.object({
  status: z.literal("ready"),
  checks: z.object({ database: z.literal("ok") }),
});
export const ZNotReadyResponse = z.union([
  z.object({
    status: z.literal("unavailable"),
    checks: z.object({ database: z.string().describe("Short reason: `timeout` or `error`") }),
  }),
  z
    .object({ status: z.literal("draining") })
    .describe("The server is shutting down: it still serves what it is sent, but send no more"),
]);

export type HealthRoutesOptions = {
  db: { ping(): Promise<void> };
  /** A hung database must not hang the probe. */
  readinessTimeoutMs?: number;
  /** While it drains before a shutdown, the server is not ready, whatever the database says. */
  drain?: { readonly draining: boolean };
};

class PingTimeoutError extends Error {}

const pingWithin = (db: HealthRoutesOptions["db"], timeoutMs: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new PingTimeoutError(`database ping exceeded ${timeoutMs} ms`)),
      timeoutMs,
    );
    timer.unref();
    // Promise.resolve().then: a ping that throws synchronously is a failed check, not a crash.
    Promise.resolve()
      .then(() => db.ping())
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, options) => {
  const { db, readinessTimeoutMs = 2000, drain } = options;

  app.get(
    "/healthz",
    {
      config: { public: true },
      schema: {
        tags: ["health"],
        summary: "Liveness probe",
        description: "200 while the process serves HTTP. Checks no dependencies.",
        response: { 200: ZHealthResponse },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { status: "ok" as const };
    },
  );

  app.get(
    "/readyz",
    {
      config: { public: true },
      schema: {
        tags: ["health"],
        summary: "Readiness probe",
        description:
          "200 when the database answers; 503 (not the error envelope) when it does not, or while the server drains before a shutdown.",
        response: { 200: ZReadyResponse, 503: ZNotReadyResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (drain?.draining) return reply.code(503).send({ status: "draining" as const });
      try {
        await pingWithin(db, readinessTimeoutMs);
        return { status: "ready" as const, checks: { database: "ok" as const } };
      } catch (error) {
        // The probe is unauthenticated: details go to the log, not to the caller.
        request.log.warn({ err: error }, "readiness check failed: database");
        const database = error instanceof PingTimeoutError ? "timeout" : "error";
        return reply.code(503).send({ status: "unavailable", checks: { database } });
      }
    },
  );
};
