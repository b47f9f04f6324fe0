export { bridgeAccessEvents } from "./access-events";
export {
  callerOf,
  type GraphqlContext,
  type GraphqlRequestContext,
  type GraphqlServices,
} from "./context";
export { type DescribeError, type ErrorMappingOptions, mapExecutionError } from "./errors";
export { bridgeCrmEvents, bridgeGraphqlEvents, messageAddedTopic } from "./events";
export { DEFAULT_LIMITS, type GraphqlLimits, operationCost } from "./limits";
export { createLoaders, type Loaders } from "./loaders";
export { GRAPHQL_MODULES } from "./modules";
export { toSessionDeleted } from "./modules/core.graphql";
export {
  accessChangedTopic,
  createMemoryPubSub,
  iterateTopic,
  OIDC_CLIENTS_TOPIC,
  type PubSub,
  sessionDeletedTopic,
} from "./pubsub";
export {
  loadRecord,
  mergeResolvers,
  type RecordListArgs,
  type RecordSdlOptions,
  type RecordTypes,
  recordListQuery,
  recordResolvers,
  recordSdl,
} from "./records";
export { createRegistry, type EventSource, type GraphqlModule, type GraphqlRegistry } from "./registry";
export { Int64Scalar, TimeScalar } from "./scalars";
export { printServedSchema, SDL_PATH } from "./sdl";
export { bridgeSessionEvents } from "./session-events";
export { createWorkGates, gatedServices, nestedGate, type WorkGate, type WorkGates } from "./work-gate";
export { createGraphqlServer, type GraphqlServer, type GraphqlServerContext } from "./yoga";
