import { handleStreamOrSingleExecutionResult, type Plugin, usePayloadFormatter } from "@envelop/core";
import { EnvelopArmor } from "@escape.tech/graphql-armor";
import {
  type DefinitionNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  type ValidationContext,
} from "graphql";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import type { GraphqlContext, GraphqlRequestContext, GraphqlServices } from "./context";
import { documentError, type ErrorMappingOptions, mapExecutionError } from "./errors";
import { DEFAULT_LIMITS, type GraphqlLimits, useCostLimit, useExecutionTimeout } from "./limits";
import { createLoaders } from "./loaders";
import type { PubSub } from "./pubsub";
import type { GraphqlRegistry } from "./registry";

export type GraphqlServerOptions = ErrorMappingOptions & {
  registry: GraphqlRegistry;
  services: GraphqlServices;
  pubsub: PubSub;
  limits?: Partial<GraphqlLimits>;
  /** Where the host mounts the endpoint (yoga matches requests against it). */
  endpoint?: string;
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

/** Parse and validation errors (including graphql-armor's limits) as VALIDATION_ERROR with a reason. */
const mapDocumentErrors = (): Plugin<GraphqlContext> => ({
  onParse:
    () =>
    ({ result, replaceParseResult }) => {
      if (result instanceof GraphQLError) replaceParseResult(documentError(result, reasonOf(result.message)));
    },
  onValidate:
    () =>
    ({ valid, result, setResult }) => {
      if (valid) return;
      setResult(result.map((error) => documentError(error, reasonOf(error.message))));
    },
});

/** Records which kinds of operation ran, for the host's Cache-Control choice. */
const recordOperations = (): Plugin<GraphqlContext> => ({
  onExecute: ({ args }) => {
    const operation = args.document.definitions.find(
      (definition: DefinitionNode) => definition.kind === "OperationDefinition",
    );
    if (operation && operation.kind === "OperationDefinition") {
      (args.contextValue as GraphqlContext).executed?.operations.add(operation.operation);
    }
  },
});

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
    context: ({ graphql }) => ({
      ...graphql,
      services: options.services,
      loaders: createLoaders(),
      pubsub: options.pubsub,
    }),
    plugins: [
      ...armor.protect().plugins,
      mapDocumentErrors(),
      recordOperations(),
      useCostLimit(limits.maxCost),
      useExecutionTimeout(limits.timeoutMs),
      mapResultErrors(options),
    ],
  });
  return { yoga, schema, limits };
};

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
