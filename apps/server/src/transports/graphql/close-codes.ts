/*
 * How the server closes a GraphQL socket (graphql-ws), in one place for the routes (loaded at start) and
 * the engine (loaded on first use).
 */

/** Its credentials are dead: the session ended, or the token no longer works. graphql-ws clients stop. */
export const CLOSE_UNAUTHORIZED = 4401;

/**
 * The WebSocket's "unexpected condition": the server cannot keep checking the socket's caller (a watch or a
 * re-check failed). graphql-ws clients connect again after it and resolve their caller afresh.
 */
export const CLOSE_TRY_AGAIN = 1011;

/** The server is shutting down (drain.ts): clients connect again, to another instance. */
export const CLOSE_GOING_AWAY = 1001;

/**
 * A 4401's reason when the socket's organization was deactivated (other dead credentials say "Session
 * ended" or "Unauthorized"): a client that missed the `sessionDeleted` event still knows why
 * (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
 */
export const CLOSE_REASON_TENANT_DEACTIVATED = "Organization deactivated";
