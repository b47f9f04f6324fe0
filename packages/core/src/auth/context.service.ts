import type { Db } from "@hisob/db";
import { isPlatformOnlyPermission, type Locale, type TenantContext, ZLocale } from "@hisob/kernel";
import { loadEffectivePermissions } from "../permissions/effective-permissions";
import type { AuthService, Principal } from "./auth.service";

/** Verifies a bearer token; the OIDC module adds one for its access tokens. */
export type BearerVerifier = (token: string) => Promise<Principal | null>;

export type Credentials = {
  sessionToken?: string | undefined;
  bearerToken?: string | undefined;
  requestId: string;
};

/**
 * `resolveContext`: the one function every transport (REST, GraphQL, tRPC, WebSocket) calls to turn
 * a session cookie or a bearer token into a TenantContext. Bearer tokens are tried against each
 * verifier in turn: session tokens first (e.g. from the GraphQL `authenticate` mutation), then the
 * ones registered later (OIDC access tokens). Returns null when the credential is missing or dead —
 * unknown, expired, or its user or tenant deactivated.
 */
export const createContextService = (deps: { db: Db; auth: AuthService }) => {
  const bearerVerifiers: BearerVerifier[] = [deps.auth.resolveSessionToken];

  const principalOf = async (credentials: Credentials): Promise<Principal | null> => {
    if (credentials.bearerToken) {
      for (const verify of bearerVerifiers) {
        const principal = await verify(credentials.bearerToken);
        if (principal) return principal;
      }
      return null;
    }
    if (credentials.sessionToken) return deps.auth.resolveSessionToken(credentials.sessionToken);
    return null;
  };

  return {
    registerBearerVerifier: (verifier: BearerVerifier) => {
      bearerVerifiers.push(verifier);
    },

    resolveContext: async (credentials: Credentials): Promise<TenantContext | null> => {
      const principal = await principalOf(credentials);
      if (!principal) return null;
      return deps.db.withTenant(principal.tenantId, async (tx) => {
        const user = await tx.user.findFirst({
          where: { tenantId: principal.tenantId, id: principal.userId },
          select: {
            isActive: true,
            uiLanguage: true,
            tenant: { select: { isActive: true, isPlatform: true } },
          },
        });
        if (!user?.isActive || !user.tenant.isActive) return null;
        const granted =
          (await loadEffectivePermissions(tx, principal.tenantId, [principal.userId])).get(
            principal.userId,
          ) ?? [];
        // Defence in depth: platform-only permissions count only inside the platform tenant.
        const permissions = user.tenant.isPlatform
          ? granted
          : granted.filter((name) => !isPlatformOnlyPermission(name));
        const locale: Locale = ZLocale.catch("en").parse(user.uiLanguage);
        return {
          tenantId: principal.tenantId,
          actor: {
            userId: principal.userId,
            permissions: new Set(permissions),
            ...(principal.sessionId ? { sessionId: principal.sessionId } : {}),
          },
          locale,
          requestId: credentials.requestId,
          isPlatformAdmin: user.tenant.isPlatform,
        };
      });
    },
  };
};

export type ContextService = ReturnType<typeof createContextService>;
