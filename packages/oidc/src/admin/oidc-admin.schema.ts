import { ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";
import { SUPPORTED_GRANT_TYPES, SUPPORTED_SCOPES } from "../config";

/**
 * Browser-safe shapes of the OIDC administration (clients and signing keys), shared by the REST
 * routes, the CLI and the admin screens.
 */

/*
 * Redirect URIs (docs/decisions/0003-redirect-uris.md). Where a code or a token may be sent:
 * - `https://host/…`: written with `//` and a host, no wildcard in it;
 * - `http://` only to a loopback address: `127.0.0.1` or `[::1]` (RFC 8252 §7.3: a native app listens
 *   there, on any port) and, outside production and for web clients only, `localhost`;
 * - a private-use scheme for native apps (RFC 8252 §7.1): reverse domain name, one slash,
 *   `com.example.app:/callback`;
 * never a fragment or user information; nothing else (`javascript:`, `data:`, `vbscript:`, `file:`,
 * `blob:` …). `redirectUriShapeProblem` is what no client may ever have (the schema checks it, here and
 * in the admin screens); `redirectUriProblem` adds which hosts http may name and what depends on the
 * client and the environment (the OIDC administration checks it on every registration and change; the
 * accountant app's own registration at start is code, not input, and may name the issuer's origin).
 */

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** RFC 8252 §7.1: a reverse domain name the app's developer controls, so at least one dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;
const LOOPBACK_IPS = new Set(["127.0.0.1", "[::1]"]);

export type RedirectUriContext = {
  applicationType: "web" | "native";
  /** NODE_ENV=production: http goes to native apps' loopback only. */
  production: boolean;
  /** Our own origin (`{issuer}/app/callback`, the accountant app in a browser) is always a fine place. */
  issuer?: string | undefined;
};

/** Why no client may have `value` as a redirect URI; undefined when its shape is acceptable. */
export const redirectUriShapeProblem = (value: string): string | undefined => {
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || !URL.canParse(value)) return "must be an absolute URI";
  if (value.includes("#")) return "must not contain a fragment (#)";
  if (/[\s\\]/.test(value)) return "must not contain spaces or backslashes";
  const url = new URL(value);
  if (url.username !== "" || url.password !== "") return "must not contain user information (user@host)";
  if (scheme === "https" || scheme === "http") {
    // `https:evil.example` and `https:///x` parse as if written with a host: insist on one, written out.
    if (!/^https?:\/\/[^/?#]/i.test(value) || url.hostname === "")
      return "must name a host after // (e.g. https://app.example/callback)";
    if (url.hostname.includes("*"))
      return "must not contain a wildcard (*): every redirect URI is matched exactly";
    return undefined;
  }
  if (PRIVATE_USE_SCHEME.test(scheme)) {
    if (!/^[^:]+:\/(?!\/)/.test(value))
      return "a private-use scheme is written with one slash and no host, e.g. com.example.app:/callback";
    return undefined;
  }
  return "must be https, http to a loopback address, or a native app's private-use scheme such as com.example.app:/callback";
};

/** Why this client may not use `value` here; undefined when it may. */
export const redirectUriProblem = (value: string, context: RedirectUriContext): string | undefined => {
  const shape = redirectUriShapeProblem(value);
  if (shape) return shape;
  const url = new URL(value);
  if (
    context.issuer !== undefined &&
    URL.canParse(context.issuer) &&
    url.origin === new URL(context.issuer).origin
  )
    return undefined;
  const native = context.applicationType === "native";
  if (url.protocol === "http:") {
    if (!LOOPBACK_IPS.has(url.hostname) && url.hostname !== "localhost")
      return "must use https; http is only for a loopback address (http://127.0.0.1 or http://[::1])";
    if (url.hostname === "localhost") {
      if (native)
        return "a native app listens on http://127.0.0.1 or http://[::1], not localhost (RFC 8252 §8.3)";
      if (context.production) return "must use https in production (localhost is for development)";
      return undefined;
    }
    if (!native && context.production)
      return "must use https in production; http loopback redirects are for native apps (applicationType native)";
    return undefined;
  }
  if (url.protocol !== "https:" && !native)
    return "a private-use scheme is for native apps (applicationType native)";
  return undefined;
};

/** A redirect URI of an acceptable shape (see redirectUriShapeProblem). */
export const ZRedirectUri = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = redirectUriShapeProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/**
 * A browser app's origin, `scheme://host[:port]` exactly as a browser sends it in `Origin`: https (http
 * only to a loopback host or localhost), no path, query, fragment, user information or wildcard
 * (decision 0085).
 */
export const webOriginProblem = (value: string): string | undefined => {
  if (!URL.canParse(value)) return "must be an origin such as https://app.example";
  const url = new URL(value);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "must be an https origin such as https://app.example";
  if (value.includes("*")) return "must not contain a wildcard (*): every origin is matched exactly";
  if (url.origin !== value)
    return "must be only scheme://host[:port], lower case, without a path or trailing slash (e.g. https://app.example)";
  if (url.protocol === "http:" && !["127.0.0.1", "[::1]", "localhost"].includes(url.hostname))
    return "must use https; http is only for a loopback address";
  return undefined;
};

export const ZWebOrigin = z
  .string()
  .trim()
  .max(300)
  .superRefine((value, ctx) => {
    const problem = webOriginProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/**
 * A client's own token lifetimes, in seconds (decision 0085): null or absent means the server's
 * OIDC_*_LIFETIME. Access and ID tokens live a minute to a day; refresh tokens five minutes to a year.
 */
export const TOKEN_LIFETIME_BOUNDS = {
  accessTokenLifetime: { min: 60, max: 86_400 },
  idTokenLifetime: { min: 60, max: 86_400 },
  refreshTokenLifetime: { min: 300, max: 31_536_000 },
} as const;

const lifetime = (bounds: { min: number; max: number }) =>
  z.number().int().min(bounds.min).max(bounds.max).nullable();

const ZClientFields = {
  /** Shown to people (the login page, the admin screens): the same text rule as every other name. */
  name: ZRequiredLine(200),
  redirectUris: z.array(ZRedirectUri).min(1).max(20),
  postLogoutRedirectUris: z.array(ZRedirectUri).max(20),
  webOrigins: z.array(ZWebOrigin).max(20),
  accessTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.accessTokenLifetime),
  idTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.idTokenLifetime),
  refreshTokenLifetime: lifetime(TOKEN_LIFETIME_BOUNDS.refreshTokenLifetime),
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
    webOrigins: ZClientFields.webOrigins.default([]),
    accessTokenLifetime: ZClientFields.accessTokenLifetime.default(null),
    idTokenLifetime: ZClientFields.idTokenLifetime.default(null),
    refreshTokenLifetime: ZClientFields.refreshTokenLifetime.default(null),
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
    webOrigins: ZClientFields.webOrigins.optional(),
    accessTokenLifetime: ZClientFields.accessTokenLifetime.optional(),
    idTokenLifetime: ZClientFields.idTokenLifetime.optional(),
    refreshTokenLifetime: ZClientFields.refreshTokenLifetime.optional(),
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
    /** Browser origins that may call the token, userinfo, keys and revoke endpoints (CORS). */
    webOrigins: z.array(z.string()),
    /** Seconds; null: the server's setting. */
    accessTokenLifetime: z.number().int().nullable(),
    refreshTokenLifetime: z.number().int().nullable(),
    idTokenLifetime: z.number().int().nullable(),
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
    /** The one that signs new tokens now: the newest active key whose `signsFrom` has passed. */
    signing: z.boolean(),
    /** In /oidc/keys (active, or retired less than the longest token lifetime ago). */
    published: z.boolean(),
    createdAt: z.iso.datetime(),
    /**
     * When it signs from: created + OIDC_KEY_PROPAGATION_SECONDS, so that every instance publishes a
     * rotated key before any signs with it (the first key of an installation signs at once).
     */
    signsFrom: z.iso.datetime(),
    retiredAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "SigningKey" });
