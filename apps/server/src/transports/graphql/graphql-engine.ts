import { setMaxListeners } from "node:events";
import { type Credentials, type LiveContext, sameCaller } from "@hisob/core";
import { databaseUnavailable, isDatabaseUnreachable, type ResolvedCaller } from "@hisob/db";
import {
  createGraphqlServer,
  createRegistry,
  type ErrorMappingOptions,
  GRAPHQL_MODULES,
  type GraphqlContext,
  type GraphqlLimits,
  type GraphqlModule,
  type GraphqlRequestContext,
  mapExecutionError,
  type PubSub,
  type WorkGate,
} from "@hisob/graphql";
import { ownRefusal } from "@hisob/graphql/refusals";
import { AppError, type Clock, type Locale, type TenantContext } from "@hisob/kernel";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { GraphQLError, getOperationAST } from "graphql";
import { makeHandler } from "graphql-ws/use/@fastify/websocket";
import { isAsyncIterable } from "graphql-yoga";
import type { AppServices } from "../../app-services";
import { bearerOf, credentialsOf } from "../shared/auth-context";
import { localizeProblem } from "../shared/errors";
import { requestLocale } from "../shared/locale";
import { CLOSE_REASON_TENANT_DEACTIVATED, CLOSE_TRY_AGAIN, CLOSE_UNAUTHORIZED } from "./close-codes";
import { answerJsonPost, type JsonPostParams, jsonPostParams } from "./json-post";
import { type SweptSocket, startSocketSweep } from "./socket-sweep";

/*
 * GraphQL itself — the schema of every module, yoga and graphql-ws — loaded by graphql.routes.ts on the
 * first request to /api/graphql (or /graphql), not at start: an idle server does not hold it (README,
 * "Memory"). The routes, the rate limit, the pub/sub and the outbox's bridges stay in graphql.routes.ts
 * and exist from the start.
 */

/*
 * A socket's operations run as the caller the database knows now, as every HTTP request does
 * (docs/decisions/0011-graphql-socket-authorization.md): each operation resolves the caller afresh from
 * the credentials the socket was opened with, and an access change announced through the outbox (on
 * every instance, through the pub/sub) resolves it again and re-authorizes the running subscriptions.
 */

/** What one operation on a socket needs to be checked again with a fresh caller, or ended. */
type LiveOperation = {
  context: GraphqlContext;
  /** The resolution of the caller it was last authorized with. */
  resolution: ResolvedCaller;
  /** Subscribes once more with the operation's arguments (its authorization runs again). */
  resubscribe(): Promise<unknown>;
  /** Ends the operation: the client receives `error` with this error. */
  end(error: GraphQLError): void;
};

/** A socket's caller: the credentials it was opened with, and who they stand for as last resolved. */
type SocketState = {
  credentials: Pick<Credentials, "bearerToken" | "sessionToken">;
  caller: TenantContext;
  /** What `caller` was resolved from: the credential's kind and expiry. */
  resolution: ResolvedCaller;
  /** Closes the socket when its credential expires (re-armed with each resolution adopted). */
  expiry: NodeJS.Timeout | undefined;
  /**
   * Resolutions of the caller are numbered as they start; `caller` is the one numbered `adopted`. One that
   * started earlier and answers later is older news and never replaces it.
   */
  resolutions: number;
  adopted: number;
  /**
   * Bumped (synchronously) by every access change announced for this socket's user. An operation that
   * resolved its caller before a bump and started running after it is checked again.
   */
  accessVersion: number;
  rateKey: string;
  /** Running subscriptions by operation id. */
  operations: Map<string, LiveOperation>;
  /**
   * Heard before the credential was found dead: the organization was deactivated. The close then says so,
   * for a client whose `sessionDeleted` event lost the race with the close
   * (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
   */
  tenantDeactivated?: boolean;
  /** Aborted when the socket closes: queries still running on it stop, its watches end. */
  closed: AbortController;
  /** A re-check in progress, and whether another was asked for meanwhile (they coalesce). */
  checking: Promise<void> | null;
  checkAgain: boolean;
};
type SocketExtra = {
  /**
   * Aborted when the socket closes, whenever that is (graphql-ws's onClose runs on every close): created
   * before anything is awaited, so a socket that goes while its connection_init is checked leaves nothing.
   */
  closed?: AbortController;
  /** Ends what the socket holds when it closes (its expiry timer). */
  release?: () => void;
  state?: SocketState;
};

/** What the server needs of a client's WebSocket. */
export type GraphqlSocket = {
  readonly readyState: number;
  readonly OPEN: number;
  close(code: number, reason: string): void;
};

export type GraphqlEngineDeps = {
  services: AppServices;
  pubsub: PubSub;
  endpoint: string;
  log: FastifyBaseLogger;
  clock: Clock;
  limits?: Partial<GraphqlLimits> | undefined;
  extraModules?: readonly GraphqlModule[] | undefined;
  introspection: "public" | "signed-in";
  /** The caller's rate-limit key, and a take of `operations` from its budget. */
  callerKey(caller: TenantContext | null, ip: string): string;
  takeBudget(key: string, operations: number): Promise<{ allowed: boolean; retryAfterSeconds?: number }>;
  /** An organization's share of the database: its sockets' re-checks take slots of it. */
  tenantGate(tenantId: string): WorkGate;
  requestContext(request: FastifyRequest, caller: TenantContext | null): GraphqlRequestContext;
  /**
   * Watches what may change the socket's caller: it is closed with 4401 when the session it was opened
   * with ends, and `onAccessChanged` runs when the caller's access may have changed (roles, groups,
   * permissions, deactivation of the user or the organization; for an OIDC token, its grant or its
   * client). The watches end when `closed` aborts.
   */
  /** How often the credentials of all open sockets are re-checked together (socket-sweep.ts). */
  socketRecheckMs: number;
  watchSocket(
    socket: GraphqlSocket,
    caller: TenantContext,
    credential: ResolvedCaller["kind"],
    closed: AbortSignal,
    onAccessChanged: (change?: { tenantDeactivated?: boolean }) => void,
  ): void;
};

/** The 4401 close's reason for a credential found dead: the organization's deactivation when it was heard. */
const deadCredentialReason = (state: SocketState) =>
  state.tenantDeactivated
    ? CLOSE_REASON_TENANT_DEACTIVATED
    : state.resolution.kind === "session"
      ? "Session ended"
      : "Unauthorized";

/** setTimeout's longest delay (about 24.8 days); a later expiry is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A subscription's stream that the server can end: `end(error)` stops the source (its pub/sub listener
 * goes at once) and the client receives `error` with that error instead of further events.
 */
const endable = (
  source: AsyncIterator<unknown>,
  onFinish: () => void,
): AsyncIterableIterator<unknown> & { end(error: GraphQLError): void } => {
  let ended: GraphQLError | null = null;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    onFinish();
  };
  const iterator = {
    next: async (): Promise<IteratorResult<unknown>> => {
      if (finished) return { done: true, value: undefined };
      const result = await source.next();
      if (ended) {
        const error = ended;
        finish();
        throw error;
      }
      if (result.done) finish();
      return result;
    },
    return: async (): Promise<IteratorResult<unknown>> => {
      finish();
      await source.return?.();
      return { done: true, value: undefined };
    },
    end: (error: GraphQLError) => {
      if (finished || ended) return;
      ended = error;
      source.return?.().catch(() => {});
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
};

export const createGraphqlEngine = (deps: GraphqlEngineDeps) => {
  const { services, callerKey, takeBudget, requestContext } = deps;
  const registry = createRegistry();
  for (const module of [...GRAPHQL_MODULES, ...(deps.extraModules ?? [])]) registry.register(module);
  const mapping: ErrorMappingOptions = {
    describe: (failure, locale) => {
      const problem = localizeProblem(failure, locale);
      return { message: problem.message, ...(problem.issues ? { issues: problem.issues } : {}) };
    },
    logUnexpected: (error, requestId) => deps.log.error({ err: error, requestId }, "graphql request failed"),
  };
  const { yoga, limits } = createGraphqlServer({
    registry,
    services,
    pubsub: deps.pubsub,
    endpoint: deps.endpoint,
    introspection: deps.introspection,
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...mapping,
  });

  /** Errors the socket answers itself (refusals, a failure to authorize), mapped as every other one. */
  const mapped = (errors: readonly GraphQLError[], context: { locale: Locale; requestId: string }) =>
    errors.map((error) => mapExecutionError(error, context, mapping));
  const failure = (error: AppError) => new GraphQLError(error.message, { originalError: error });
  /** The caller could not be resolved or authorized (the database failed): try again in a moment. */
  const unavailable = (error: unknown) =>
    failure(
      isDatabaseUnreachable(error)
        ? databaseUnavailable()
        : new AppError("UNAVAILABLE", {
            reason: "unavailable",
            message: "The service is temporarily unavailable",
            params: { retryAfterSeconds: 5 },
          }),
    );

  /**
   * The socket's caller as the database says now, adopted (see `adopt`); null (and the socket closed) once
   * its credentials are dead. Answers the caller the socket runs as after it: this resolution, or a newer
   * one adopted while this one was in flight.
   */
  const resolveLive = (credentials: SocketState["credentials"], request: FastifyRequest) =>
    services.context.resolveLive({
      ...credentials,
      requestId: request.id,
      client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
    });

  /**
   * Closes a socket whose credential is dead (4401), saying when it died with its organization: the close
   * may come before the `sessionDeleted` event that says so (the periodic sweep, a re-check).
   */
  const closeDead = async (state: SocketState, socket: GraphqlSocket) => {
    if (!state.tenantDeactivated) {
      const active = await services.context.tenantActive(state.caller.tenantId).catch(() => true);
      if (!active) state.tenantDeactivated = true;
    }
    if (!state.closed.signal.aborted) socket.close(CLOSE_UNAUTHORIZED, deadCredentialReason(state));
  };

  const freshCaller = async (
    state: SocketState,
    socket: GraphqlSocket,
    request: FastifyRequest,
    gate?: WorkGate,
  ): Promise<LiveContext | null> => {
    state.resolutions += 1;
    const number = state.resolutions;
    const resolve = () => resolveLive(state.credentials, request);
    // Only the statement takes the slot: adopting re-runs subscribes, whose service calls take their own.
    const live = await (gate ? gate.run(resolve, state.closed.signal) : resolve());
    if (!live) {
      // As when the session's end is announced: the credential the socket lives on is dead.
      await closeDead(state, socket);
      return null;
    }
    await adopt(state, socket, live, number);
    return { ctx: state.caller, caller: state.resolution };
  };

  /**
   * Closes the socket (4401) when the credential it lives on expires: a session or an access token dies
   * at its expiry without anyone announcing it. Re-armed with each resolution adopted.
   */
  const armExpiry = (state: SocketState, socket: GraphqlSocket) => {
    clearTimeout(state.expiry);
    const left = state.resolution.expiresAt.getTime() - deps.clock.now().getTime();
    const expire = () => {
      if (state.resolution.expiresAt.getTime() > deps.clock.now().getTime()) {
        armExpiry(state, socket);
        return;
      }
      socket.close(
        CLOSE_UNAUTHORIZED,
        state.resolution.kind === "session" ? "Session expired" : "Token expired",
      );
    };
    if (left <= 0) {
      expire();
      return;
    }
    state.expiry = setTimeout(expire, Math.min(left, LONGEST_TIMER_MS));
    state.expiry.unref();
  };

  const mappedFor = (context: GraphqlContext, error: GraphQLError) =>
    mapped([error], { locale: context.locale, requestId: context.requestId })[0] as GraphQLError;

  /**
   * Takes resolution `number` of the socket's caller, unless a newer one was taken meanwhile: each running
   * subscription authorized with different access is authorized again with it (its subscribe runs once
   * more, so it is checked exactly as a new one would be) and ended with that error when it no longer may
   * run; the ones that may go on resolve their next events with it. A newer adoption takes over the rest.
   */
  const adopt = async (state: SocketState, socket: GraphqlSocket, live: LiveContext, number: number) => {
    if (number < state.adopted) return;
    state.adopted = number;
    state.caller = live.ctx;
    state.resolution = live.caller;
    armExpiry(state, socket);
    for (const operation of [...state.operations.values()]) {
      if (state.adopted !== number) return;
      const changed = !sameCaller(operation.resolution, live.caller);
      operation.context.caller = live.ctx;
      operation.resolution = live.caller;
      if (!changed) continue;
      let again: unknown;
      try {
        again = await operation.resubscribe();
      } catch (error) {
        // Its authorization could not be confirmed: it stops rather than run unchecked.
        deps.log.warn({ err: error }, "graphql: a subscription could not be authorized again");
        operation.end(mappedFor(operation.context, unavailable(error)));
        continue;
      }
      if (isAsyncIterable(again)) {
        await (again as AsyncIterableIterator<unknown>).return?.();
        continue;
      }
      // A refusal (its errors are mapped already, as every result's), else Forbidden.
      const error = (again as { errors?: readonly GraphQLError[] }).errors?.[0];
      operation.end(error ?? mappedFor(operation.context, failure(new AppError("FORBIDDEN"))));
    }
  };

  /** Re-resolves the socket's caller after an access change; requests while one runs coalesce into one more. */
  const recheck = (state: SocketState, socket: GraphqlSocket, request: FastifyRequest) => {
    if (state.checking) {
      state.checkAgain = true;
      return;
    }
    state.checking = (async () => {
      do {
        state.checkAgain = false;
        // Through the organization's gate: one change concerns every socket of it at once.
        const gate = deps.tenantGate(state.caller.tenantId);
        if (!(await freshCaller(state, socket, request, gate))) return;
      } while (state.checkAgain);
    })()
      .catch((error: unknown) => {
        // A socket that closed meanwhile left the queue: nothing failed.
        if (state.closed.signal.aborted) return;
        // Its caller could not be confirmed (the database failed): rather than run on unchecked, the socket
        // closes with 1011 and its client connects again (graphql-ws retries on it), resolving afresh.
        deps.log.warn({ err: error }, "graphql: socket caller re-check failed; closing the socket");
        socket.close(CLOSE_TRY_AGAIN, "Try again");
      })
      .finally(() => {
        state.checking = null;
      });
  };

  /** The open sockets of this instance, for the periodic re-check of their credentials. */
  const open = new Map<SocketState, SweptSocket>();
  const sweep = startSocketSweep({
    everyMs: deps.socketRecheckMs,
    sockets: () => [...open.values()],
    resolveLiveMany: (many) => services.context.resolveLiveMany(many),
    log: deps.log,
  });

  const unauthorized = () =>
    failure(new AppError("UNAUTHENTICATED", { reason: "auth.invalid_credentials", message: "Unauthorized" }));

  const wsHandler = makeHandler<Record<string, unknown>, SocketExtra>({
    onConnect: async (ctx) => {
      const request = ctx.extra.request;
      const socket = ctx.extra.socket;
      const closed = new AbortController();
      // One listener per operation running on the socket; many may run at once.
      setMaxListeners(0, closed.signal);
      (ctx.extra as SocketExtra).closed = closed;
      const raw = ctx.connectionParams?.Authorization ?? ctx.connectionParams?.authorization;
      let credentials: SocketState["credentials"] | null = null;
      if (typeof raw === "string") {
        const token = bearerOf(raw);
        credentials = token ? { bearerToken: token } : null;
      } else {
        // No bearer in connection_init: the upgrade request's own credentials (cookie or header).
        const found = credentialsOf(request);
        credentials = found ? { bearerToken: found.bearerToken, sessionToken: found.sessionToken } : null;
      }
      // Resolved here even for the upgrade's credentials: the socket needs the credential's kind and expiry.
      const live = credentials ? await resolveLive(credentials, request) : null;
      // The client went while its caller was resolved: nothing may start watching for it.
      if (closed.signal.aborted || socket.readyState !== socket.OPEN) return false;
      if (!live || !credentials) {
        socket.close(CLOSE_UNAUTHORIZED, "Unauthorized");
        return false;
      }
      const caller = live.ctx;
      const state: SocketState = {
        credentials,
        caller,
        resolution: live.caller,
        expiry: undefined,
        resolutions: 0,
        adopted: 0,
        accessVersion: 0,
        rateKey: callerKey(caller, request.ip),
        operations: new Map(),
        closed,
        checking: null,
        checkAgain: false,
      };
      (ctx.extra as SocketExtra).state = state;
      open.set(state, {
        credentials,
        requestId: request.id,
        resolution: () => state.resolution,
        end: () => {
          if (state.closed.signal.aborted) return;
          void closeDead(state, socket);
        },
        changed: () => {
          state.accessVersion += 1;
          recheck(state, socket, request);
        },
      });
      (ctx.extra as SocketExtra).release = () => {
        clearTimeout(state.expiry);
        open.delete(state);
      };
      armExpiry(state, socket);
      deps.watchSocket(socket, caller, live.caller.kind, closed.signal, (change) => {
        if (change?.tenantDeactivated) state.tenantDeactivated = true;
        state.accessVersion += 1;
        recheck(state, socket, request);
      });
      return true;
    },
    onClose: (ctx) => {
      const extra = ctx.extra as SocketExtra;
      extra.closed?.abort(new Error("The socket closed"));
      extra.release?.();
    },
    onSubscribe: async (ctx, id, payload) => {
      const extra = ctx.extra as typeof ctx.extra & SocketExtra;
      const state = extra.state;
      const requestId = extra.request.id;
      // What the socket answers itself, in the caller's language with the request id.
      const refuse = (...errors: GraphQLError[]) =>
        mapped(errors, { locale: state?.caller.locale ?? requestLocale(extra.request), requestId });
      if (!state) return refuse(unauthorized());
      const budget = await takeBudget(state.rateKey, 1);
      if (!budget.allowed) {
        const params = budget.retryAfterSeconds ? { retryAfterSeconds: budget.retryAfterSeconds } : {};
        return refuse(failure(new AppError("RATE_LIMITED", { message: "Too many requests", params })));
      }
      // Every operation runs as the caller is now, as every HTTP request does.
      const accessVersion = state.accessVersion;
      let live: LiveContext | null;
      try {
        live = await freshCaller(state, extra.socket, extra.request);
      } catch (error) {
        // The database failed: this operation is answered so, the socket stays (graphql-ws would close it
        // with 4500 and, outside production, the error's text as the reason).
        deps.log.warn({ err: error, requestId }, "graphql: a socket's caller could not be resolved");
        return refuse(unavailable(error));
      }
      if (!live) return refuse(unauthorized());
      const context = requestContext(extra.request, live.ctx);
      const enveloped = yoga.getEnveloped({
        graphql: context,
        request: extra.request,
        params: payload,
      } as never);
      let document: ReturnType<typeof enveloped.parse>;
      try {
        document = enveloped.parse(payload.query);
      } catch (error) {
        // The socket's request is the upgrade's GET, so yoga refuses a mutation as "not over POST":
        // mutations are served over HTTP only (docs/api/graphql.md), said so here.
        if (
          error instanceof GraphQLError &&
          ownRefusal(error.message)?.reason === "graphql.mutation_not_post"
        ) {
          return refuse(
            new GraphQLError("validation error: send mutations over HTTP (POST)", {
              extensions: { code: "VALIDATION_ERROR", reason: "graphql.mutation_over_socket" },
            }),
          );
        }
        return refuse(
          error instanceof GraphQLError
            ? error
            : new GraphQLError("validation error: cannot parse the query"),
        );
      }
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length > 0) return refuse(...errors);
      // graphql-ws runs it only when the document names it: refused here, so everything below runs.
      if (!getOperationAST(document, payload.operationName)) {
        return refuse(new GraphQLError("validation error: the document has no operation of that name"));
      }
      const contextValue = (await enveloped.contextFactory()) as GraphqlContext;
      // The operation's own signal: aborted when the socket closes (a query still running, a queued
      // service call) or the subscription ends. A listener on the socket's signal for as long as the
      // operation runs, then removed: nothing per operation stays with the socket.
      const operation = new AbortController();
      const stop = () => operation.abort(state.closed.signal.reason);
      state.closed.signal.addEventListener("abort", stop, { once: true });
      const finish = () => {
        state.closed.signal.removeEventListener("abort", stop);
        operation.abort(new Error("The operation ended"));
      };
      const args = {
        schema: enveloped.schema,
        document,
        operationName: payload.operationName ?? null,
        variableValues: payload.variables ?? null,
        contextValue,
        signal: operation.signal,
      };
      const execute = async (each: typeof args) => {
        try {
          return await enveloped.execute(each);
        } finally {
          finish();
        }
      };
      const subscribe = async (each: typeof args) => {
        // A subscription's events are resolved under it too (their resolvers, their queued service calls).
        contextValue.signal = operation.signal;
        let result: Awaited<ReturnType<typeof enveloped.subscribe>>;
        try {
          result = await enveloped.subscribe(each);
        } catch (error) {
          finish();
          throw error;
        }
        if (!isAsyncIterable(result)) {
          finish();
          return result;
        }
        const stream = endable((result as AsyncIterable<unknown>)[Symbol.asyncIterator](), () => {
          state.operations.delete(id);
          finish();
        });
        state.operations.set(id, {
          context: contextValue,
          resolution: live.caller,
          resubscribe: () => Promise.resolve(enveloped.subscribe(args)),
          end: (error) => stream.end(error),
        });
        // Access changed after its caller was resolved, and the re-check that ran meanwhile could not see
        // it yet: one more, which authorizes it again if its caller is no longer what the database says.
        if (state.accessVersion !== accessVersion) recheck(state, extra.socket, extra.request);
        return stream;
      };
      return { ...args, rootValue: { execute, subscribe } };
    },
    execute: (args) => (args.rootValue as { execute: (a: typeof args) => unknown }).execute(args) as never,
    subscribe: (args) =>
      (args.rootValue as { subscribe: (a: typeof args) => unknown }).subscribe(args) as never,
  });

  /** One operation POSTed as JSON, answered as yoga would without its Fetch objects (json-post.ts). */
  const jsonPost = {
    params: (request: FastifyRequest) => jsonPostParams(request, deps.endpoint),
    answer: (
      params: JsonPostParams,
      serverContext: { graphql: GraphqlRequestContext },
      signal: AbortSignal,
    ) => answerJsonPost(yoga as never, params, serverContext, signal),
  };

  return { yoga, limits, wsHandler, jsonPost, sweepSockets: sweep.sweep, stop: sweep.stop };
};

export type GraphqlEngine = ReturnType<typeof createGraphqlEngine>;
