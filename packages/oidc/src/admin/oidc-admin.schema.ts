import { z } from "zod";
import { SUPPORTED_GRANT_TYPES, SUPPORTED_SCOPES } from "../config";

/**
 * Browser-safe shapes of the OIDC administration (clients and signing keys), shared by the REST
 * routes, the CLI and the admin screens.
 */

/** A redirect URI we accept: absolute, no fragment (RFC 6749 §3.1.2), no credentials. */
export const ZRedirectUri = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        url.hash === "" &&
        !value.includes("#") &&
        url.username === "" &&
        url.password === "" &&
        url.protocol !== "javascript:" &&
        url.protocol !== "data:"
      );
    } catch {
      return false;
    }
  }, "must be an absolute URI without a fragment");

const ZClientFields = {
  name: z.string().trim().min(1).max(200),
  redirectUris: z.array(ZRedirectUri).min(1).max(20),
  postLogoutRedirectUris: z.array(ZRedirectUri).max(20),
  requirePkce: z.boolean(),
  isFirstParty: z.boolean(),
  applicationType: z.enum(["web", "native"]),
  grantTypes: z.array(z.enum(SUPPORTED_GRANT_TYPES)).min(1),
  scopes: z.array(z.enum(SUPPORTED_SCOPES)).min(1),
};

const includesOpenid = (input: { scopes?: readonly string[] | undefined }) =>
  input.scopes === undefined || input.scopes.includes("openid");

/** Registering a client (REST, CLI, admin screens): its client_id is always generated. */
export const ZRegisterClientInput = z
  .object({
    name: ZClientFields.name,
    redirectUris: ZClientFields.redirectUris,
    postLogoutRedirectUris: ZClientFields.postLogoutRedirectUris.default([]),
    /** A public client (a browser or native app) has no secret and always requires PKCE. */
    isPublic: z.boolean().default(false),
    requirePkce: ZClientFields.requirePkce.default(false),
    isFirstParty: ZClientFields.isFirstParty.default(false),
    applicationType: ZClientFields.applicationType.default("web"),
    grantTypes: ZClientFields.grantTypes.default([...SUPPORTED_GRANT_TYPES]),
    scopes: ZClientFields.scopes.default([...SUPPORTED_SCOPES]),
  })
  .strict()
  .refine(includesOpenid, { message: "scopes must include openid", path: ["scopes"] });
export type TRegisterClientInput = z.input<typeof ZRegisterClientInput>;

export const ZUpdateClientInput = z
  .object({
    name: ZClientFields.name.optional(),
    redirectUris: ZClientFields.redirectUris.optional(),
    postLogoutRedirectUris: ZClientFields.postLogoutRedirectUris.optional(),
    requirePkce: ZClientFields.requirePkce.optional(),
    isFirstParty: ZClientFields.isFirstParty.optional(),
    applicationType: ZClientFields.applicationType.optional(),
    grantTypes: ZClientFields.grantTypes.optional(),
    scopes: ZClientFields.scopes.optional(),
    isActive: z.boolean().optional(),
  })
  .strict()
  .refine(includesOpenid, { message: "scopes must include openid", path: ["scopes"] });
export type TUpdateClientInput = z.input<typeof ZUpdateClientInput>;

export const ZOidcClientDto = z
  .object({
    clientId: z.string(),
    name: z.string(),
    /** A public client has no secret (PKCE proves it); a confidential one authenticates with its secret. */
    isPublic: z.boolean(),
    applicationType: z.string(),
    redirectUris: z.array(z.string()),
    postLogoutRedirectUris: z.array(z.string()),
    grantTypes: z.array(z.string()),
    responseTypes: z.array(z.string()),
    scopes: z.array(z.string()),
    requirePkce: z.boolean(),
    isFirstParty: z.boolean(),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "OidcClient" });
export type TOidcClientDto = z.infer<typeof ZOidcClientDto>;

/** A client as registered, with its secret: the only time the secret is ever shown. */
export const ZRegisteredClientDto = z.object({
  client: ZOidcClientDto,
  /** Confidential clients only; stored as a hash, never shown again. */
  clientSecret: z.string().optional(),
});

export const ZRotatedSecretDto = z.object({ clientId: z.string(), clientSecret: z.string() });

export const ZSigningKeyDto = z
  .object({
    kid: z.string(),
    algorithm: z.string(),
    /** Not retired. */
    active: z.boolean(),
    /** The newest active key: the one that signs new tokens. */
    signing: z.boolean(),
    /** In /oidc/keys (active, or retired less than the longest token lifetime ago). */
    published: z.boolean(),
    createdAt: z.iso.datetime(),
    retiredAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "SigningKey" });
