import type { IncomingMessage } from "node:http";
import { DATABASE_RETRY_AFTER_SECONDS } from "@hisob/db";
import { type AppRouter, appRouter } from "@hisob/trpc";
import {
  getErrorShape,
  getTRPCErrorFromUnknown,
  type TRPCError,
  TRPCError as TRPCErrorClass,
  transformTRPCResponse,
} from "@trpc/server";
import type { FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";
import { getHTTPStatusCode, resolveResponse } from "@trpc/server/http";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { AppServices } from "../../app-services";
import { trpcCalls } from "../shared/api-rate-limit";
import { bearerRefusalProblem, callerRunner, isNonSimple, routePolicy } from "../shared/auth-context";
import { localizeProblem, withStatus } from "../shared/errors";
import { requestLocale } from "../shared/locale";
import { desktopCors } from "./desktop-cors";

/** A procedure path as tRPC writes it, nothing to decode. */
const PLAIN_PATH = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

type TrpcProcedure = ((opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: unknown;
  type: "query";
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>) & { _def?: { type?: string } };

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && !Array.isArray(value) && typeof value === "object";
const isAsyncIterable = (value: unknown): boolean => isObject(value) && Symbol.asyncIterator in value;
const isPromise = (value: unknown): boolean => isObject(value) && typeof value.then === "function";
/** tRPC's own test: a result it would only send as a stream. */
const isDataStream = (value: unknown): boolean =>
  isObject(value) &&
  (isAsyncIterable(value) ||
    Object.values(value).some(isPromise) ||
    Object.values(value).some(isAsyncIterable));

/**
 * The accountant app's tRPC API at /trpc. The auth hook has already resolved the caller (session
 * cookie or first-party bearer) as for REST; errors go through REST's one mapping and language.
 * Not in the OpenAPI document: its contract is the `AppRouter` type.
 *
 * A query may start from the cached caller: each call confirms it in its first transaction and runs
 * again if it changed (`withCaller`; a mutation has its caller confirmed first). The route is tRPC's
 * Fastify adapter written out, answering a JSON result as one buffer with its length rather than as
 * a web stream copied chunk by chunk (docs/decisions/0090-transports-at-baseline.md).
 */
export const trpcRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  // tRPC answers an anonymous caller itself, in its error shape (its procedures require the caller
  // resolved by the auth hook); each call confirms a cached caller itself (`withCaller`).
  app.addHook("onRoute", (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook("onRoute", routePolicy({ public: true, ownCallerCheck: true, ownUnavailable: true }));
  // Only these routes answer the desktop app's origin.
  await app.register(desktopCors);
  const trpcOptions = {
    router: appRouter,
    createContext: ({ req }) => ({
      caller: req.ctx,
      withCaller: callerRunner(req, services.context),
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
  } satisfies FastifyTRPCPluginOptions<AppRouter>["trpcOptions"];

  // As tRPC's adapter: it reads the JSON body itself (a string), and multipart bodies as streams.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) =>
    done(null, body),
  );
  app.removeContentTypeParser("multipart/form-data");
  app.addContentTypeParser("multipart/form-data", {}, (_request, body, done) => done(null, body));
  /**
   * One query by GET (`/trpc/a.b?input=…`, no batch, no stream asked for): answered as tRPC's
   * resolveResponse answers it — same body, status, headers, error shape, onError and responseMeta —
   * without building a Fetch Request, its AbortController and a Fetch Response around the call
   * (docs/decisions/0104-transports-ahead-of-their-peers.md). Anything else goes through tRPC.
   */
  const config = appRouter._def._config;
  const singleQuery = (request: FastifyRequest<{ Params: { path: string } }>) => {
    if (request.method !== "GET" || !PLAIN_PATH.test(request.params.path)) return null;
    if (
      request.headers["trpc-accept"] !== undefined ||
      /jsonl|event-stream/.test(request.headers.accept ?? "")
    )
      return null;
    const query = request.query as Record<string, unknown>;
    for (const key in query) if (key !== "input") return null;
    const procedure = (appRouter._def.procedures as Record<string, unknown>)[request.params.path] as
      | TrpcProcedure
      | undefined;
    if (typeof procedure !== "function" || procedure._def?.type !== "query") return null;
    const raw = query.input;
    if (raw !== undefined && typeof raw !== "string") return null;
    let input: unknown;
    try {
      input = raw ? config.transformer.input.deserialize(JSON.parse(raw)) : undefined;
    } catch {
      return null; // tRPC words the refusal
    }
    return { procedure, input, path: request.params.path };
  };

  app.all(
    "/trpc/:path",
    async (request: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
      const single = singleQuery(request);
      if (single) {
        const { procedure, input, path } = single;
        const ctx = await trpcOptions.createContext({ req: request, res: reply, info: undefined as never });
        let res: { result: { data: unknown } } | { error: unknown };
        let error: TRPCError | undefined;
        try {
          const data = await procedure({
            path,
            getRawInput: async () => input,
            ctx,
            type: "query",
            signal: undefined,
            batchIndex: 0,
          });
          if (isDataStream(data))
            throw new TRPCErrorClass({
              code: "UNSUPPORTED_MEDIA_TYPE",
              message: "Cannot use stream-like response in non-streaming request - use httpBatchStreamLink",
            });
          res = { result: { data } };
        } catch (cause) {
          error = getTRPCErrorFromUnknown(cause);
          trpcOptions.onError({ error, req: request, path, input, ctx, type: "query" } as never);
          res = { error: getErrorShape({ config, ctx, error, input, path, type: "query" }) };
        }
        const errors = error ? [error] : [];
        const meta = trpcOptions.responseMeta({
          ctx,
          errors,
          data: [res],
          paths: [path],
          type: "query",
          eagerGeneration: false,
          info: undefined,
        } as never);
        reply.code(getHTTPStatusCode(res as never, errors));
        reply.header("vary", "trpc-accept, accept");
        reply.header("content-type", "application/json");
        for (const [name, value] of Object.entries(meta.headers ?? {})) reply.header(name, value);
        return reply.send(JSON.stringify(transformTRPCResponse(config, res as never)));
      }
      const raw = request.raw as IncomingMessage & { body?: unknown };
      raw.body = request.body;
      const response = await resolveResponse({
        ...trpcOptions,
        req: incomingMessageToRequest(raw, reply.raw, { maxBodySize: null }),
        path: request.params.path,
        error: null,
        createContext: async ({ info }) => trpcOptions.createContext({ req: request, res: reply, info }),
        onError: (failure) => trpcOptions.onError({ ...failure, req: request }),
      });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      if (!response.body) return reply.send();
      // A stream (jsonl, server-sent events) goes as it comes; a JSON result is one buffer.
      if (!(response.headers.get("content-type") ?? "").startsWith("application/json"))
        return reply.send(response);
      return reply.send(await response.text());
    },
  );
};
