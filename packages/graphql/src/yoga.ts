import { handleStreamOrSingleExecutionResult, type Plugin, usePayloadFormatter } from "@envelop/core";
import { EnvelopArmor } from "@escape.tech/graphql-armor";
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import type { GraphqlContext, GraphqlRequestContext, GraphqlServices } from "./context";
import { documentError, type ErrorMappingOptions, mapExecutionError } from "./errors";
import { DEFAULT_LIMITS, type GraphqlLimits, useCostLimit, useExecutionTimeout } from "./limits";
import { createLoaders } from "./loaders";
import type { PubSub } from "./pubsub";
import type { GraphqlRegistry } from "./registry";
import { gatedServices } from "./work-gate";

export type GraphqlServerOptions = ErrorMappingOptions & {
  registry: GraphqlRegistry;
  services: GraphqlServices;
  pubsub: PubSub;
  limits?: Partial<GraphqlLimits>;
  /** Where the host mounts the endpoint (yoga matches requests against it). */
  endpoint?: string;
  /**
   * Who may read the schema (`__schema`, `__type`): anyone, or signed-in callers only (production's
   * default; docs/decisions/0014-graphql-introspection-caching-hsts.md).
   */
  introspection?: "public" | "signed-in";
};

/** The server context the host passes with each request (HTTP) or subscription (WebSocket). */
export type GraphqlServerContext = { graphql: GraphqlRequestContext };

const reasonOf = (message: string): string => {
  if (/depth/i.test(message)) return "graphql.depth_limit";
  if (/alias/i.test(message)) return "graphql.alias_limit";
  if (/directive/i.test(message)) return "graphql.directive_limit";
  if (/token/i.test(message)) return "graphql.token_limit";
  if (/Syntax Error/.test(message)) return "graphql.syntax";
  return "graphql.invalid_document";
};

/**
 * Maps every error of a result (execution, validation, limits) through the one mapping — subscriptions
 * too (envelop's usePayloadFormatter covers execution only): a refused subscribe and each event's errors.
 */
const mapResultErrors = (options: ErrorMappingOptions): Plugin<GraphqlContext> => {
  const format = (result: ExecutionResult, args: { contextValue: unknown }): ExecutionResult | false => {
    if (!result.errors?.length) return false;
    const context = args.contextValue as GraphqlContext;
    return {
      ...result,
      errors: result.errors.map((error) =>
        mapExecutionError(
          error instanceof GraphQLError ? error : new GraphQLError(String(error)),
          { locale: context.locale, requestId: context.requestId },
          options,
        ),
      ),
    };
  };
  const formatter = usePayloadFormatter(format) as Plugin<GraphqlContext>;
  return {
    ...formatter,
    onSubscribe: () => ({
      onSubscribeResult: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ args, result, setResult }) => {
          const mapped = format(result, args);
          if (mapped !== false) setResult(mapped);
        }),
    }),
  };
};

/**
 * Parse and validation errors (including graphql-armor's limits) as VALIDATION_ERROR with a reason, mapped
 * as every other error (the caller's language, the request id): they never reach the result formatters.
 */
const mapDocumentErrors = (options: ErrorMappingOptions): Plugin<GraphqlContext> => {
  const mapped = (context: unknown, error: GraphQLError) => {
    // Mapped already (a validation result this hook saw once before).
    if (error.extensions?.requestId !== undefined) return error;
    const own = documentError(error, reasonOf(error.message));
    const request = (context as Partial<GraphqlServerContext> | undefined)?.graphql;
    if (!request) return own;
    return mapExecutionError(own, { locale: request.locale, requestId: request.requestId }, options);
  };
  return {
    onParse:
      () =>
      ({ context, result, replaceParseResult }) => {
        if (result instanceof GraphQLError) replaceParseResult(mapped(context, result));
      },
    onValidate:
      ({ context }) =>
      ({ valid, result, setResult }) => {
        if (valid) return;
        setResult(result.map((error) => mapped(context, error)));
      },
  };
};

/** The operation `args` names (the only one when it names none), as execution picks it. */
const operationOf = (args: { document: DocumentNode; operationName?: string | null | undefined }) =>
  getOperationAST(args.document, args.operationName) ?? undefined;

/**
 * Whether the operation's root selects `__schema` or `__type` (directly or through fragments). Asked on
 * every query: remembered per operation node (a document parsed once is the same nodes each time).
 */
const readsSchema = (document: DocumentNode, operation: OperationDefinitionNode): boolean => {
  let reads = schemaReaders.get(operation);
  if (reads === undefined) {
    reads = walksToSchema(document, operation);
    schemaReaders.set(operation, reads);
  }
  return reads;
};
const schemaReaders = new WeakMap<OperationDefinitionNode, boolean>();
const walksToSchema = (document: DocumentNode, operation: OperationDefinitionNode): boolean => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode): boolean =>
    set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return INTROSPECTION_ROOTS.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) return false;
      seen.add(fragment.name.value);
      return visit(fragment.selectionSet);
    });
  return visit(operation.selectionSet);
};
const INTROSPECTION_ROOTS = new Set(["__schema", "__type"]);

/** Records which kinds of operation ran and whether one read the schema, for the host's Cache-Control choice. */
const recordOperations = (): Plugin<GraphqlContext> => {
  const record = (args: { document: DocumentNode; operationName?: string | null; contextValue: unknown }) => {
    const operation = operationOf(args);
    const executed = (args.contextValue as GraphqlContext).executed;
    if (!operation || !executed) return;
    executed.operations.add(operation.operation);
    if (operation.operation === "query" && readsSchema(args.document, operation))
      executed.introspection = true;
  };
  return { onExecute: ({ args }) => record(args), onSubscribe: ({ args }) => record(args) };
};

/**
 * A mutation (or subscription) whose caller the host took from its cache runs with the caller confirmed
 * first (the host's `confirmCaller`): it must not run a second time, as a query may.
 */
const confirmCallerOfChanges = (): Plugin<GraphqlContext> => {
  const confirm = async (args: {
    document: DocumentNode;
    operationName?: string | null;
    contextValue: unknown;
  }) => {
    const context = args.contextValue as GraphqlContext;
    if (!context.confirmCaller || operationOf(args)?.operation === "query") return;
    context.caller = await context.confirmCaller();
  };
  return { onExecute: ({ args }) => confirm(args), onSubscribe: ({ args }) => confirm(args) };
};

/**
 * Subscriptions over plain HTTP are refused before they subscribe: they are served over WebSocket,
 * where the socket's end ends them (docs/decisions/0010-graphql-subscriptions-over-websocket-only.md).
 * Over HTTP nothing would end one whose client never reads (an SSE or multipart stream, or a JSON
 * request the server would hold open).
 */
const refuseSubscriptionsOverHttp = (endpoint: string, refusal: Refusal): Plugin<GraphqlContext> => ({
  onSubscribe: ({ args, setResultAndStopExecution }) => {
    const context = args.contextValue as GraphqlContext;
    // Only a socket ends a subscription with its client: anything else (a host that did not say) is refused.
    if (context.transport === "websocket") return;
    setResultAndStopExecution(
      refusal(
        context,
        new GraphQLError(
          `validation error: subscriptions are served over WebSocket (graphql-ws) at ${endpoint}`,
          {
            extensions: { code: "VALIDATION_ERROR", reason: "graphql.subscription_over_http" },
          },
        ),
      ),
    );
  },
});

/** Anonymous introspection refused (UNAUTHENTICATED) unless the host allows it. */
const gateIntrospection = (refusal: Refusal): Plugin<GraphqlContext> => ({
  onExecute: ({ args, setResultAndStopExecution }) => {
    const context = args.contextValue as GraphqlContext;
    if (context.caller) return;
    const operation = operationOf(args);
    if (!operation || operation.operation !== "query" || !readsSchema(args.document, operation)) return;
    setResultAndStopExecution(
      refusal(
        context,
        new GraphQLError("Unauthorized", {
          extensions: { code: "UNAUTHENTICATED", reason: "graphql.introspection_unauthenticated" },
        }),
      ),
    );
  },
});

/**
 * A result that stops an operation before it runs, its error mapped as every other one (a result set
 * with setResultAndStopExecution skips the result formatters).
 */
type Refusal = (context: GraphqlContext, error: GraphQLError) => ExecutionResult;

/**
 * The yoga server over the modules' schema: limits (graphql-armor for depth, aliases, directives and
 * tokens; our cost model and timeout), batching, and the one error mapping. Transport (routes, CORS,
 * WebSocket, rate limits, caching) is the host's.
 */
export const createGraphqlServer = (options: GraphqlServerOptions) => {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const schema: GraphQLSchema = options.registry.buildSchema();
  // Validation rejections are reported as validation errors (not thrown), so our mapping gives them a
  // code; the token limit rejects while parsing, where the parse mapping picks it up.
  const reported = {
    propagateOnRejection: false,
    onReject: [
      (context: unknown, error: GraphQLError) => (context as ValidationContext | null)?.reportError(error),
    ],
  };
  const armor = new EnvelopArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...reported },
    maxAliases: { n: limits.maxAliases, ...reported },
    maxDirectives: { n: limits.maxDirectives, ...reported },
    maxTokens: { n: limits.maxTokens },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  });
  const refusal: Refusal = (context, error) => ({
    errors: [mapExecutionError(error, { locale: context.locale, requestId: context.requestId }, options)],
  });
  const yoga: YogaServerInstance<GraphqlServerContext, GraphqlContext> = createYoga<
    GraphqlServerContext,
    GraphqlContext
  >({
    schema,
    graphqlEndpoint: options.endpoint ?? "/api/graphql",
    // The host decides CORS (none) and serves GraphiQL on its own path.
    cors: false,
    graphiql: false,
    landingPage: false,
    batching: { limit: limits.maxBatch },
    // Our mapping masks unexpected errors itself (and logs them with the request id).
    maskedErrors: false,
    logging: false,
    context: ({ graphql }) => {
      const context: GraphqlContext = {
        ...graphql,
        services: options.services,
        loaders: createLoaders(),
        pubsub: options.pubsub,
      };
      // Every service call of the operation takes a slot of the caller's share of the database.
      if (graphql.work)
        context.services = gatedServices(options.services, graphql.work, () => context.signal);
      return context;
    },
    plugins: [
      ...armor.protect().plugins,
      mapDocumentErrors(options),
      recordOperations(),
      confirmCallerOfChanges(),
      refuseSubscriptionsOverHttp(options.endpoint ?? "/api/graphql", refusal),
      ...(options.introspection === "signed-in" ? [gateIntrospection(refusal)] : []),
      useCostLimit(limits.maxCost, refusal),
      useExecutionTimeout(limits.timeoutMs),
      mapResultErrors(options),
    ],
  });
  return { yoga, schema, limits };
};

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
