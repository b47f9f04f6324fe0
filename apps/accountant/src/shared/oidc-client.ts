import * as oauth from "oauth4webapi";

/*
 * The accountant app as an OpenID relying party of our own provider, for both hosts (the browser and
 * Electron's main process): authorization code + PKCE S256 with random state and nonce, the ID token
 * checked by oauth4webapi (signature against /oidc/keys, iss, aud, exp, nonce) — never by hand.
 */

export const CLIENT_ID = "hisob-desktop";
export const SCOPE = "openid profile email offline_access";

const client: oauth.Client = { client_id: CLIENT_ID };
const clientAuth = oauth.None();

export type Provider = { as: oauth.AuthorizationServer; insecure: boolean };

/** What must survive the trip to the provider and back (kept by the host, never in the URL). */
export type PendingSignIn = { state: string; nonce: string; codeVerifier: string; redirectUri: string };

export type Tokens = {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  refreshToken: string | null;
  idToken: string;
  /** `sid`: the provider's login session these tokens live on (its end signs the app out). */
  claims: { sub: string; name?: string; email?: string; sid?: string };
};

/** Plain http is allowed only for a loopback or local development issuer (the embedded default). */
const requestOptions = (provider: Provider) =>
  provider.insecure ? { [oauth.allowInsecureRequests]: true } : {};

export const discover = async (issuerUrl: string, fetchImpl?: typeof fetch): Promise<Provider> => {
  const issuer = new URL(issuerUrl);
  const insecure = issuer.protocol === "http:";
  const options = {
    ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}),
    ...(fetchImpl ? { [oauth.customFetch]: fetchImpl } : {}),
  };
  const response = await oauth.discoveryRequest(issuer, options);
  return { as: await oauth.processDiscoveryResponse(issuer, response), insecure };
};

/** The authorize URL and what the callback will be checked against. */
export const startSignIn = async (
  provider: Provider,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<{ url: URL; pending: PendingSignIn }> => {
  const endpoint = provider.as.authorization_endpoint;
  if (!endpoint) throw new Error("the provider has no authorization endpoint");
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(endpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: SCOPE,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...extra,
  }).toString();
  return { url, pending: { state, nonce, codeVerifier, redirectUri } };
};

const toTokens = (result: oauth.TokenEndpointResponse, previous?: Tokens): Tokens => {
  const claims = oauth.getValidatedIdTokenClaims(result);
  const idToken = result.id_token ?? previous?.idToken;
  if (!idToken) throw new Error("the provider sent no ID token");
  return {
    accessToken: result.access_token,
    expiresAt: Date.now() + (result.expires_in ?? 3600) * 1000,
    refreshToken: result.refresh_token ?? previous?.refreshToken ?? null,
    idToken,
    claims: claims
      ? {
          sub: claims.sub,
          name: typeof claims.name === "string" ? claims.name : undefined,
          email: typeof claims.email === "string" ? claims.email : undefined,
          sid: typeof claims.sid === "string" ? claims.sid : undefined,
        }
      : (previous?.claims ?? { sub: "" }),
  };
};

/**
 * The callback URL (the provider's redirect) → tokens. Refuses a state that is not ours, an error
 * answer, and an ID token whose signature, issuer, audience, expiry or nonce does not check out.
 */
export const finishSignIn = async (
  provider: Provider,
  callbackUrl: URL,
  pending: PendingSignIn,
): Promise<Tokens> => {
  const params = oauth.validateAuthResponse(provider.as, client, callbackUrl, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    provider.as,
    client,
    clientAuth,
    params,
    pending.redirectUri,
    pending.codeVerifier,
    requestOptions(provider),
  );
  const result = await oauth.processAuthorizationCodeResponse(provider.as, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  await oauth.validateApplicationLevelSignature(provider.as, response, requestOptions(provider));
  return toTokens(result);
};

export const refresh = async (provider: Provider, tokens: Tokens): Promise<Tokens> => {
  if (!tokens.refreshToken) throw new Error("no refresh token");
  const response = await oauth.refreshTokenGrantRequest(
    provider.as,
    client,
    clientAuth,
    tokens.refreshToken,
    requestOptions(provider),
  );
  const result = await oauth.processRefreshTokenResponse(provider.as, client, response);
  if (result.id_token)
    await oauth.validateApplicationLevelSignature(provider.as, response, requestOptions(provider));
  return toTokens(result, tokens);
};

/** Revokes the refresh token (which ends its grant) and the access token; failures are reported. */
export const revokeTokens = async (provider: Provider, tokens: Tokens): Promise<void> => {
  for (const token of [tokens.refreshToken, tokens.accessToken]) {
    if (!token) continue;
    const response = await oauth.revocationRequest(
      provider.as,
      client,
      clientAuth,
      token,
      requestOptions(provider),
    );
    await oauth.processRevocationResponse(response);
  }
};

/** RP-initiated logout: ends the provider's login session, then goes to `postLogoutRedirectUri` (a registered one) or the login page. */
export const endSessionUrl = (
  provider: Provider,
  tokens: Tokens | null,
  postLogoutRedirectUri?: string,
): URL => {
  const endpoint = provider.as.end_session_endpoint ?? `${provider.as.issuer}/oidc/end_session`;
  const url = new URL(endpoint);
  url.searchParams.set("client_id", CLIENT_ID);
  if (postLogoutRedirectUri) url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri);
  if (tokens) url.searchParams.set("id_token_hint", tokens.idToken);
  return url;
};

/** Seconds before expiry at which the host refreshes the access token. */
export const REFRESH_MARGIN_MS = 60_000;
