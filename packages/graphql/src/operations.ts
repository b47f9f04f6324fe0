import { type Permission, parseInput, type QueryOrMutation } from "@hisob/kernel";
import type { z } from "zod";
import { callerOf, type GraphqlContext } from "./context";

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
): Promise<z.input<O>> => {
  const caller = callerOf(context);
  if (!operation.input) throw new Error(`${operation.http.path}: an operation without input`);
  return operation.call(services, caller, parseInput(operation.input, input));
};
