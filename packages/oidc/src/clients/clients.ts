import type { Db, Tx } from "@hisob/db";
import { AppError, parseAuthorization, parseInput, ZRequiredLine } from "@hisob/kernel";
import { z } from "zod";
import { TOKEN_LIFETIME_BOUNDS, ZRedirectUri, ZWebOrigin } from "../admin/oidc-admin.schema";
import { SUPPORTED_GRANT_TYPES, SUPPORTED_SCOPES } from "../config";
import { OidcError } from "../oidc-error";
import { newOpaqueToken, safeEqual, sha256Hex } from "../opaque-token";

export type OidcClientRecord = {
  id: string;
  clientId: string;
  name: string;
  secretHash: string | null;
  applicationType: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Browser origins allowed by CORS (decision 0085). */
  webOrigins: string[];
  /** Seconds its tokens live; null: the server's setting (decision 0085). */
  accessTokenLifetime: number | null;
  refreshTokenLifetime: number | null;
  idTokenLifetime: number | null;
  grantTypes: string[];
  responseTypes: string[];
  scopes: string[];
  requirePkce: boolean;
  isFirstParty: boolean;
  isActive: boolean;
};

export const isPublicClient = (client: OidcClientRecord): boolean => client.secretHash === null;

const lifetime = (bounds: { min: number; max: number }) =>
  z.number().int().min(bounds.min).max(bounds.max).nullable().default(null);

export const ZCreateClientInput = z
  .object({
    name: ZRequiredLine(200),
    /** Only for well-known first-party clients (hisob-desktop); otherwise generated. */
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9._-]{3,100}$/)
      .optional(),
    redirectUris: z.array(ZRedirectUri).min(1).max(20),
    postLogoutRedirectUris: z.array(ZRedirectUri).max(20).default([]),
    webOrigins: z.array(ZWebOrigin).max(20).default([]),
    accessTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.accessTokenLifetime),
    idTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.idTokenLifetime),
    refreshTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.refreshTokenLifetime),
    isPublic: z.boolean().default(false),
    requirePkce: z.boolean().default(false),
    isFirstParty: z.boolean().default(false),
    applicationType: z.enum(["web", "native"]).default("web"),
    grantTypes: z
      .array(z.enum(SUPPORTED_GRANT_TYPES))
      .min(1)
      .default([...SUPPORTED_GRANT_TYPES]),
    scopes: z
      .array(z.enum(SUPPORTED_SCOPES))
      .min(1)
      .default([...SUPPORTED_SCOPES]),
  })
  .strict()
  .refine((input) => input.scopes.includes("openid"), {
    message: "scopes must include openid",
    path: ["scopes"],
  });
export type TCreateClientInput = z.input<typeof ZCreateClientInput>;

export type CreatedClient = { client: OidcClientRecord; clientSecret?: string };

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);

/**
 * Exact string match (the spec), with the one deliberate exception of RFC 8252 §7.3: a public
 * native client registered with a loopback http URI may use any port, same path and query.
 */
export const redirectUriMatches = (client: OidcClientRecord, requested: string): boolean => {
  if (client.redirectUris.includes(requested)) return true;
  if (!isPublicClient(client) || client.applicationType !== "native") return false;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== "http:" || !LOOPBACK_HOSTS.has(asked.hostname) || requested.includes("#"))
    return false;
  // Everything but the port must match a registered URI exactly (no credentials sneak in).
  const portless = new URL(asked.href);
  portless.port = "";
  return client.redirectUris.some((registered) => new URL(registered).href === portless.href);
};

export type ClientAuthRequest = {
  authorization?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
};

const clientFailure = (why: string) => new OidcError("invalid_client", why);

/** The client id and secret a request presents, by exactly one method (Basic, post, or id alone). */
export const clientCredentials = (request: ClientAuthRequest): { clientId: string; secret?: string } => {
  let clientId: string | undefined;
  let secret: string | undefined;
  if (request.authorization !== undefined) {
    const basic = parseAuthorization(request.authorization);
    if (basic.scheme !== "basic") throw clientFailure("Client authentication failed");
    if (request.clientSecret !== undefined)
      throw new OidcError("invalid_request", "Use one client authentication method");
    clientId = basic.clientId;
    secret = basic.secret;
    if (request.clientId !== undefined && request.clientId !== clientId) {
      throw new OidcError("invalid_request", "client_id does not match the authenticated client");
    }
  } else {
    clientId = request.clientId;
    secret = request.clientSecret;
  }
  if (!clientId) throw clientFailure("Client authentication failed");
  return secret === undefined ? { clientId } : { clientId, secret };
};

/** The client (as found now, null when unknown or inactive) authenticated by `secret`, or invalid_client. */
export const verifyClient = (
  client: OidcClientRecord | null,
  secret: string | undefined,
): OidcClientRecord => {
  if (!client?.isActive) throw clientFailure("Client authentication failed");
  if (client.secretHash === null) {
    // Public client: identified, not authenticated; PKCE proves the rest.
    if (secret !== undefined && secret !== "") throw clientFailure("Client authentication failed");
    return client;
  }
  if (!secret || !safeEqual(sha256Hex(secret), client.secretHash))
    throw clientFailure("Client authentication failed");
  return client;
};

/** What a client id may look like (every id we register matches); others are unknown without a lookup. */
export const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

export const createClients = (deps: { db: Db }) => {
  const { db } = deps;

  const findActive = async (clientId: string): Promise<OidcClientRecord | null> => {
    if (clientId.length === 0 || clientId.length > 100) return null;
    const client = await db.withPlatform((tx) => tx.oidcClient.findUnique({ where: { clientId } }));
    return client?.isActive ? client : null;
  };

  return {
    findActive,

    /** Registers a client; the secret of a confidential client is returned once and stored hashed. */
    create: async (
      raw: unknown,
      /** More work that must commit with the registration (its audit entry). */
      alsoInTransaction?: (
        tx: Tx,
        client: OidcClientRecord & { createdAt: Date; updatedAt: Date },
      ) => Promise<void>,
    ): Promise<CreatedClient> => {
      const input = parseInput(ZCreateClientInput, raw);
      const clientSecret = input.isPublic ? undefined : newOpaqueToken();
      try {
        const client = await db.withPlatform(async (tx) => {
          const created = await tx.oidcClient.create({
            data: {
              clientId: input.clientId ?? `c_${newOpaqueToken().slice(0, 22)}`,
              name: input.name,
              secretHash: clientSecret ? sha256Hex(clientSecret) : null,
              applicationType: input.applicationType,
              redirectUris: input.redirectUris,
              postLogoutRedirectUris: input.postLogoutRedirectUris,
              webOrigins: input.webOrigins,
              accessTokenLifetime: input.accessTokenLifetime,
              refreshTokenLifetime: input.refreshTokenLifetime,
              idTokenLifetime: input.idTokenLifetime,
              grantTypes: input.grantTypes,
              responseTypes: ["code"],
              scopes: input.scopes,
              // A public client has no secret: PKCE is its only proof, so it is always required.
              requirePkce: input.isPublic || input.requirePkce,
              isFirstParty: input.isFirstParty,
            },
          });
          await alsoInTransaction?.(tx, created);
          return created;
        });
        return clientSecret ? { client, clientSecret } : { client };
      } catch (error) {
        if ((error as { code?: string }).code === "P2002") {
          throw new AppError("CONFLICT", {
            reason: "oidc.client_exists",
            message: "A client with this client_id exists",
          });
        }
        throw error;
      }
    },

    /** Creates the client when missing (first start registers the accountant app). */
    ensure: async (raw: TCreateClientInput & { clientId: string }): Promise<boolean> => {
      // Every start asks, on the driver (an idle server should not hold Prisma's query compiler).
      const existing = await db.rawTx.withPlatform((tx) =>
        tx.query<{ id: string }>("SELECT id FROM oidc_clients WHERE client_id = $1", [raw.clientId]),
      );
      if (existing.length > 0) return false;
      const input = parseInput(ZCreateClientInput, raw);
      await db.withPlatform((tx) =>
        tx.oidcClient.create({
          data: {
            clientId: raw.clientId,
            name: input.name,
            secretHash: null,
            applicationType: input.applicationType,
            redirectUris: input.redirectUris,
            postLogoutRedirectUris: input.postLogoutRedirectUris,
            grantTypes: input.grantTypes,
            responseTypes: ["code"],
            scopes: input.scopes,
            requirePkce: true,
            isFirstParty: input.isFirstParty,
          },
        }),
      );
      return true;
    },

    /**
     * Client authentication at the token and revocation endpoints: HTTP Basic, client_secret_post,
     * or `client_id` alone for a public client. Exactly one method; every failure is invalid_client.
     */
    authenticate: async (request: ClientAuthRequest): Promise<OidcClientRecord> => {
      const { clientId, secret } = clientCredentials(request);
      return verifyClient(await findActive(clientId), secret);
    },
  };
};

export type Clients = ReturnType<typeof createClients>;
