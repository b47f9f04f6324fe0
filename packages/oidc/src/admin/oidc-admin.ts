import { type AuditWho, asPlatformEvent, audit, type Db, diffFields, type Outbox } from "@hisob/db";
import {
  AppError,
  type Permission,
  parseInput,
  registerPermissions,
  requirePermission,
  type TenantContext,
} from "@hisob/kernel";
import type { Clients, OidcClientRecord } from "../clients/clients";
import type { OidcConfig } from "../config";
import { OIDC_CLIENT_ACCESS_REVOKED } from "../events";
import { KeyStillNeededError, type SigningKeyInfo, type SigningKeys } from "../keys";
import { newOpaqueToken, sha256Hex } from "../opaque-token";
import {
  redirectUriProblem,
  type TOidcClientDto,
  ZRegisterClientInput,
  ZUpdateClientInput,
} from "./oidc-admin.schema";

/** OIDC clients and signing keys are platform-wide: only the platform tenant's roles may hold these. */
export const OIDC_ADMIN_PERMISSIONS = registerPermissions(
  "oidc",
  {
    "oidc_clients:read:all": "Read OIDC clients (platform admin)",
    "oidc_clients:create:all": "Register OIDC clients (platform admin)",
    "oidc_clients:update:all": "Edit, deactivate OIDC clients and rotate their secrets (platform admin)",
    "signing_keys:read:all": "List signing keys (platform admin)",
    "signing_keys:rotate:all": "Rotate the signing key (platform admin)",
    "signing_keys:retire:all": "Retire signing keys (platform admin)",
  },
  { platformOnly: true },
);

/** Who manages: a signed-in platform administrator (REST), or the operator at the CLI (no permission check). */
export type OidcAdminCaller = TenantContext | "cli";

const CLI: AuditWho = { tenantId: null, actor: null, requestId: "cli" };

const who = (caller: OidcAdminCaller): AuditWho => (caller === "cli" ? CLI : asPlatformEvent(caller));

const allow = (caller: OidcAdminCaller, permission: Permission) => {
  if (caller !== "cli") requirePermission(caller, permission);
};

const clientNotFound = () =>
  new AppError("NOT_FOUND", { reason: "oidc.client_not_found", message: "OIDC client not found" });

type ClientRow = OidcClientRecord & { createdAt: Date; updatedAt: Date };

export const toClientDto = (row: ClientRow): TOidcClientDto => ({
  clientId: row.clientId,
  name: row.name,
  isPublic: row.secretHash === null,
  applicationType: row.applicationType,
  redirectUris: row.redirectUris,
  postLogoutRedirectUris: row.postLogoutRedirectUris,
  webOrigins: row.webOrigins,
  accessTokenLifetime: row.accessTokenLifetime,
  refreshTokenLifetime: row.refreshTokenLifetime,
  idTokenLifetime: row.idTokenLifetime,
  grantTypes: row.grantTypes,
  responseTypes: row.responseTypes,
  scopes: row.scopes,
  requirePkce: row.requirePkce,
  isFirstParty: row.isFirstParty,
  isActive: row.isActive,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Managing the provider while it runs: the REST routes and the CLI call these same functions, each
 * change audited in its own transaction. Keys rotate and retire by the CLI's rules (signing-keys.ts),
 * and this process's key cache reloads at once.
 */
export const createOidcAdmin = (deps: {
  db: Db;
  /** Announces a client whose tokens stop working (deactivated, or no longer first-party). */
  outbox: Outbox;
  clients: Clients;
  keys: SigningKeys;
  config: Pick<OidcConfig, "issuer" | "production">;
  /** A client was registered or changed (this instance's cache of web origins forgets). */
  onClientChanged?: () => void;
}) => {
  const { db, clients, keys, config } = deps;

  /**
   * Every redirect URI of a client as registered or changed, by the rule of its type and this
   * environment (redirectUriProblem): 400 naming each one refused.
   */
  const checkRedirectUris = (
    applicationType: string,
    uris: {
      redirectUris?: readonly string[] | undefined;
      postLogoutRedirectUris?: readonly string[] | undefined;
    },
  ) => {
    const context = {
      applicationType: applicationType === "native" ? ("native" as const) : ("web" as const),
      production: config.production,
      issuer: config.issuer,
    };
    const issues = (["redirectUris", "postLogoutRedirectUris"] as const).flatMap((field) =>
      (uris[field] ?? []).flatMap((uri, index) => {
        const problem = redirectUriProblem(uri, context);
        return problem ? [{ path: `${field}.${index}`, message: problem }] : [];
      }),
    );
    if (issues.length > 0) {
      throw new AppError("VALIDATION_ERROR", {
        reason: "oidc.redirect_uri_refused",
        message: `validation error: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
        params: { issues },
      });
    }
  };

  const findClient = async (clientId: string): Promise<ClientRow> => {
    if (clientId.length === 0 || clientId.length > 100) throw clientNotFound();
    const row = await db.withPlatform((tx) => tx.oidcClient.findUnique({ where: { clientId } }));
    if (!row) throw clientNotFound();
    return row;
  };

  return {
    listClients: async (caller: OidcAdminCaller): Promise<TOidcClientDto[]> => {
      allow(caller, "oidc_clients:read:all");
      const rows = await db.withPlatform((tx) =>
        tx.oidcClient.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1000 }),
      );
      return rows.map(toClientDto);
    },

    getClient: async (caller: OidcAdminCaller, clientId: string): Promise<TOidcClientDto> => {
      allow(caller, "oidc_clients:read:all");
      return toClientDto(await findClient(clientId));
    },

    /** Registers a client; a confidential client's secret is in the answer once and never again. */
    createClient: async (
      caller: OidcAdminCaller,
      raw: unknown,
    ): Promise<{ client: TOidcClientDto; clientSecret?: string }> => {
      allow(caller, "oidc_clients:create:all");
      const input = parseInput(ZRegisterClientInput, raw);
      checkRedirectUris(input.applicationType, input);
      const created = await clients.create(input, (tx, client) =>
        audit(tx, who(caller), "oidc_client", client.clientId, "create", { after: toClientDto(client) }),
      );
      deps.onClientChanged?.();
      const client = toClientDto(await findClient(created.client.clientId));
      return created.clientSecret ? { client, clientSecret: created.clientSecret } : { client };
    },

    /** Edits a client (isActive: false deactivates it: its tokens stop working from the next request). */
    updateClient: async (
      caller: OidcAdminCaller,
      clientId: string,
      raw: unknown,
    ): Promise<TOidcClientDto> => {
      allow(caller, "oidc_clients:update:all");
      const input = parseInput(ZUpdateClientInput, raw);
      const updated = await db.withPlatform(async (tx) => {
        const before = await tx.oidcClient.findUnique({ where: { clientId } });
        if (!before) throw clientNotFound();
        // URIs being set, or all of them when the type changes (a native client turned web in
        // production may not keep its loopback URIs). Renaming or deactivating a client registered
        // under an older rule checks nothing: it must stay possible to switch such a client off.
        if (input.redirectUris || input.postLogoutRedirectUris || input.applicationType !== undefined) {
          checkRedirectUris(input.applicationType ?? before.applicationType, {
            redirectUris: input.redirectUris ?? before.redirectUris,
            postLogoutRedirectUris: input.postLogoutRedirectUris ?? before.postLogoutRedirectUris,
          });
        }
        // A public client has no secret: PKCE is its only proof, so it stays required.
        if (before.secretHash === null && input.requirePkce === false) {
          throw new AppError("BUSINESS_RULE", {
            reason: "oidc.public_client_needs_pkce",
            message: "A public client must require PKCE",
            params: { field: "requirePkce" },
          });
        }
        const after = await tx.oidcClient.update({ where: { clientId }, data: input });
        // Its access tokens stop working on our APIs from the next request; announced in this
        // transaction, so sockets open on them close too (docs/decisions/0011).
        if ((before.isActive && !after.isActive) || (before.isFirstParty && !after.isFirstParty)) {
          await deps.outbox.raise(tx, {
            type: OIDC_CLIENT_ACCESS_REVOKED,
            tenantId: null,
            payload: { clientId },
          });
        }
        await audit(
          tx,
          who(caller),
          "oidc_client",
          clientId,
          "update",
          diffFields(toClientDto(before), toClientDto(after)),
        );
        return after;
      });
      deps.onClientChanged?.();
      return toClientDto(updated);
    },

    /** A new secret for a confidential client, shown once; the old one stops working at once. */
    rotateSecret: async (
      caller: OidcAdminCaller,
      clientId: string,
    ): Promise<{ clientId: string; clientSecret: string }> => {
      allow(caller, "oidc_clients:update:all");
      const clientSecret = newOpaqueToken();
      await db.withPlatform(async (tx) => {
        const row = await tx.oidcClient.findUnique({ where: { clientId }, select: { secretHash: true } });
        if (!row) throw clientNotFound();
        if (row.secretHash === null) {
          throw new AppError("BUSINESS_RULE", {
            reason: "oidc.public_client_has_no_secret",
            message: "A public client has no secret to rotate",
          });
        }
        await tx.oidcClient.update({ where: { clientId }, data: { secretHash: sha256Hex(clientSecret) } });
        await audit(tx, who(caller), "oidc_client", clientId, "rotate_secret");
      });
      return { clientId, clientSecret };
    },

    listKeys: async (caller: OidcAdminCaller): Promise<SigningKeyInfo[]> => {
      allow(caller, "signing_keys:read:all");
      return keys.list();
    },

    /** A new signing key; the older ones stay published (they stop signing) until retired. */
    rotateKey: async (caller: OidcAdminCaller): Promise<SigningKeyInfo> => {
      allow(caller, "signing_keys:rotate:all");
      return keys.rotate((tx, kid) => audit(tx, who(caller), "signing_key", kid, "rotate"));
    },

    /** Unpublishes an older key once no token it signed can still be valid (409 otherwise). */
    retireKey: async (caller: OidcAdminCaller, kid: string): Promise<SigningKeyInfo> => {
      allow(caller, "signing_keys:retire:all");
      try {
        return await keys.retire(kid, (tx) => audit(tx, who(caller), "signing_key", kid, "retire"));
      } catch (error) {
        if (error instanceof KeyStillNeededError) {
          const unknown = !(await keys.list()).some((key) => key.kid === kid);
          throw unknown
            ? new AppError("NOT_FOUND", { reason: "oidc.key_not_found", message: error.message })
            : new AppError("CONFLICT", { reason: "oidc.key_still_needed", message: error.message });
        }
        throw error;
      }
    },
  };
};

export type OidcAdmin = ReturnType<typeof createOidcAdmin>;
