import type { Db } from "@hisob/db";
import { type Clock, isPlatformOnlyPermission, type TenantContext, ZLocale } from "@hisob/kernel";
import { hashToken, looksLikeToken } from "../sessions/session-token";

export type Credentials = {
  sessionToken?: string | undefined;
  bearerToken?: string | undefined;
  requestId: string;
  /** The request's address and user agent, kept on the context for the audit log. */
  client?: { ip: string; userAgent: string };
};

/**
 * `resolveContext`: the one function every transport (REST, GraphQL, tRPC, WebSocket) calls to turn
 * a session cookie or a bearer token into a TenantContext. A cookie is a session token; a bearer
 * token is a session token (e.g. from the GraphQL `authenticate` mutation) or a first-party OIDC
 * access token (the accountant app). Either way the caller — tenant, user, activity of user, tenant
 * and client, language and effective permissions — is one statement, one round trip, no transaction
 * (`db.system.resolveCaller`). Nothing is cached, so ending a session, deactivating a user or tenant,
 * revoking a token or changing a role's permissions counts from the very next request on every
 * instance. Returns null when the credential is missing or dead — unknown, expired, revoked, or its
 * user, tenant or client deactivated.
 */
export const createContextService = (deps: { db: Db; clock: Clock }) => ({
  resolveContext: async (credentials: Credentials): Promise<TenantContext | null> => {
    const token = credentials.bearerToken ?? credentials.sessionToken;
    // Session tokens and OIDC access tokens are both base64url: garbage never reaches the database.
    if (!token || !looksLikeToken(token)) return null;
    const caller = await deps.db.system.resolveCaller(
      hashToken(token),
      credentials.bearerToken ? ["session", "oidc"] : ["session"],
    );
    if (!caller?.usable) return null;
    if (caller.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
    // Defence in depth: platform-only permissions count only inside the platform tenant.
    const permissions = caller.isPlatform
      ? caller.permissions
      : caller.permissions.filter((name) => !isPlatformOnlyPermission(name));
    return {
      tenantId: caller.tenantId,
      actor: { userId: caller.userId, permissions: new Set(permissions), sessionId: caller.sessionId },
      locale: ZLocale.catch("en").parse(caller.uiLanguage),
      requestId: credentials.requestId,
      isPlatformAdmin: caller.isPlatform,
      ...(credentials.client ? { client: credentials.client } : {}),
    };
  },
});

export type ContextService = ReturnType<typeof createContextService>;
