import type { AuditWho } from "./audit";
import type { Tx } from "./client";
import { deleteExpiredIdempotencyKeys } from "./idempotency";
import type { RawTransactions } from "./raw-tenant";
import { type CallerRow, type ResolvedCaller, toResolvedCaller } from "./resolved-caller";
import { type SignInFailure, signInFailureEntry } from "./sign-in-failures";

/**
 * The named lookups that must happen before the tenant is known (ARCHITECTURE.md, "Tenancy").
 * They run as the `hisob_system` role, which may see every tenant's rows; that is why this object
 * offers only these operations and never a general query handle. Add a lookup here only when no
 * tenant can be known yet, and keep it as narrow as the caller needs.
 */
export type RunAsSystem = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export type LoginCandidate = {
  userId: string;
  tenantId: string;
  passwordHash: string | null;
  isActive: boolean;
  tenantIsActive: boolean;
};

export type SessionLookup = {
  id: string;
  tenantId: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
  userIsActive: boolean;
  tenantIsActive: boolean;
};

export const createSystemQueries = (runAsSystem: RunAsSystem, raw: RawTransactions) => ({
  /**
   * Every request: a session token (`kinds: ["session"]`, the cookie) or a bearer token (also a
   * first-party OIDC access token) by its SHA-256 → the caller with its permissions, in one round
   * trip and no transaction. Null when no such credential exists.
   */
  resolveCaller: async (
    tokenHash: string,
    kinds: ReadonlyArray<"session" | "oidc">,
  ): Promise<ResolvedCaller | null> => {
    // On the driver: every request asks, and a read path should not go through Prisma's compiler.
    const rows = await raw.once<CallerRow>("SELECT * FROM hisob_resolve_caller($1, $2)", [
      tokenHash,
      kinds.join(","),
    ]);
    const row = rows[0];
    return row ? toResolvedCaller(row) : null;
  },

  /**
   * `resolveCaller` for many credentials in one statement (an instance re-checking all its open sockets):
   * the resolution of each, in order, null where the credential is unknown.
   */
  resolveCallers: async (
    credentials: ReadonlyArray<{ tokenHash: string; kinds: ReadonlyArray<"session" | "oidc"> }>,
  ): Promise<Array<ResolvedCaller | null>> => {
    if (credentials.length === 0) return [];
    const rows = await raw.once<CallerRow & { position: number }>(
      `SELECT c.position::int AS position, r.*
         FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c(token_hash, kinds, position)
        CROSS JOIN LATERAL hisob_resolve_caller(c.token_hash, c.kinds) r`,
      [
        credentials.map((credential) => credential.tokenHash),
        credentials.map((credential) => credential.kinds.join(",")),
      ],
    );
    const resolved: Array<ResolvedCaller | null> = credentials.map(() => null);
    for (const row of rows) resolved[row.position - 1] = toResolvedCaller(row);
    return resolved;
  },

  /**
   * Whether a credential that resolves to no caller is a live OIDC access token of an active client that is
   * not first-party: valid, but issued for another application (its tokens are for userinfo only).
   */
  isOtherClientsAccessToken: async (tokenHash: string): Promise<boolean> => {
    const [row] = await raw.withSystem((tx) =>
      tx.query<{ found: boolean }>(
        `SELECT EXISTS (
           SELECT 1 FROM oidc_tokens t
             JOIN oidc_grants g ON g.id = t.grant_id
             JOIN oidc_clients c ON c.client_id = g.client_id
            WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL AND t.expires_at > now()
              AND g.revoked_at IS NULL AND c.is_active AND NOT c.is_first_party) AS found`,
        [tokenHash],
        { prepared: true, commit: true },
      ),
    );
    return row?.found === true;
  },

  /**
   * A session was used (decision 0055): its last access and what used it — "browser" (the cookie),
   * "api" (its token as a bearer), or for an OIDC access token the client its grant belongs to. Only
   * when the stored time is a minute old or more, so at most one write per session a minute whatever
   * the number of instances; answers the stored last access (null when the session is gone).
   */
  touchSession: async (
    touch: { sessionId: string; via: "browser" | "api" | "oidc"; tokenHash: string },
    now: Date,
  ): Promise<Date | null> => {
    const [row] = await raw.withSystem((tx) =>
      tx.query<{ at: Date | null }>(
        `WITH touched AS (
           UPDATE sessions SET last_access_at = $3::timestamptz,
                  last_client = CASE WHEN $2 = 'oidc'
                    THEN COALESCE((SELECT g.client_id FROM oidc_tokens t JOIN oidc_grants g ON g.id = t.grant_id
                                    WHERE t.token_hash = $4), 'api')
                    ELSE $2 END
            WHERE id = $1::uuid AND last_access_at <= $3::timestamptz - interval '1 minute'
            RETURNING last_access_at)
         SELECT COALESCE((SELECT last_access_at FROM touched),
                         (SELECT last_access_at FROM sessions WHERE id = $1::uuid)) AS at`,
        [touch.sessionId, touch.via, now, touch.tokenHash],
        { prepared: true, commit: true },
      ),
    );
    return row?.at ? new Date(row.at) : null;
  },

  /**
   * Is the organization active? Asked when a GraphQL socket's credential is found dead, so its close can
   * say the organization was deactivated (docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md).
   */
  isTenantActive: async (tenantId: string): Promise<boolean> => {
    const [row] = await raw.withSystem((tx) =>
      tx.query<{ active: boolean }>("SELECT is_active AS active FROM tenants WHERE id = $1::uuid", [
        tenantId,
      ]),
    );
    return row?.active === true;
  },

  /** Has the platform tenant been created (otherwise the first start bootstraps it)? */
  hasPlatformTenant: async (): Promise<boolean> => {
    // On the driver: every start asks, and an idle server should not hold Prisma's query compiler.
    const [row] = await raw.withSystem((tx) =>
      tx.query<{ found: boolean }>("SELECT EXISTS (SELECT 1 FROM tenants WHERE is_platform) AS found"),
    );
    return row?.found === true;
  },

  /** Login: the tenant is resolved from the user's platform-wide unique email. */
  findLoginByEmail: async (email: string): Promise<LoginCandidate | null> => {
    // On the driver, as every sign-in's first step: signing in does not load Prisma's query compiler.
    const [row] = await raw.withSystem((tx) =>
      tx.query<LoginCandidate>(
        `SELECT u.id::text AS "userId", u.tenant_id::text AS "tenantId", u.password_hash AS "passwordHash",
                u.is_active AS "isActive", t.is_active AS "tenantIsActive"
           FROM users u JOIN tenants t ON t.id = u.tenant_id
          WHERE u.email = $1`,
        [email.trim().toLowerCase()],
        { prepared: true, commit: true },
      ),
    );
    return row ?? null;
  },

  /**
   * A failed sign-in, counted in the audit log of the user's tenant (or of the platform, for an
   * unknown email): one entry per client network, user and window of SIGN_IN_FAILURE_WINDOW_MS,
   * added to on every further failure (see signInFailureEntry). Nothing changed, so it has its own
   * transaction (on the driver, as the sign-in's other steps).
   */
  recordFailedSignIn: async (who: AuditWho, failure: SignInFailure): Promise<void> => {
    const { text, values } = signInFailureEntry(who, failure);
    await raw.withSystem((tx) => tx.query(text, values, { prepared: true, commit: true }));
  },

  /**
   * Housekeeping across tenants: every idempotency key past its expiry (by the database's clock)
   * deleted in one statement; how many went. The server runs it hourly.
   */
  deleteExpiredIdempotencyKeys: (): Promise<number> => raw.withSystem(deleteExpiredIdempotencyKeys),

  /** Session cookie → its session, with the activity of its user and tenant. */
  findSessionByTokenHash: (tokenHash: string): Promise<SessionLookup | null> =>
    runAsSystem(async (tx) => {
      const session = await tx.session.findUnique({
        where: { tokenHash },
        select: {
          id: true,
          tenantId: true,
          userId: true,
          expiresAt: true,
          createdAt: true,
          user: { select: { isActive: true } },
          tenant: { select: { isActive: true } },
        },
      });
      if (!session) return null;
      const { user, tenant, ...rest } = session;
      return { ...rest, userIsActive: user.isActive, tenantIsActive: tenant.isActive };
    }),

  /** OIDC token endpoint: the tenant an authorization code (by its hash) belongs to. */
  findOidcCodeTenant: (codeHash: string): Promise<string | null> =>
    runAsSystem(
      async (tx) =>
        (await tx.oidcAuthorizationCode.findUnique({ where: { codeHash }, select: { tenantId: true } }))
          ?.tenantId ?? null,
    ),

  /** OIDC endpoints and bearer auth: the tenant an access or refresh token (by its hash) belongs to. */
  findOidcTokenTenant: (tokenHash: string): Promise<string | null> =>
    runAsSystem(
      async (tx) =>
        (await tx.oidcToken.findUnique({ where: { tokenHash }, select: { tenantId: true } }))?.tenantId ??
        null,
    ),

  /** RP-initiated logout knows a login session only by its id (the ID token's `sid`). */
  findSessionTenant: (sessionId: string): Promise<string | null> =>
    runAsSystem(
      async (tx) =>
        (await tx.session.findUnique({ where: { id: sessionId }, select: { tenantId: true } }))?.tenantId ??
        null,
    ),

  /**
   * Grants newly registered permissions to every tenant's built-in admin role (platform-only ones
   * to the platform tenant's alone), so "admin holds every permission" stays true as modules grow.
   */
  grantToAdminRoles: (input: { roleName: string; permissions: string[]; platformOnly: string[] }) =>
    runAsSystem(
      (tx) =>
        tx.$executeRaw`
        INSERT INTO role_permissions (tenant_id, role_id, permission_id)
        SELECT r.tenant_id, r.id, p.id
        FROM roles r
        JOIN tenants t ON t.id = r.tenant_id
        JOIN permissions p ON p.name = ANY(${input.permissions}::text[])
        WHERE r.name = ${input.roleName} AND (t.is_platform OR NOT (p.name = ANY(${input.platformOnly}::text[])))
        ON CONFLICT DO NOTHING`,
    ),

  markOutboxFailed: (id: string, error: string, retryAt: Date) =>
    runAsSystem((tx) =>
      tx.outboxEvent.update({
        where: { id },
        data: { lastError: error.slice(0, 2000), availableAt: retryAt },
      }),
    ),
});

export type SystemQueries = ReturnType<typeof createSystemQueries>;
