import {
  type Permission,
  parseIdempotencyKey,
  parseInput,
  type QueryOrMutation,
  withIdempotencyKey,
} from "@hisob/kernel";
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
  /** A posting's `idempotencyKey` argument (null or absent: the Idempotency-Key header's, if any). */
  idempotencyKey?: string | null,
): Promise<z.input<O>> => {
  // The argument names the posting's intent as the header does (docs/decisions/0018-one-posting-per-intent.md);
  // its quoted structured-field form is accepted as the header's is.
  const caller = withIdempotencyKey(
    callerOf(context),
    typeof idempotencyKey === "string" ? unquoted(idempotencyKey) : idempotencyKey,
  );
  if (!operation.input) throw new Error(`${operation.http.path}: an operation without input`);
  return operation.call(services, caller, parseInput(operation.input, input));
};

const unquoted = (argument: string): string => {
  try {
    return parseIdempotencyKey(argument) as string;
  } catch {
    return argument; // withIdempotencyKey refuses it, naming the argument
  }
};
