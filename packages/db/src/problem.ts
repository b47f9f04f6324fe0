import { appErrorOf, INTERNAL_PROBLEM, type Problem, problemOf } from "@hisob/kernel";
import { appErrorFromDatabase, databaseUnavailable, isDatabaseUnreachable } from "./errors";

/**
 * The one error mapping that knows no transport: anything thrown, as the problem a caller may see.
 * AppErrors (and zod errors) are ours; database failures that are the input's fault or worth a retry
 * get their code; everything else is INTERNAL, masked (the transport logs the original).
 */
export const toProblem = (error: unknown): Problem => {
  const known = appErrorOf(error) ?? appErrorFromDatabase(error);
  if (known) return problemOf(known);
  if (isDatabaseUnreachable(error)) return problemOf(databaseUnavailable());
  return INTERNAL_PROBLEM;
};
