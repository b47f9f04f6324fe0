import type { EventHandler } from "@hisob/kernel";
import type { GraphQLScalarType } from "graphql";
import { createSchema } from "graphql-yoga";
import type { GraphqlContext } from "./context";
import { FilterValueScalar, Int64Scalar, TimeScalar } from "./scalars";

/* biome-ignore lint/suspicious/noExplicitAny: resolver maps are checked by the schema, not by TypeScript */
type Resolver = any;

/**
 * What a module contributes: its SDL (its types, and its fields of `type Query`, `type Mutation`,
 * `type Subscription` — definitions of one type from several modules are merged) and the
 * resolvers of those types. Resolvers stay thin: parse arguments, call the module's service (which
 * checks permissions, validates and scopes to the tenant), return its DTO.
 */
export type GraphqlModule = {
  name: string;
  typeDefs: string;
  resolvers: Record<string, Record<string, Resolver> | GraphQLScalarType>;
  // Domain events (from the outbox, after commit) → the pub/sub topics of a module's subscriptions:
  // `bridgeGraphqlEvents` in events.ts, which the server runs at start without loading the schema.
};

/** Where committed domain events come from (the outbox). */
export type EventSource = { subscribe(type: string, handler: EventHandler): () => void };

/** The root types and shared scalars every module builds on. */
const BASE_TYPE_DEFS = /* GraphQL */ `
  """An ISO 8601 timestamp in UTC."""
  scalar Time
  """A 64-bit integer as a decimal string (money in minor units)."""
  scalar Int64
  """A filter's value: String, Int, Float or Boolean, or a list of them for \`in\`."""
  scalar FilterValue

  enum FilterOperator {
    eq
    neq
    gt
    gte
    lt
    lte
    "case-insensitive contains (strings only)"
    like
    "one of a list"
    in
  }

  "One condition of a list's \`filters\`; all conditions must hold."
  input Filter {
    field: String!
    operator: FilterOperator!
    value: FilterValue
  }
`;

const BASE_RESOLVERS = {
  Time: TimeScalar,
  Int64: Int64Scalar,
  FilterValue: FilterValueScalar,
};

/** Collects modules; the schema is whatever they registered (no central switch to edit). */
export const createRegistry = () => {
  const modules = new Map<string, GraphqlModule>();
  return {
    register(module: GraphqlModule) {
      if (modules.has(module.name)) throw new Error(`GraphQL module ${module.name} is registered twice`);
      modules.set(module.name, module);
      return this;
    },
    modules: () => [...modules.values()],
    buildSchema: () =>
      createSchema<GraphqlContext>({
        typeDefs: [BASE_TYPE_DEFS, ...[...modules.values()].map((module) => module.typeDefs)],
        resolvers: [BASE_RESOLVERS, ...[...modules.values()].map((module) => module.resolvers)],
      }),
  };
};

export type GraphqlRegistry = ReturnType<typeof createRegistry>;
