import type { Outbox, RawTenantTx, SqlParams } from "@hisob/db";

/*
 * What the provider announces through the outbox, in the transaction that does it. Each ends credentials
 * that something may still hold open — a GraphQL socket on an access token resolves its caller again when
 * it hears one (docs/decisions/0011-graphql-socket-authorization.md); every request does anyway.
 */

/** A grant's tokens, or one access token, revoked. Payload `{ userId, grantId? }`, in the grant's tenant. */
export const OIDC_TOKENS_REVOKED = "OidcTokensRevoked";

/**
 * A client's tokens no longer work on our APIs: it was deactivated, or is no longer first-party.
 * Payload `{ clientId }`; it belongs to no tenant (clients are the platform's).
 */
export const OIDC_CLIENT_ACCESS_REVOKED = "OidcClientAccessRevoked";

/**
 * OidcTokensRevoked as a step of the caller's statement: one event per row of `from`, whose `user_id`
 * column names the grant's user — so revoking what was already revoked announces nothing.
 */
export const stageTokensRevoked = (
  tx: RawTenantTx,
  outbox: Outbox,
  params: SqlParams,
  tenantId: string,
  from: string,
  payload: { grantId?: string } = {},
) =>
  outbox.stage(
    tx,
    params,
    { type: OIDC_TOKENS_REVOKED, tenantId, payload },
    { from, mergePayload: `jsonb_build_object('userId', ${from}.user_id)` },
  );
