import {
  createGraphqlServer,
  createRegistry,
  GRAPHQL_MODULES,
  type GraphqlLimits,
  type GraphqlModule,
  type GraphqlRequestContext,
  type PubSub,
} from "@hisob/graphql";
import type { TenantContext } from "@hisob/kernel";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { GraphQLError } from "graphql";
import { makeHandler } from "graphql-ws/use/@fastify/websocket";
import { renderGraphiQL } from "graphql-yoga";
import type { AppServices } from "../app-services";
import { bearerOf } from "../http/auth-context";
import { localizeProblem } from "../http/errors";

/*
 * GraphQL itself — the schema of every module, yoga and graphql-ws — loaded by graphql.routes.ts on the
 * first request to /api/graphql (or /graphql), not at start: an idle server does not hold it (README,
 * "Memory"). The routes, the rate limit, the pub/sub and the outbox's bridges stay in graphql.routes.ts
 * and exist from the start.
 */

type SocketExtra = { caller?: TenantContext; rateKey?: string };

export type GraphqlEngineDeps = {
  services: AppServices;
  pubsub: PubSub;
  endpoint: string;
  log: FastifyBaseLogger;
  limits?: Partial<GraphqlLimits> | undefined;
  extraModules?: readonly GraphqlModule[] | undefined;
  graphiqlTitle: string;
  /** The caller's rate-limit key, and a take of `operations` from its budget. */
  callerKey(caller: TenantContext | null, ip: string): string;
  takeBudget(key: string, operations: number): Promise<{ allowed: boolean }>;
  requestContext(request: FastifyRequest, caller: TenantContext | null): GraphqlRequestContext;
  /** Closes the socket with 4401 when the session it was opened with ends. */
  closeWhenSessionEnds(
    socket: {
      close(code: number, reason: string): void;
      once(event: "close", listener: () => void): unknown;
    },
    caller: TenantContext,
  ): void;
};

export const createGraphqlEngine = (deps: GraphqlEngineDeps) => {
  const { services, callerKey, takeBudget, requestContext } = deps;
  const registry = createRegistry();
  for (const module of [...GRAPHQL_MODULES, ...(deps.extraModules ?? [])]) registry.register(module);
  const { yoga, limits } = createGraphqlServer({
    registry,
    services,
    pubsub: deps.pubsub,
    endpoint: deps.endpoint,
    ...(deps.limits ? { limits: deps.limits } : {}),
    describe: (failure, locale) => {
      const problem = localizeProblem(failure, locale);
      return { message: problem.message, ...(problem.issues ? { issues: problem.issues } : {}) };
    },
    logUnexpected: (error, requestId) => deps.log.error({ err: error, requestId }, "graphql request failed"),
  });

  const wsHandler = makeHandler<Record<string, unknown>, SocketExtra>({
    onConnect: async (ctx) => {
      const request = ctx.extra.request;
      const raw = ctx.connectionParams?.Authorization ?? ctx.connectionParams?.authorization;
      let caller: TenantContext | null = null;
      if (typeof raw === "string") {
        const token = bearerOf(raw);
        caller = token
          ? await services.context.resolveContext({
              bearerToken: token,
              requestId: request.id,
              client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
            })
          : null;
      } else {
        // No bearer in connection_init: the upgrade request's own credentials (cookie or header).
        const headerBearer = bearerOf(request.headers.authorization);
        caller = headerBearer === undefined || request.ctx ? request.ctx : null;
      }
      if (!caller) {
        ctx.extra.socket.close(4401, "Unauthorized");
        return false;
      }
      (ctx.extra as SocketExtra).caller = caller;
      (ctx.extra as SocketExtra).rateKey = callerKey(caller, request.ip);
      deps.closeWhenSessionEnds(ctx.extra.socket, caller);
      return true;
    },
    onSubscribe: async (ctx, _id, payload) => {
      const extra = ctx.extra as typeof ctx.extra & SocketExtra;
      const caller = extra.caller ?? null;
      const budget = await takeBudget(extra.rateKey ?? callerKey(caller, extra.request.ip), 1);
      if (!budget.allowed) {
        return [
          new GraphQLError("Too many requests", {
            extensions: { code: "RATE_LIMITED", reason: "rate_limited", requestId: extra.request.id },
          }),
        ];
      }
      const context = requestContext(extra.request, caller);
      const enveloped = yoga.getEnveloped({
        graphql: context,
        request: extra.request,
        params: payload,
      } as never);
      let document: ReturnType<typeof enveloped.parse>;
      try {
        document = enveloped.parse(payload.query);
      } catch (error) {
        return [
          error instanceof GraphQLError
            ? error
            : new GraphQLError("validation error: cannot parse the query"),
        ];
      }
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length > 0) return errors;
      return {
        schema: enveloped.schema,
        document,
        operationName: payload.operationName ?? null,
        variableValues: payload.variables ?? null,
        contextValue: await enveloped.contextFactory(),
        rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
      };
    },
    execute: (args) => (args.rootValue as { execute: (a: typeof args) => unknown }).execute(args) as never,
    subscribe: (args) =>
      (args.rootValue as { subscribe: (a: typeof args) => unknown }).subscribe(args) as never,
  });

  let graphiql: string | undefined;
  const graphiqlPage = () => {
    graphiql ??= renderGraphiQL({
      endpoint: deps.endpoint,
      title: deps.graphiqlTitle,
      subscriptionsProtocol: "WS",
      credentials: "same-origin",
    });
    return graphiql;
  };

  return { yoga, limits, wsHandler, graphiqlPage };
};

export type GraphqlEngine = ReturnType<typeof createGraphqlEngine>;
