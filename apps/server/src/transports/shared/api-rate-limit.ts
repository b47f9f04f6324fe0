import { clientNetwork } from "@hisob/core";
import { AppError, type Clock, systemClock, type TenantContext } from "@hisob/kernel";
import { MAX_BATCH_CALLS } from "@hisob/trpc";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import type { Env } from "../../env";
import { connectRedis } from "../../redis";
import { GRAPHIQL_PATH, GRAPHQL_PATH } from "../graphql/graphql.routes";
import {
  createMemoryWindowCounter,
  createRedisWindowCounter,
  RATE_LIMIT_HEADERS,
  type WindowCounter,
} from "../shared/window-counters";

/*
 * The per-caller rate limit of the REST API and tRPC (docs/decisions/0004-api-rate-limits.md):
 * API_RATE_LIMIT requests per caller per fixed window of API_RATE_LIMIT_WINDOW_SECONDS, the caller
 * being the signed-in user (tenant + user), else the client network (an IPv4 address, an IPv6 /64).
 * A tRPC batch counts one per call in it, as a GraphQL batch counts one per operation. Every
 * counted answer carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds), as GraphQL's do;
 * past the limit the answer is 429 RATE_LIMITED with Retry-After, in each transport's own shape.
 * Counters live in memory, or in Redis when REDIS_URL is set (every instance counts together); a
 * counter store that stops answering lets requests through (logged), as GraphQL's does.
 *
 * Not counted here: the OpenID provider's endpoints and GraphQL (each has its own limit), and public
 * GET pages and files (health checks, the API reference, the apps' files, the sign-in page).
 */

export type ApiRateLimitOptions = {
  limits: Env["apiRateLimit"];
  redisUrl?: string | undefined;
  /** Time source of the windows (tests pass their manual clock). */
  clock?: Clock | undefined;
};

declare module "fastify" {
  interface FastifyRequest {
    /** Set when this request is past its caller's API rate limit (tRPC refuses it in its own shape). */
    apiRateLimited: { retryAfterSeconds: number } | null;
  }
}

const isCounted = (request: FastifyRequest): boolean => {
  if (request.method === "OPTIONS") return false;
  const config = request.routeOptions.config;
  if (config?.ownAuthentication === true) return false;
  const url = request.routeOptions.url;
  if (url !== undefined && (url.startsWith(GRAPHQL_PATH) || url.startsWith(GRAPHIQL_PATH))) return false;
  const isTrpc = url?.startsWith("/trpc/") === true;
  const isRead = request.method === "GET" || request.method === "HEAD";
  return !(config?.public === true && isRead && !isTrpc);
};

/** Calls in a tRPC request: `/trpc/a,b,c?batch=1` is three. */
export const trpcCalls = (request: FastifyRequest): number => {
  const path = (request.params as { path?: unknown } | undefined)?.path;
  if (typeof path !== "string") return 1;
  const batched = new URL(request.url, "http://x").searchParams.get("batch") === "1";
  return batched ? path.split(",").length : 1;
};

export const callerKey = (caller: TenantContext | null, ip: string): string =>
  caller ? `user:${caller.tenantId}:${caller.actor.userId}` : `ip:${clientNetwork(ip)}`;

const ERROR_LOG_INTERVAL_MS = 60_000;

const plugin = async (app: FastifyInstance, options: ApiRateLimitOptions) => {
  const { limit, windowSeconds } = options.limits;
  app.decorateRequest("apiRateLimited", null);
  if (limit === 0) return;
  const clock = options.clock ?? systemClock;
  const windowMs = windowSeconds * 1000;

  let counter: WindowCounter;
  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = await connectRedis(options.redisUrl, {
      name: "hisob-api-rate-limit",
      log: app.log,
      purpose: "API rate limit",
    });
    counter = createRedisWindowCounter(redis, "hisob:api-rate-limit:");
    app.addHook("onClose", async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    });
  } else {
    counter = createMemoryWindowCounter();
  }

  let lastStoreErrorLog = Number.NEGATIVE_INFINITY;

  // After the API context hook (the caller decides the key); before any handler runs.
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isCounted(request)) return;
    const key = callerKey(request.ctx, request.ip);
    // A batch larger than allowed is refused whole by tRPC; counting one more than the maximum is enough.
    const calls = request.routeOptions.url?.startsWith("/trpc/")
      ? Math.min(trpcCalls(request), MAX_BATCH_CALLS + 1)
      : 1;
    let hit = { count: 0, windowEndsAt: 0 };
    try {
      for (let call = 0; call < calls; call += 1) {
        hit = await counter.hit(key, windowMs, clock.now().getTime(), limit);
      }
    } catch (error) {
      const now = Date.now();
      if (now - lastStoreErrorLog >= ERROR_LOG_INTERVAL_MS) {
        lastStoreErrorLog = now;
        request.log.warn({ err: error }, "api rate limit: counter unavailable; requests are not limited");
      }
      return;
    }
    const resetSeconds = Math.ceil(hit.windowEndsAt / 1000);
    reply.header(RATE_LIMIT_HEADERS.limit, String(limit));
    reply.header(RATE_LIMIT_HEADERS.remaining, String(Math.max(0, limit - hit.count)));
    reply.header(RATE_LIMIT_HEADERS.reset, String(resetSeconds));
    if (hit.count <= limit) return;
    const retryAfterSeconds = Math.max(1, resetSeconds - Math.floor(clock.now().getTime() / 1000));
    reply.header(RATE_LIMIT_HEADERS.retryAfter, String(retryAfterSeconds));
    // tRPC answers in its own wire shape (its procedures refuse the call); REST here, before any work.
    if (request.routeOptions.url?.startsWith("/trpc/")) {
      request.apiRateLimited = { retryAfterSeconds };
      return;
    }
    throw tooManyRequests(retryAfterSeconds);
  });
};

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError("RATE_LIMITED", {
    message: `Too many requests; retry after ${retryAfterSeconds} seconds`,
    params: { retryAfterSeconds },
  });

/** Fastify plugin, not encapsulated: its hook applies to every route of the app. */
export const apiRateLimit = fp(plugin, { name: "hisob-api-rate-limit", fastify: "5.x" });
