import type { Db } from "@hisob/db";
import { createLocalJWKSet, decodeJwt, type JWTPayload, jwtVerify } from "jose";
import { redirectTo } from "./authorize/authorize";
import type { Clients } from "./clients/clients";
import type { OidcConfig } from "./config";
import { type FormParams, singleParam } from "./form-params";
import type { SigningKeys } from "./keys";
import { OidcError } from "./oidc-error";

type Params = FormParams;

export type EndSessionOutcome =
  /** Where to send the browser: the client's registered post-logout URI (with state), or our own page. */
  { type: "redirect"; location: string; sessionIds: string[] } | { type: "signed-out"; sessionIds: string[] };

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): `id_token_hint` identifies the
 * client and the login session (`sid`); an expired hint is accepted (the user may come back hours
 * later) but its signature must be ours. `post_logout_redirect_uri` must be registered for that
 * client. The caller ends the returned login sessions (which deletes their grants and tokens).
 */
export const createEndSession =
  (deps: { db: Db; clients: Clients; keys: SigningKeys; config: OidcConfig }) =>
  async (raw: Params, browserSessionId: string | null): Promise<EndSessionOutcome> => {
    // An ID token hint is long: twice the other endpoints' limit.
    const param = (name: string) => singleParam(raw, name, 8192);
    const hint = param("id_token_hint");
    const postLogout = param("post_logout_redirect_uri");
    const state = param("state");
    // Without a hint any site could sign our users out (logout CSRF): the hint is required.
    if (!hint) throw new OidcError("invalid_request", "id_token_hint is required");
    let claims: JWTPayload | undefined;
    try {
      // Verify the signature and issuer; an expired hint is still a valid hint.
      const jwks = createLocalJWKSet(deps.keys.jwks());
      const { iat } = decodeJwt(hint);
      ({ payload: claims } = await jwtVerify(hint, jwks, {
        issuer: deps.config.issuer,
        algorithms: ["RS256"],
        currentDate: new Date((iat ?? 0) * 1000),
      }));
    } catch {
      throw new OidcError("invalid_request", "Invalid id_token_hint");
    }
    const audience =
      typeof claims?.aud === "string" ? claims.aud : Array.isArray(claims?.aud) ? claims?.aud[0] : undefined;
    const clientId = param("client_id") ?? audience;
    if (audience && param("client_id") && param("client_id") !== audience) {
      throw new OidcError("invalid_request", "client_id does not match id_token_hint");
    }
    const sessionIds = new Set<string>();
    if (typeof claims?.sid === "string") sessionIds.add(claims.sid);
    if (browserSessionId) sessionIds.add(browserSessionId);
    if (!postLogout) return { type: "signed-out", sessionIds: [...sessionIds] };
    const client = clientId ? await deps.clients.findActive(clientId) : null;
    if (!client || !client.postLogoutRedirectUris.includes(postLogout)) {
      throw new OidcError("invalid_request", "Invalid post_logout_redirect_uri");
    }
    return { type: "redirect", location: redirectTo(postLogout, { state }), sessionIds: [...sessionIds] };
  };
