import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import { type Clients, clientCredentials, type OidcClientRecord, verifyClient } from "./clients/clients";
import type { OidcConfig } from "./config";
import { clientAuthRequest, type FormParams, singleParam } from "./form-params";
import { OidcError } from "./oidc-error";
import { looksLikeOpaqueToken, sha256Hex } from "./opaque-token";
import { readRefreshToken } from "./token/token-sql";

type Body = FormParams;

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      sub: string;
      token_type: "Bearer" | "refresh_token";
      exp: number;
      iat: number;
      iss: string;
    };

/**
 * POST /oidc/introspect (RFC 7662): only an authenticated client, and only for its own tokens;
 * everything else — unknown, expired, revoked, rotated, another client's — is `{ active: false }`.
 */
export const createIntrospect =
  (deps: { db: Db; clients: Clients; clock: Clock; config: OidcConfig }) =>
  async (body: Body, headers: { authorization?: string | undefined }): Promise<IntrospectionResponse> => {
    const value = (name: string) => singleParam(body, name);
    const request = clientAuthRequest(body, headers.authorization);
    // Introspection reveals token metadata: public clients (no secret) may not use it.
    const confidential = (client: OidcClientRecord) => {
      if (client.secretHash === null)
        throw new OidcError("invalid_client", "Introspection needs a confidential client");
      return client;
    };
    const token = value("token");
    const inactive = { active: false } as const;
    if (!token || !looksLikeOpaqueToken(token)) {
      // The client is authenticated first, whatever else is wrong with the request.
      confidential(await deps.clients.authenticate(request));
      if (!token) throw new OidcError("invalid_request", "token is required");
      return inactive;
    }
    const credentials = clientCredentials(request);
    const tokenHash = sha256Hex(token);
    // Without the ORM, as the token endpoint (token-sql.ts): one read in the token's tenant (none when
    // the token is unknown) of the client and the token with its grant, user and tenant; the client is
    // authenticated on that row.
    return deps.db.rawTx.withCredentialTenant({ kind: "oidcToken", hash: tokenHash }, async (tx) => {
      const read = await readRefreshToken(tx, credentials.clientId, tokenHash);
      const client = confidential(verifyClient(read.client, credentials.secret));
      const row = read.token;
      if (!row || row.clientId !== client.clientId) return inactive;
      const now = deps.clock.now().getTime();
      if (row.revokedAt || row.rotatedAt || row.grantRevokedAt || row.expiresAt.getTime() <= now)
        return inactive;
      if (!row.userActive || !row.tenantActive) return inactive;
      return {
        active: true,
        scope: row.scope,
        client_id: row.clientId,
        sub: row.userId,
        token_type: row.kind === "access" ? "Bearer" : "refresh_token",
        exp: Math.floor(row.expiresAt.getTime() / 1000),
        iat: Math.floor(row.createdAt.getTime() / 1000),
        iss: deps.config.issuer,
      } satisfies IntrospectionResponse;
    });
  };
