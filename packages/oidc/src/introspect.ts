import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { Clients } from "./clients/clients";
import type { OidcConfig } from "./config";
import { clientAuthRequest, type FormParams, singleParam } from "./form-params";
import { OidcError } from "./oidc-error";
import { looksLikeOpaqueToken, sha256Hex } from "./opaque-token";

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
    const client = await deps.clients.authenticate(clientAuthRequest(body, headers.authorization));
    // Introspection reveals token metadata: public clients (no secret) may not use it.
    if (client.secretHash === null)
      throw new OidcError("invalid_client", "Introspection needs a confidential client");
    const token = value("token");
    if (!token) throw new OidcError("invalid_request", "token is required");
    const inactive = { active: false } as const;
    if (!looksLikeOpaqueToken(token)) return inactive;
    const tokenHash = sha256Hex(token);
    const tenantId = await deps.db.system.findOidcTokenTenant(tokenHash);
    if (!tenantId) return inactive;
    return deps.db.withTenant(tenantId, async (tx) => {
      const row = await tx.oidcToken.findUnique({
        where: { tokenHash },
        include: {
          grant: {
            include: { user: { select: { isActive: true, tenant: { select: { isActive: true } } } } },
          },
        },
      });
      if (!row || row.grant.clientId !== client.clientId) return inactive;
      const now = deps.clock.now().getTime();
      if (row.revokedAt || row.rotatedAt || row.grant.revokedAt || row.expiresAt.getTime() <= now)
        return inactive;
      if (!row.grant.user.isActive || !row.grant.user.tenant.isActive) return inactive;
      return {
        active: true,
        scope: row.scope,
        client_id: row.grant.clientId,
        sub: row.grant.userId,
        token_type: row.kind === "access" ? "Bearer" : "refresh_token",
        exp: Math.floor(row.expiresAt.getTime() / 1000),
        iat: Math.floor(row.createdAt.getTime() / 1000),
        iss: deps.config.issuer,
      };
    });
  };
