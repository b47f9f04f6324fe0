import { createHash } from "node:crypto";
import { DESKTOP_CLIENT_ID, type TCreateClientInput } from "@hisob/oidc";
import type { Response as InjectResponse } from "light-my-request";
import * as oidc from "openid-client";
import { expect } from "vitest";
import { ISSUER, type SeededUser, type TestApp } from "../../testing/test-app";

/*
 * Shared helpers for the OpenID provider suites: a fetch bridge so openid-client (a certified,
 * strict relying party) talks to the in-process app, client registration, raw authorize / token /
 * userinfo / revoke requests for the hostile cases, the login-page round trip, and assertions on
 * the RFC error shapes.
 */

export { DESKTOP_CLIENT_ID, ISSUER };
export const FORM = "application/x-www-form-urlencoded";
/** The first-party accountant app (DESKTOP_CLIENT_ID), registered by the provider's first start. */
export const DESKTOP_CALLBACK = `${ISSUER}/app/callback`;
export const RP_CALLBACK = "https://rp.example/cb";
export const ALL_SCOPES = "openid profile email offline_access";

export type RegisteredClient = {
  clientId: string;
  /** Present for confidential clients. */
  clientSecret?: string;
  /** The first registered redirect URI. */
  redirectUri: string;
};

export type ClientAuthMethod = "basic" | "post" | "none";

/** One HTTP exchange the fetch bridge carried, for assertions on what openid-client sent and got. */
export type Exchange = {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number;
  responseHeaders: Record<string, string | string[] | number | undefined>;
  responseBody: string;
};

export type FormValues = Record<string, string | string[] | undefined>;

export type IssuedCode = {
  code: string;
  verifier: string;
  challenge: string;
  redirectUri: string;
  /** The whole callback URL (code, state, iss). */
  callback: URL;
};

export type CodeOptions = {
  scope?: string;
  redirectUri?: string;
  /** PKCE method; false sends no challenge. Default S256. */
  pkce?: "S256" | "plain" | false;
  state?: string;
  nonce?: string;
  /** Extra or overriding authorize parameters. */
  extra?: Record<string, string>;
};

export type TokenBody = {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
  scope: string;
};

/** Builds a query or form string; arrays repeat the parameter, undefined drops it. */
export const encodeForm = (values: FormValues): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
};

export const basicAuth = (clientId: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** OIDC Core 3.1.3.6: base64url of the left half of SHA-256 of the access token. */
export const expectedAtHash = (accessToken: string): string =>
  createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");

export const pkceS256 = (verifier: string): string =>
  createHash("sha256").update(verifier).digest("base64url");

const headerRecord = (headers: unknown): Record<string, string> =>
  Object.fromEntries(new Headers(headers as ConstructorParameters<typeof Headers>[0]).entries());

const flatHeaders = (headers: InjectResponse["headers"]): [string, string][] =>
  Object.entries(headers).flatMap(([name, value]) => {
    if (value === undefined) return [];
    return (Array.isArray(value) ? value : [String(value)]).map((item): [string, string] => [name, item]);
  });

export const createOidcKit = (t: TestApp) => {
  const exchanges: Exchange[] = [];

  /** openid-client talks HTTP through `fetch`: route it into the in-process app, and record it. */
  const customFetch: oidc.CustomFetch = async (url, options) => {
    const target = new URL(url);
    const method = options.method ?? "GET";
    const requestHeaders = headerRecord(options.headers);
    const requestBody = options.body ? options.body.toString() : "";
    const res = await t.app.inject({
      method: method as "GET",
      url: `${target.pathname}${target.search}`,
      headers: requestHeaders,
      ...(options.body ? { payload: requestBody } : {}),
    });
    exchanges.push({
      method,
      path: target.pathname,
      requestHeaders,
      requestBody,
      status: res.statusCode,
      responseHeaders: res.headers,
      responseBody: res.body,
    });
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: flatHeaders(res.headers),
    });
  };

  /** The last exchange the bridge carried to `path`. */
  const lastExchange = (path: string): Exchange => {
    const found = exchanges.findLast((exchange) => exchange.path === path);
    if (!found) throw new Error(`no request to ${path} went through the bridge`);
    return found;
  };

  const register = async (input: Partial<TCreateClientInput> = {}): Promise<RegisteredClient> => {
    const { client, clientSecret } = await t.oidc.clients.create({
      name: "Third-party RP",
      redirectUris: [RP_CALLBACK],
      ...input,
    });
    const redirectUri = client.redirectUris[0];
    if (!redirectUri) throw new Error("client registered without a redirect URI");
    return { clientId: client.clientId, redirectUri, ...(clientSecret ? { clientSecret } : {}) };
  };

  const desktop: RegisteredClient = { clientId: DESKTOP_CLIENT_ID, redirectUri: DESKTOP_CALLBACK };

  /** A strict openid-client configuration for `client`, discovered from the issuer. */
  const rp = (
    client: RegisteredClient,
    method: ClientAuthMethod = client.clientSecret ? "basic" : "none",
  ) => {
    const auth =
      method === "basic"
        ? oidc.ClientSecretBasic(client.clientSecret)
        : method === "post"
          ? oidc.ClientSecretPost(client.clientSecret)
          : oidc.None();
    return oidc.discovery(
      new URL(ISSUER),
      client.clientId,
      client.clientSecret ? { client_secret: client.clientSecret } : undefined,
      auth,
      { [oidc.customFetch]: customFetch, execute: [oidc.allowInsecureRequests] },
    );
  };

  /** GET /oidc/authorize with `params` (arrays repeat), with the browser's session cookie when given. */
  const authorize = (params: FormValues, session?: string | null, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "GET",
      url: `/oidc/authorize?${encodeForm(params)}`,
      cookies: session ? { session } : {},
      headers,
    });

  /** The consent page's form (docs/decisions/0036-oidc-consent.md): its CSRF cookie and hidden fields. */
  const consentFormOf = (page: InjectResponse) => {
    const field = (name: string) =>
      unescapeHtml(
        new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(page.body)?.[1] ?? "",
      );
    return {
      csrf: page.cookies.find((cookie) => cookie.name === "csrf")?.value ?? "",
      _csrf: field("_csrf"),
      interaction: field("interaction"),
    };
  };

  const isConsentPage = (res: InjectResponse) =>
    res.statusCode === 200 && res.body.includes('action="/oidc/consent"');

  /** Allow or Deny on a consent page, as the browser of `session` posts it. */
  const answerConsent = (
    page: InjectResponse,
    session: string,
    decision: "allow" | "deny",
    overrides: { csrf?: string; form?: FormValues; headers?: Record<string, string> } = {},
  ) => {
    const form = consentFormOf(page);
    return t.app.inject({
      method: "POST",
      url: "/oidc/consent",
      headers: { "content-type": FORM, origin: ISSUER, ...overrides.headers },
      cookies: { session, csrf: overrides.csrf ?? form.csrf },
      payload: encodeForm({ _csrf: form._csrf, interaction: form.interaction, decision, ...overrides.form }),
    });
  };

  /** A third-party client's consent page, answered with Allow (what a user who agrees does). */
  const allowIfAsked = async (res: InjectResponse, session: string): Promise<InjectResponse> => {
    return isConsentPage(res) ? answerConsent(res, session, "allow") : res;
  };

  /** Follows an authorization URL (from openid-client) as a signed-in browser: the callback URL. */
  const follow = async (url: URL, session: string): Promise<URL> => {
    const res = await allowIfAsked(
      await t.app.inject({
        method: "GET",
        url: `${url.pathname}${url.search}`,
        cookies: { session },
      }),
      session,
    );
    const location = res.headers.location;
    // 302 from the authorize endpoint, 303 from the consent form's post.
    if (
      ![302, 303].includes(res.statusCode) ||
      typeof location !== "string" ||
      !/^[a-z][a-z0-9+.-]*:/i.test(location)
    ) {
      throw new Error(`authorize did not answer the client: ${res.statusCode} ${location ?? res.body}`);
    }
    return new URL(location);
  };

  /** A code for `client`, issued to the browser session `session` (raw request, PKCE S256 by default). */
  const issueCode = async (
    client: RegisteredClient,
    session: string,
    options: CodeOptions = {},
  ): Promise<IssuedCode> => {
    const verifier = oidc.randomPKCECodeVerifier();
    const pkce = options.pkce ?? "S256";
    const challenge = pkce === "S256" ? pkceS256(verifier) : verifier;
    const redirectUri = options.redirectUri ?? client.redirectUri;
    const asked = await authorize(
      {
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: options.scope ?? ALL_SCOPES,
        state: options.state,
        nonce: options.nonce,
        ...(pkce ? { code_challenge: challenge, code_challenge_method: pkce } : {}),
        ...options.extra,
      },
      session,
    );
    const res = await allowIfAsked(asked, session);
    const location = typeof res.headers.location === "string" ? new URL(res.headers.location) : undefined;
    const code = location?.searchParams.get("code");
    if (![302, 303].includes(res.statusCode) || !location || !code) {
      throw new Error(`no code: ${res.statusCode} ${res.headers.location ?? res.body}`);
    }
    return { code, verifier, challenge, redirectUri, callback: location };
  };

  /** Client authentication as `method`: the Authorization header and/or the form fields it adds. */
  const clientAuth = (
    client: RegisteredClient,
    method: ClientAuthMethod = client.clientSecret ? "basic" : "none",
  ): { headers: Record<string, string>; form: FormValues } => {
    if (method === "basic") {
      return { headers: { authorization: basicAuth(client.clientId, client.clientSecret ?? "") }, form: {} };
    }
    if (method === "post") {
      return { headers: {}, form: { client_id: client.clientId, client_secret: client.clientSecret } };
    }
    return { headers: {}, form: { client_id: client.clientId } };
  };

  /** A raw POST with a form body (token and revocation endpoints). */
  const postForm = (path: string, form: FormValues, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": FORM, ...headers },
      payload: encodeForm(form),
    });

  /** POST /oidc/token as `client` (authenticated by its default method unless `auth` says otherwise). */
  const token = (
    client: RegisteredClient | null,
    form: FormValues,
    auth: { method?: ClientAuthMethod; headers?: Record<string, string> } = {},
  ) => {
    const credentials = client ? clientAuth(client, auth.method) : { headers: {}, form: {} };
    return postForm(
      "/oidc/token",
      { ...credentials.form, ...form },
      { ...credentials.headers, ...auth.headers },
    );
  };

  /** The authorization_code grant for an issued code (raw). */
  const exchange = (client: RegisteredClient, issued: IssuedCode, overrides: FormValues = {}) =>
    token(client, {
      grant_type: "authorization_code",
      code: issued.code,
      redirect_uri: issued.redirectUri,
      code_verifier: issued.verifier,
      ...overrides,
    });

  /** The refresh_token grant (raw). */
  const refresh = (client: RegisteredClient, refreshToken: string, overrides: FormValues = {}) =>
    token(client, { grant_type: "refresh_token", refresh_token: refreshToken, ...overrides });

  /** Code + token exchange (raw): the token response, which must succeed. */
  const tokensFor = async (
    client: RegisteredClient,
    session: string,
    options: CodeOptions = {},
  ): Promise<TokenBody & { issued: IssuedCode }> => {
    const issued = await issueCode(client, session, options);
    const res = await exchange(client, issued);
    if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
    return { ...(res.json() as TokenBody), issued };
  };

  const userinfo = (accessToken: string, method: "GET" | "POST" = "GET") =>
    t.app.inject({ method, url: "/oidc/userinfo", headers: { authorization: `Bearer ${accessToken}` } });

  /** POST /oidc/revoke as `client` (raw). */
  const revoke = (client: RegisteredClient, value: string, hint?: string) => {
    const credentials = clientAuth(client);
    return postForm(
      "/oidc/revoke",
      { ...credentials.form, token: value, token_type_hint: hint },
      credentials.headers,
    );
  };

  /** Another browser session of `user` (a fresh login), as its cookie value. */
  const newSession = async (user: SeededUser): Promise<string> => {
    const { token: session } = await t.services.auth.login(
      { email: user.email, password: user.password },
      { ip: "127.0.0.1", userAgent: "vitest" },
    );
    return session;
  };

  /**
   * The login page round trip a browser makes: GET /login?next=… (CSRF cookie + form token), POST the
   * form with Origin = issuer. Returns the new session cookie and where the form sent the browser.
   */
  const signInThroughLoginPage = async (
    loginLocation: string,
    user: SeededUser,
    /** The browser's current session cookie, if it has one (a re-authentication). */
    currentSession?: string,
  ) => {
    const browserCookies: Record<string, string> = currentSession ? { session: currentSession } : {};
    const page = await t.app.inject({ method: "GET", url: loginLocation, cookies: browserCookies });
    // The sign-in form, not a redirect past it.
    expect({ status: page.statusCode, location: page.headers.location }).toEqual({
      status: 200,
      location: undefined,
    });
    const csrf = page.cookies.find((cookie) => cookie.name === "csrf")?.value;
    const field = (name: string) =>
      unescapeHtml(
        new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(page.body)?.[1] ?? "",
      );
    const form = { _csrf: field("_csrf"), next: field("next"), email: user.email, password: user.password };
    expect(csrf).toBeTruthy();
    expect(form._csrf).not.toBe("");
    const posted = await t.app.inject({
      method: "POST",
      url: "/login",
      headers: { "content-type": FORM, origin: ISSUER },
      cookies: { ...browserCookies, csrf: csrf ?? "" },
      payload: encodeForm(form),
    });
    expect(posted.statusCode).toBe(303);
    const session = posted.cookies.find((cookie) => cookie.name === "session")?.value;
    if (!session) throw new Error("the login form set no session cookie");
    return { session, next: String(posted.headers.location), nextField: form.next };
  };

  /** An access token that must no longer work (userinfo answers 401 invalid_token). */
  const expectAccessTokenDead = async (accessToken: string) => {
    expectOidcError(await userinfo(accessToken), 401, "invalid_token");
  };

  const expectAccessTokenAlive = async (accessToken: string) => {
    expect((await userinfo(accessToken)).statusCode).toBe(200);
  };

  /** A refresh token that must no longer work (invalid_grant, and no tokens). */
  const expectRefreshTokenDead = async (client: RegisteredClient, refreshToken: string) => {
    expectOidcError(await refresh(client, refreshToken), 400, "invalid_grant");
  };

  return {
    exchanges,
    customFetch,
    lastExchange,
    register,
    desktop,
    rp,
    authorize,
    isConsentPage,
    answerConsent,
    follow,
    issueCode,
    clientAuth,
    postForm,
    token,
    exchange,
    refresh,
    tokensFor,
    userinfo,
    revoke,
    newSession,
    signInThroughLoginPage,
    expectAccessTokenDead,
    expectAccessTokenAlive,
    expectRefreshTokenDead,
  };
};

export type OidcKit = ReturnType<typeof createOidcKit>;

const unescapeHtml = (value: string): string =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * An RFC 6749 §5.2 error answer: exactly `{ error, error_description }`, the status we decided,
 * `Cache-Control: no-store`, WWW-Authenticate for invalid_client (Basic) and invalid_token (Bearer),
 * and so no token of any kind.
 */
export const expectOidcError = (
  res: InjectResponse,
  status: number,
  error: string,
  description?: string | RegExp,
) => {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers.location).toBeUndefined();
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
  expect(body.error_description).toEqual(expect.any(String));
  expect(String(body.error_description).length).toBeGreaterThan(0);
  if (description !== undefined) expect(body.error_description).toMatch(description);
  const challenge = res.headers["www-authenticate"];
  if (error === "invalid_client") expect(challenge).toMatch(/^Basic realm="hisob"/);
  else if (error === "invalid_token")
    expect(challenge).toMatch(/^Bearer realm="hisob", error="invalid_token"/);
  else expect(challenge).toBeUndefined();
};

const withoutQuery = (url: URL): string => {
  const copy = new URL(url);
  copy.search = "";
  copy.hash = "";
  return copy.href;
};

/**
 * An error sent back to the client (RFC 6749 §4.1.2.1, RFC 9207): 302 to the registered
 * redirect_uri with error, error_description, iss, and state exactly when one was sent — no code.
 */
export const expectErrorRedirect = (
  res: InjectResponse,
  redirectUri: string,
  error: string,
  state?: string,
  description?: string | RegExp,
) => {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status: 302 });
  expect(res.headers["cache-control"]).toBe("no-store");
  // Relative (the login page) when the server wrongly did not answer the client.
  const location = new URL(String(res.headers.location), ISSUER);
  const registered = new URL(redirectUri);
  expect(withoutQuery(location)).toBe(withoutQuery(registered));
  const params = Object.fromEntries(location.searchParams.entries());
  // The registered URI's own query stays; the response adds exactly these.
  expect(Object.keys(params).sort()).toEqual(
    [
      ...registered.searchParams.keys(),
      "error",
      "error_description",
      "iss",
      ...(state === undefined ? [] : ["state"]),
    ].sort(),
  );
  expect(params.error).toBe(error);
  expect(params.iss).toBe(ISSUER);
  if (state !== undefined) expect(params.state).toBe(state);
  if (description !== undefined) expect(params.error_description).toMatch(description);
};

/** The authorize endpoint refusing before it trusts client and redirect_uri: JSON, never a redirect. */
export const expectAuthorizeJsonError = (
  res: InjectResponse,
  error: string,
  description: string | RegExp,
) => {
  expectOidcError(res, 400, error, description);
};
