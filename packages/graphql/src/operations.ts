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
