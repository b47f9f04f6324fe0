import type { Plugin } from "@envelop/core";
import { MAX_STAGES } from "@hisob/projects";
import { MAX_ORDER_LINES } from "@hisob/warehouse";
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  GraphQLInt,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
} from "graphql";

/*
 * Query cost (spec: at most 1000 points), computed before execution with the request's variables:
 *   - a field with a selection set (an object or a list of objects) costs 1;
 *   - a leaf (scalar, enum) costs 0;
 *   - a field with a `limit` argument (the paginated lists) multiplies the cost of what it selects by
 *     that limit, so `users(limit: 50) { data { id } }` costs 1 + 50 × 1 = 51 and nesting lists multiplies;
 *   - a list of objects without a `limit` (an order's lines, a project's stages, a user's roles) multiplies
 *     by its weight: the domain's bound where it has one (LIST_WEIGHTS), else a default page's worth
 *     (20). A page's `data` is priced by its page's limit, not once more.
 * The limit is the one the operation will run with: the variables as GraphQL coerces them for execution
 * (a variable's default included when no value is sent), and the argument's default when it is omitted
 * or null (the resolvers read null as "the default"). Every alias and every fragment spread is priced.
 * graphql-armor's own cost limit has no list multiplier, hence this one.
 */

export const DEFAULT_LIMITS = {
  maxDepth: 10,
  maxCost: 1000,
  maxAliases: 15,
  maxDirectives: 50,
  maxTokens: 5000,
  timeoutMs: 30_000,
  maxBatch: 10,
};
export type GraphqlLimits = typeof DEFAULT_LIMITS;

/** What a list of objects without a `limit` counts as when its field has no weight of its own. */
export const UNBOUNDED_LIST_WEIGHT = 20;

/** Lists without a `limit` whose size the domain bounds: they count as that bound. */
export const LIST_WEIGHTS: Readonly<Record<string, number>> = {
  "Order.lines": MAX_ORDER_LINES,
  "Project.stages": MAX_STAGES,
};

type CostContext = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  visiting: Set<string>;
  listWeights: Readonly<Record<string, number>>;
};

/** A page (`{ total, data }`): its `data` holds as many as the field that returned it asked for. */
const isPage = (type: GraphQLObjectType) => {
  const fields = type.getFields();
  return "total" in fields && "data" in fields;
};

const limitOf = (
  context: CostContext,
  parent: GraphQLObjectType,
  fieldName: string,
  args: readonly { name: { value: string }; value: import("graphql").ValueNode }[] | undefined,
): number => {
  const definition = parent.getFields()[fieldName];
  const limitArg = definition?.args.find((arg) => arg.name === "limit");
  if (!limitArg) {
    if (!definition || !isListType(getNullableType(definition.type))) return 1;
    if (fieldName === "data" && isPage(parent)) return 1;
    return context.listWeights[`${parent.name}.${fieldName}`] ?? UNBOUNDED_LIST_WEIGHT;
  }
  const node = args?.find((arg) => arg.name.value === "limit");
  const given = node ? valueFromAST(node.value, GraphQLInt, context.variables) : undefined;
  const value = given ?? limitArg.defaultValue;
  return typeof value === "number" && value > 0 ? value : 1;
};

/** Object and interface types have fields to price; a union's selections come through its fragments. */
const fieldsTypeOf = (context: CostContext, name: string | undefined, parent: GraphQLObjectType) => {
  const type = name ? context.schema.getType(name) : parent;
  return type && (isObjectType(type) || isInterfaceType(type)) ? (type as GraphQLObjectType) : undefined;
};

const selectionCost = (context: CostContext, parent: GraphQLObjectType, set: SelectionSetNode): number => {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.selectionSet) continue;
      const field = parent.getFields()[selection.name.value];
      const type = field ? getNamedType(field.type) : undefined;
      const multiplier = limitOf(context, parent, selection.name.value, selection.arguments);
      const child =
        type && (isObjectType(type) || isInterfaceType(type))
          ? selectionCost(context, type as GraphQLObjectType, selection.selectionSet)
          : 0;
      cost += 1 + multiplier * child;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = fieldsTypeOf(context, selection.typeCondition?.name.value, parent);
      if (type) cost += selectionCost(context, type, selection.selectionSet);
    } else {
      const name = selection.name.value;
      const fragment = context.fragments.get(name);
      if (!fragment || context.visiting.has(name)) continue;
      const type = fieldsTypeOf(context, fragment.typeCondition.name.value, parent);
      if (!type) continue;
      context.visiting.add(name);
      cost += selectionCost(context, type, fragment.selectionSet);
      context.visiting.delete(name);
    }
  }
  return cost;
};

/**
 * The cost of the operation about to run with `variables` as sent (see the model above), with the
 * variables as execution will see them (coerced by the operation's definitions, defaults filled in).
 * Null when they do not coerce: execution refuses the operation before it runs anything.
 */
export const operationCost = (
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  listWeights: Readonly<Record<string, number>> = LIST_WEIGHTS,
): number | null => {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (!coerced.coerced) return null;
  const root =
    operation.operation === "query"
      ? schema.getQueryType()
      : operation.operation === "mutation"
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return selectionCost(
    { schema, fragments, variables: coerced.coerced, visiting: new Set(), listWeights },
    root,
    operation.selectionSet,
  );
};

type CostArgs = {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null | undefined;
  variableValues?: Record<string, unknown> | null | undefined;
};

/**
 * The cost of each operation without variables, by its node: it cannot depend on what a request sends
 * (its limits are literals or defaults), and a document parsed once (yoga's parse cache) is the same
 * nodes on every request. One map per schema (per `useCostLimit`).
 */
type CostCache = WeakMap<OperationDefinitionNode, number | null>;

/** The cost error when the operation `args` names costs more than `maxCost`; null otherwise. */
const costProblem = (args: CostArgs, maxCost: number, cache: CostCache) => {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return null;
  const constant = !operation.variableDefinitions?.length;
  let cost = constant ? cache.get(operation) : undefined;
  if (cost === undefined) {
    cost = operationCost(args.schema, args.document, operation, args.variableValues ?? {});
    if (constant) cache.set(operation, cost);
  }
  if (cost === null || cost <= maxCost) return null;
  return new GraphQLError(`validation error: query cost ${cost} exceeds the maximum of ${maxCost}`, {
    extensions: { code: "VALIDATION_ERROR", reason: "graphql.cost_limit" },
  });
};

/** `refuse` maps the refusal's error as every other one (a stopped execution skips the result formatters). */
export const useCostLimit = <C>(
  maxCost: number,
  refuse: (context: C, error: GraphQLError) => ExecutionResult = (_, error) => ({ errors: [error] }),
): Plugin => {
  const caches = new WeakMap<GraphQLSchema, CostCache>();
  const cacheOf = (schema: GraphQLSchema) => {
    let cache = caches.get(schema);
    if (!cache) {
      cache = new WeakMap();
      caches.set(schema, cache);
    }
    return cache;
  };
  const check = (args: CostArgs) => costProblem(args, maxCost, cacheOf(args.schema));
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      const problem = check(args as CostArgs);
      if (problem) setResultAndStopExecution(refuse(args.contextValue as C, problem));
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const problem = check(args as CostArgs);
      if (problem) setResultAndStopExecution(refuse(args.contextValue as C, problem));
    },
  };
};

/**
 * Ends an execution that runs longer than `timeoutMs`, or whose client went away (the HTTP request's
 * signal, aborted when its connection closes; over WebSocket the operation's own): its signal is
 * aborted (the executor resolves no further fields, services that take the signal stop and queued
 * service calls leave the caller's queue) and the answer is a TIMEOUT error, not a hang.
 */
export const useExecutionTimeout = (timeoutMs: number): Plugin => ({
  onExecute: ({ executeFn, setExecuteFn }) => {
    setExecuteFn(async (args) => {
      const controller = new AbortController();
      const context = args.contextValue as { request?: { signal?: AbortSignal }; signal?: AbortSignal };
      const outer = [(args as { signal?: AbortSignal }).signal, context.request?.signal].filter(
        (each): each is AbortSignal => each instanceof AbortSignal,
      );
      // A listener on each outer signal, removed when the execution ends — not AbortSignal.any, whose
      // composite a long-lived source (a socket's signal) keeps until it aborts: one per operation.
      const follow = () => {
        const aborted = outer.find((each) => each.aborted);
        controller.abort(aborted?.reason);
      };
      for (const each of outer) each.addEventListener("abort", follow, { once: true });
      if (outer.some((each) => each.aborted)) follow();
      const signal = controller.signal;
      context.signal = signal;
      let timer: NodeJS.Timeout | undefined;
      let expired = false;
      const timedOut = new Promise<{ errors: GraphQLError[] }>((resolve) => {
        timer = setTimeout(() => {
          expired = true;
          const error = new GraphQLError(
            `The operation took longer than ${timeoutMs / 1000} s and was cancelled`,
            {
              extensions: { code: "UNAVAILABLE", reason: "graphql.timeout" },
            },
          );
          controller.abort(error);
          resolve({ data: null, errors: [error] } as { errors: GraphQLError[] });
        }, timeoutMs);
      });
      try {
        return await Promise.race([executeFn({ ...args, signal } as typeof args), timedOut]);
      } catch (error) {
        // Its client went away (the executor rejects with the abort's reason): an answer no one reads,
        // not a failure to log.
        if (!signal.aborted || expired) throw error;
        return {
          data: null,
          errors: [
            new GraphQLError("The operation was cancelled: its client went away", {
              extensions: { code: "UNAVAILABLE", reason: "graphql.cancelled" },
            }),
          ],
        } as ExecutionResult;
      } finally {
        clearTimeout(timer);
        for (const each of outer) each.removeEventListener("abort", follow);
      }
    });
  },
});
