import type { ClientAuthRequest } from "./clients/clients";
import { OidcError } from "./oidc-error";

/** A form body's or query's parameters as the server hands them over (a repeated one is an array). */
export type FormParams = Record<string, string | string[] | undefined>;

/**
 * One parameter's value: parameters must not repeat (RFC 6749 §3.1, §3.2), an empty one counts as
 * absent, and one longer than `maxLength` is refused.
 */
export const singleParam = (
  params: FormParams,
  name: string,
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined => {
  const value = params[name];
  if (Array.isArray(value)) throw new OidcError("invalid_request", `Parameter ${name} must not repeat`);
  if (value !== undefined && value.length > maxLength)
    throw new OidcError("invalid_request", `Parameter ${name} is too long`);
  return value === "" ? undefined : value;
};

/** What a client presents at the token, revocation and introspection endpoints: Basic, or the form's. */
export const clientAuthRequest = (
  body: FormParams,
  authorization: string | undefined,
  maxLength?: number,
): ClientAuthRequest => ({
  authorization,
  clientId: singleParam(body, "client_id", maxLength),
  clientSecret: singleParam(body, "client_secret", maxLength),
});
