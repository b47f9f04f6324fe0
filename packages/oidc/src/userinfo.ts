import type { AccessTokenVerifier } from "./access-tokens";
import type { OidcConfig } from "./config";
import { OidcError } from "./oidc-error";

export type UserInfo = {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  picture?: string;
  updated_at?: number;
  email?: string;
  email_verified?: false;
  phone_number_verified?: false;
};

/** A relative avatar (an upload path) becomes an absolute URL on the issuer. */
const absolute = (url: string, issuer: string): string | undefined => {
  try {
    const absoluteUrl = new URL(url, `${issuer}/`);
    // Only web URLs: a javascript: or data: picture would be an XSS vector for relying parties.
    return absoluteUrl.protocol === "https:" || absoluteUrl.protocol === "http:"
      ? absoluteUrl.toString()
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * GET/POST /oidc/userinfo: the spec's claims by granted scope. `profile` carries name, given_name,
 * family_name, picture, updated_at and phone_number_verified (we have no phone scope); `email`
 * carries email and email_verified. Both verified flags are always false: the spec plans verification for a later phase.
 */
export const createUserinfo =
  (deps: { config: OidcConfig; verifyAccessToken: AccessTokenVerifier }) =>
  async (token: string | undefined): Promise<UserInfo> => {
    if (!token) throw new OidcError("invalid_token", "Missing bearer access token");
    const access = await deps.verifyAccessToken(token);
    if (!access) throw new OidcError("invalid_token", "Invalid or expired access token");
    const { user } = access;
    const claims: UserInfo = { sub: access.userId };
    if (access.scope.includes("profile")) {
      claims.name = `${user.firstName} ${user.lastName}`.trim();
      claims.given_name = user.firstName;
      claims.family_name = user.lastName;
      const picture = user.avatarUrl ? absolute(user.avatarUrl, deps.config.issuer) : undefined;
      if (picture) claims.picture = picture;
      claims.updated_at = Math.floor(user.updatedAt.getTime() / 1000);
      claims.phone_number_verified = false;
    }
    if (access.scope.includes("email")) {
      claims.email = user.email;
      claims.email_verified = false;
    }
    return claims;
  };
