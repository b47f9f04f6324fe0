import {
  type Permission,
  parseIdempotencyKey,
  parseInput,
  type QueryOrMutation,
  withIdempotencyKey,
} from "@hisob/kernel";
import type { z } from "zod";
import { fieldOf, permissionsOf } from "./catalog-sdl";
import { callerOf, type GraphqlContext, type GraphqlServices } from "./context";

/**
 * Runs a catalog operation for a resolver: GraphQL's arguments are checked by the operation's own
 * input schema (as REST and tRPC check them), then its service call runs for the signed-in caller.
 * The resolver restates neither the rules of the input nor the service call.
 */
export const runOperation = <S, P extends Permission, I extends z.ZodType, O extends z.ZodType>(
  operation: QueryOrMutation<S, P, I, O>,
  services: S,
  context: GraphqlContext,
  input: unknown,
  /** A posting's `idempotencyKey` argument (null or absent: the Idempotency-Key header's, if any). */
  idempotencyKey?: string | null,
): Promise<z.input<O>> => {
  // The argument names the posting's intent as the header does (docs/decisions/0018-one-posting-per-intent.md);
  // its quoted structured-field form is accepted as the header's is.
  const caller = withIdempotencyKey(
    callerOf(context),
    typeof idempotencyKey === "string" ? unquoted(idempotencyKey) : idempotencyKey,
  );
  // An operation without input (a settings read) takes none: GraphQL's field has no arguments either.
  return operation.call(
    services,
    caller,
    (operation.input ? parseInput(operation.input, input) : undefined) as z.output<I>,
  );
};

const unquoted = (argument: string): string => {
  try {
    return parseIdempotencyKey(argument) as string;
  } catch {
    return argument; // withIdempotencyKey refuses it, naming the argument
  }
};

/** A root field over a catalog operation, its types erased: its SDL line and its resolver. */
export type OperationField = {
  name: string;
  sdl: string;
  resolve: (parent: unknown, args: Record<string, unknown>, context: GraphqlContext) => Promise<unknown>;
};

/**
 * One root field (of `type Query` or `type Mutation`) over one catalog operation
 * (docs/decisions/0114-a-codebase-a-newcomer-can-carry-on-continued.md). The description says who may call it in
 * the catalog's words; the resolver maps GraphQL's arguments to the operation's input and runs it
 * (`runOperation`: the operation's input schema, then its service call). `body` names the argument that
 * carries the operation's body (its REST `rest` key): its value is checked first by that part's own schema, so a
 * refusal names the body's fields (`name`, not `stage.name`) as REST's and the service's do.
 */
export const operationField = <S, P extends Permission, I extends z.ZodType, O extends z.ZodType>(spec: {
  name: string;
  operation: QueryOrMutation<S, P, I, O>;
  services: (services: GraphqlServices) => S;
  /** GraphQL's arguments, in SDL (`projectId: ID!, input: StageInput!`); none when absent. */
  args?: string;
  /** GraphQL's return type (`Stage!`). */
  returns: string;
  /** The field's description; `permissions` is who may call it, in the catalog's words. */
  description: (permissions: string) => string;
  /** GraphQL's arguments as the operation's input (default: the arguments as they are). */
  input?: (args: Record<string, unknown>) => unknown;
  body?: string;
  /** The operation's output as GraphQL answers it (a delete's null: true). */
  answer?: (output: z.input<O>) => unknown;
}): OperationField => {
  const { operation } = spec;
  const bodyKey = operation.http.rest;
  if (spec.body && !bodyKey) throw new Error(`${spec.name}: the operation has no body part (http.rest)`);
  const bodySchema = spec.body && bodyKey ? fieldOf(operation.input, bodyKey) : undefined;
  const description = spec.description(permissionsOf(operation));
  return {
    name: spec.name,
    sdl: `    """\n    ${description.replaceAll("\n", "\n    ")}\n    """\n    ${spec.name}${spec.args ? `(${spec.args})` : ""}: ${spec.returns}\n`,
    resolve: async (_, args, context) => {
      if (bodySchema && spec.body) parseInput(bodySchema, args[spec.body]);
      const output = await runOperation(
        operation,
        spec.services(context.services),
        context,
        spec.input ? spec.input(args) : args,
      );
      return spec.answer ? spec.answer(output) : output;
    },
  };
};

/** `type Query { … }` (or Mutation) of a module's operation fields, and their resolvers. */
export const operationFieldsOf = (root: "Query" | "Mutation", fields: readonly OperationField[]) => ({
  sdl: `  type ${root} {\n${fields.map((field) => field.sdl).join("")}  }\n`,
  resolvers: { [root]: Object.fromEntries(fields.map((field) => [field.name, field.resolve])) },
});
