import type { Db } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import type { Clients } from "./clients/clients";
import { clientAuthRequest, type FormParams, singleParam } from "./form-params";
import { OidcError } from "./oidc-error";
import { sha256Hex } from "./opaque-token";
import { revokeGrant } from "./token/grants";

type Body = FormParams;

/**
 * POST /oidc/revoke (RFC 7009): the client authenticates as at the token endpoint and may revoke
 * only its own tokens. Revoking a refresh token revokes its whole grant (its access tokens too);
 * revoking an access token revokes just it. Unknown or foreign tokens still answer 200.
 */
export const createRevoke =
  (deps: { db: Db; clients: Clients; clock: Clock }) =>
  async (body: Body, headers: { authorization?: string | undefined }): Promise<void> => {
    const value = (name: string) => singleParam(body, name);
    const client = await deps.clients.authenticate(clientAuthRequest(body, headers.authorization));
    // token_type_hint is optional and only a hint (RFC 7009 §2.1): we find the token either way.
    const token = value("token");
    if (!token) throw new OidcError("invalid_request", "token is required");
    if (token.length > 4096) return;
    const tokenHash = sha256Hex(token);
    const tenantId = await deps.db.system.findOidcTokenTenant(tokenHash);
    if (!tenantId) return;
    await deps.db.withTenant(tenantId, async (tx) => {
      const row = await tx.oidcToken.findUnique({
        where: { tokenHash },
        include: { grant: { select: { clientId: true } } },
      });
      if (!row || row.grant.clientId !== client.clientId) return;
      const now = deps.clock.now();
      if (row.kind === "refresh") await revokeGrant(tx, tenantId, row.grantId, now);
      else
        await tx.oidcToken.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: now } });
    });
  };
