import type { Db, Outbox } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import { type Clients, clientCredentials, verifyClient } from "./clients/clients";
import { clientAuthRequest, type FormParams, singleParam } from "./form-params";
import { OidcError } from "./oidc-error";
import { sha256Hex } from "./opaque-token";
import { readRefreshToken, revokeAccessTokenSql, revokeGrantSql } from "./token/token-sql";

type Body = FormParams;

/**
 * POST /oidc/revoke (RFC 7009): the client authenticates as at the token endpoint and may revoke
 * only its own tokens. Revoking a refresh token revokes its whole grant (its access tokens too);
 * revoking an access token revokes just it. Unknown or foreign tokens still answer 200.
 */
export const createRevoke =
  (deps: { db: Db; outbox: Outbox; clients: Clients; clock: Clock }) =>
  async (body: Body, headers: { authorization?: string | undefined }): Promise<void> => {
    const value = (name: string) => singleParam(body, name);
    const request = clientAuthRequest(body, headers.authorization);
    // token_type_hint is optional and only a hint (RFC 7009 §2.1): we find the token either way.
    const token = value("token");
    if (!token || token.length > 4096) {
      // The client is authenticated first, whatever else is wrong with the request.
      await deps.clients.authenticate(request);
      if (!token) throw new OidcError("invalid_request", "token is required");
      return;
    }
    const credentials = clientCredentials(request);
    const tokenHash = sha256Hex(token);
    // Without the ORM, as the token endpoint (token-sql.ts): one transaction in the token's tenant
    // (none when the token is unknown), its first round trip reading the client and the token with its
    // grant; the client is authenticated on that row, and a failure rolls everything back.
    await deps.db.rawTx.withCredentialTenant({ kind: "oidcToken", hash: tokenHash }, async (tx) => {
      const read = await readRefreshToken(tx, credentials.clientId, tokenHash);
      const client = verifyClient(read.client, credentials.secret);
      const row = read.token;
      if (!row || row.clientId !== client.clientId) return;
      const now = deps.clock.now();
      // Announced in the same statement: a GraphQL socket on the access token closes at once.
      if (row.kind === "refresh") await revokeGrantSql(tx, deps.outbox, row.tenantId, row.grantId, now);
      else await revokeAccessTokenSql(tx, deps.outbox, row.tenantId, row.id, now);
    });
  };
