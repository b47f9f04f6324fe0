// A leaf (imports nothing): the host's routes use it at start, before GraphQL itself is loaded.

/** A refusal of graphql-armor or of yoga itself, in our words: its reason, message and HTTP status. */
export type OwnRefusal = { reason: string; message: string; status: number; params?: Record<string, number> };

/*
 * graphql-armor words its limits "Syntax Error: Query depth limit of 10 exceeded, found 11." and yoga
 * refuses with its own code BAD_REQUEST: neither is ours, so each known one gets our reason and text.
 */
const OWN_REFUSALS: readonly [RegExp, (limit: number) => Omit<OwnRefusal, "params">][] = [
  [
    /depth limit of (\d+) exceeded/i,
    (n) => ({
      reason: "graphql.depth_limit",
      message: `validation error: the query is nested deeper than ${n} levels`,
      status: 400,
    }),
  ],
  [
    /Aliases limit of (\d+) exceeded/i,
    (n) => ({
      reason: "graphql.alias_limit",
      message: `validation error: the query uses more than ${n} aliases`,
      status: 400,
    }),
  ],
  [
    /Directives limit of (\d+) exceeded/i,
    (n) => ({
      reason: "graphql.directive_limit",
      message: `validation error: the query uses more than ${n} directives`,
      status: 400,
    }),
  ],
  [
    /Token limit of (\d+) exceeded/i,
    (n) => ({
      reason: "graphql.token_limit",
      message: `validation error: the query is longer than ${n} tokens`,
      status: 400,
    }),
  ],
  [
    /^Batching is limited to (\d+) operations/,
    (n) => ({
      reason: "graphql.batch_too_large",
      message: `validation error: a batch holds at most ${n} operations`,
      status: 413,
    }),
  ],
  [
    /^Can only perform a mutation operation from a POST request/,
    () => ({
      reason: "graphql.mutation_not_post",
      message: "validation error: send mutations with POST",
      status: 405,
    }),
  ],
];

/** Our reason, message and status for a refusal worded by graphql-armor or yoga; null for any other text. */
export const ownRefusal = (message: string): OwnRefusal | null => {
  for (const [pattern, refusal] of OWN_REFUSALS) {
    const found = pattern.exec(message);
    if (!found) continue;
    const limit = Number(found[1] ?? 0);
    return { ...refusal(limit), ...(found[1] ? { params: { limit } } : {}) };
  }
  return null;
};
