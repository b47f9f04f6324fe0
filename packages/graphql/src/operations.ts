import {
  type Permission,
  parseIdempotencyKey,
  parseInput,
  type QueryOrMutation,
  type TenantContext,
  validationError,
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
  const caller = withIdempotencyKey(callerOf(context), idempotencyKey);
  if (!operation.input) throw new Error(`${operation.http.path}: an operation without input`);
  return operation.call(services, caller, parseInput(operation.input, input));
};

/**
 * The argument names the posting's intent as the header does (docs/decisions/0018-one-posting-per-intent.md);
 * both at once must agree, since a client that sends two keys cannot mean both.
 */
const withIdempotencyKey = (caller: TenantContext, argument: string | null | undefined): TenantContext => {
  if (argument === undefined || argument === null) return caller;
  const key = parseIdempotencyKeyArgument(argument);
  if (caller.idempotencyKey !== undefined && caller.idempotencyKey !== key) {
    throw validationError([
      { path: "idempotencyKey", message: "differs from the Idempotency-Key header: send one key" },
    ]);
  }
  return { ...caller, idempotencyKey: key };
};

const parseIdempotencyKeyArgument = (argument: string): string => {
  try {
    return parseIdempotencyKey(argument) as string;
  } catch {
    throw validationError([
      { path: "idempotencyKey", message: "must be one value of 1 to 255 visible ASCII characters" },
    ]);
  }
};
