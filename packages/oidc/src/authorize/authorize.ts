import { type AuditWho, audit, type Db, type RawTenantTx } from "@hisob/db";
import type { Clock } from "@hisob/kernel";
import { type Clients, type OidcClientRecord, redirectUriMatches } from "../clients/clients";
import { type OidcConfig, SUPPORTED_SCOPES } from "../config";
import { CONSENT_INTERACTION_SECONDS, type ConsentInteractions } from "../consent/consent-interaction";
import { grantedScopes, recordConsent, scopesToAsk } from "../consent/consents";
import { type FormParams, singleParam } from "../form-params";
import { OidcError } from "../oidc-error";
import { newOpaqueToken, sha256Hex } from "../opaque-token";
import { insertCodeAndCommit, readClient, readClientAndSession, type SessionRow } from "./authorize-sql";

/** The browser's login session, as the server resolves it from the `session` cookie. */
export type LoginSession = { tenantId: string; userId: string; sessionId: string; authTime: Date };

export type AuthorizeOutcome =
  /** Client or redirect_uri cannot be trusted: answer JSON, never redirect (RFC 6749 §4.1.2.1). */
  | { type: "error"; error: OidcError }
  /** A code, or an error sent back to the client's redirect_uri with state and iss (RFC 9207). */
  | { type: "redirect"; location: string }
  /** No session: the login page, which comes back to `returnTo` afterwards. */
  | { type: "login"; returnTo: string; reauthenticate: boolean }
  /** A third-party client asks for scopes the user has not allowed yet: the consent page. */
  | { type: "consent"; consent: ConsentPrompt };

export type ConsentPrompt = {
  client: { clientId: string; name: string };
  /** Every scope the client asks for, and those the user has not allowed it yet (the ones asked now). */
  scopes: string[];
  newScopes: string[];
  /** The sealed interaction id the page posts back (consent-interaction.ts). */
  interaction: string;
  /** Who is signed in, and in which organization: the page names both. */
  user: { name: string; email: string };
  organization: string;
};

/** Why a consent decision was refused before it reached the client (a page, never a redirect). */
export type ConsentRefusal = "malformed" | "expired" | "other_session";

export type ConsentOutcome = AuthorizeOutcome | { type: "refused"; why: ConsentRefusal };

/** Where a consent decision came from, for its audit entry. */
export type RequestOrigin = Pick<AuditWho, "requestId" | "client">;

type Params = Record<string, string | undefined>;
type Validated = {
  client: OidcClientRecord;
  redirectUri: string;
  state: string | undefined;
  scope: string[];
  nonce: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: "S256" | "plain" | undefined;
  prompt: Prompt;
};

const PARAMETERS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "ui_locales",
  "prompt",
  "max_age",
  "login_hint",
  // Ours: set when we send the user to sign in again (prompt=login, max_age); see the end.
  "auth_after",
];
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PLAIN_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Builds the redirect back to the client with `params` added to its registered URI's own query. */
export const redirectTo = (redirectUri: string, params: Record<string, string | undefined>): string => {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
};

// ---- The pipeline: one small check per concern, in the order the RFCs require. ----

/** RFC 6749 §3.1: parameters must not repeat. Until redirect_uri is trusted, errors are JSON. */
const checkNoRepeats = (raw: FormParams): Params => {
  const params: Params = {};
  for (const name of PARAMETERS) params[name] = singleParam(raw, name, 4096);
  return params;
};

/** Reads the client by id (active or not; null when there is none). */
type FindClient = (clientId: string) => Promise<OidcClientRecord | null>;

const checkClient = async (findClient: FindClient, params: Params): Promise<OidcClientRecord> => {
  const clientId = params.client_id;
  const client = clientId && clientId.length <= 100 ? await findClient(clientId) : null;
  if (!client?.isActive) throw new OidcError("invalid_request", "Invalid client_id");
  return client;
};

const checkRedirectUri = (client: OidcClientRecord, params: Params): string => {
  const redirectUri = params.redirect_uri;
  if (!redirectUri || !redirectUriMatches(client, redirectUri))
    throw new OidcError("invalid_request", "Invalid redirect_uri");
  return redirectUri;
};

/** Errors from here on go back to the client. */
const checkResponseType = (client: OidcClientRecord, params: Params) => {
  if (!params.response_type) throw new OidcError("invalid_request", "response_type is required");
  if (params.response_type !== "code" || !client.responseTypes.includes("code")) {
    throw new OidcError("unsupported_response_type", "Only response_type=code is supported");
  }
  if (!client.grantTypes.includes("authorization_code")) {
    throw new OidcError("unauthorized_client", "The client may not use the authorization code flow");
  }
};

const checkScope = (client: OidcClientRecord, params: Params): string[] => {
  if (!params.scope) throw new OidcError("invalid_request", "scope is required");
  const scope = [...new Set(params.scope.split(" ").filter(Boolean))];
  if (!scope.includes("openid")) throw new OidcError("invalid_scope", "The openid scope is required");
  const unknown = scope.filter(
    (s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s) || !client.scopes.includes(s),
  );
  if (unknown.length > 0) throw new OidcError("invalid_scope", `Scope not allowed: ${unknown.join(" ")}`);
  return scope;
};

const checkPkce = (
  client: OidcClientRecord,
  params: Params,
): Pick<Validated, "codeChallenge" | "codeChallengeMethod"> => {
  const challenge = params.code_challenge;
  if (!challenge) {
    if (params.code_challenge_method)
      throw new OidcError("invalid_request", "code_challenge_method without code_challenge");
    if (client.requirePkce) throw new OidcError("invalid_request", "code_challenge is required (PKCE)");
    return { codeChallenge: undefined, codeChallengeMethod: undefined };
  }
  // RFC 7636 §4.3: an absent method means plain.
  const method = params.code_challenge_method ?? "plain";
  if (method !== "S256" && method !== "plain") {
    throw new OidcError("invalid_request", "code_challenge_method must be S256 or plain");
  }
  const valid = method === "S256" ? S256_CHALLENGE.test(challenge) : PLAIN_CHALLENGE.test(challenge);
  if (!valid) throw new OidcError("invalid_request", "Malformed code_challenge");
  return { codeChallenge: challenge, codeChallengeMethod: method };
};

type Prompt = {
  none: boolean;
  login: boolean;
  consent: boolean;
  maxAge: number | undefined;
  authAfter: number | undefined;
};

/** OIDC Core §3.1.2.1: prompt (none | login | consent | select_account) and max_age. */
const checkPrompt = (params: Params): Prompt => {
  const values = new Set((params.prompt ?? "").split(" ").filter(Boolean));
  for (const value of values) {
    if (!["none", "login", "consent", "select_account"].includes(value)) {
      throw new OidcError("invalid_request", `Unsupported prompt value: ${value.slice(0, 30)}`);
    }
  }
  if (values.has("none") && values.size > 1)
    throw new OidcError("invalid_request", "prompt=none cannot be combined");
  const integer = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    if (!/^\d{1,16}$/.test(value))
      throw new OidcError("invalid_request", `${name} must be a non-negative integer`);
    return Number(value);
  };
  return {
    none: values.has("none"),
    login: values.has("login"),
    consent: values.has("consent"),
    maxAge: integer("max_age", params.max_age),
    authAfter: integer("auth_after", params.auth_after),
  };
};

const checkLengths = (params: Params) => {
  if (params.nonce && params.nonce.length > 512) throw new OidcError("invalid_request", "nonce is too long");
  if (params.state && params.state.length > 2048) throw new OidcError("invalid_request", "state is too long");
};

/** The request's parameters as FormParams again (a repeated one stays repeated, so it is refused again). */
const paramsOfQuery = (query: string): FormParams => {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
};

type Checked =
  | { ok: false; outcome: AuthorizeOutcome }
  | { ok: true; request: Validated; back: (error: OidcError) => AuthorizeOutcome };

export const createAuthorize = (deps: {
  db: Db;
  clients: Clients;
  config: OidcConfig;
  clock: Clock;
  interactions: ConsentInteractions;
}) => {
  const { config } = deps;

  /**
   * Stores a single-use code (hashed) bound to everything the token request must repeat, in `tx` (a
   * transaction in the session's tenant), committing with it; a new such transaction without one.
   */
  const issueCode = async (
    request: Validated,
    session: LoginSession,
    tx: RawTenantTx | undefined,
  ): Promise<string> => {
    const code = newOpaqueToken();
    const now = deps.clock.now();
    const stored = {
      tenantId: session.tenantId,
      codeHash: sha256Hex(code),
      clientId: request.client.clientId,
      userId: session.userId,
      sessionId: session.sessionId,
      redirectUri: request.redirectUri,
      scope: request.scope.join(" "),
      nonce: request.nonce ?? null,
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallengeMethod ?? null,
      authTime: session.authTime,
      expiresAt: new Date(now.getTime() + config.codeLifetime * 1000),
    };
    if (tx) await insertCodeAndCommit(tx, stored);
    else await deps.db.rawTx.withTenant(session.tenantId, (own) => insertCodeAndCommit(own, stored));
    return code;
  };

  /** Every check of the request, in order; errors after the redirect_uri is trusted go back to it. */
  const check = async (rawParams: FormParams, findClient: FindClient): Promise<Checked> => {
    let client: OidcClientRecord;
    let redirectUri: string;
    let params: Params;
    try {
      params = checkNoRepeats(rawParams);
      client = await checkClient(findClient, params);
      redirectUri = checkRedirectUri(client, params);
    } catch (error) {
      if (error instanceof OidcError) return { ok: false, outcome: { type: "error", error } };
      throw error;
    }
    const state = params.state;
    const back = (error: OidcError): AuthorizeOutcome => ({
      type: "redirect",
      location: redirectTo(redirectUri, {
        error: error.error,
        error_description: error.description,
        state,
        iss: config.issuer,
      }),
    });
    try {
      checkResponseType(client, params);
      const scope = checkScope(client, params);
      const pkce = checkPkce(client, params);
      const prompt = checkPrompt(params);
      checkLengths(params);
      return {
        ok: true,
        request: { client, redirectUri, state, scope, nonce: params.nonce, prompt, ...pkce },
        back,
      };
    } catch (error) {
      if (error instanceof OidcError) return { ok: false, outcome: back(error) };
      throw error;
    }
  };

  const codeFor = async (
    request: Validated,
    session: LoginSession,
    tx?: RawTenantTx,
  ): Promise<AuthorizeOutcome> => {
    const code = await issueCode(request, session, tx);
    return {
      type: "redirect",
      location: redirectTo(request.redirectUri, { code, state: request.state, iss: config.issuer }),
    };
  };

  /** The session as the token's hash found it, if it may sign the user in now. */
  const liveSession = (found: SessionRow | null): LoginSession | null =>
    found?.usable && found.expiresAt.getTime() > deps.clock.now().getTime()
      ? { tenantId: found.tenantId, userId: found.userId, sessionId: found.id, authTime: found.createdAt }
      : null;

  /**
   * The request checked and its session decided: a code for a first-party client (in `tx` when given,
   * committing with it), the login page, an error — or, for a third-party client, `consent` (its grants
   * are read after `tx`).
   */
  const decideSignedIn = async (
    checked: Extract<Checked, { ok: true }>,
    session: LoginSession | null,
    returnTo: string,
    tx?: RawTenantTx,
  ): Promise<AuthorizeOutcome | { type: "ask"; session: LoginSession }> => {
    const { request, back } = checked;
    const nowMs = deps.clock.now().getTime();
    const nowSeconds = Math.floor(nowMs / 1000);
    const { prompt } = request;
    // A session is fresh enough unless prompt=login asks for a new sign-in (not done yet: no
    // auth_after marker), or max_age or auth_after find it too old.
    const authMs = session ? session.authTime.getTime() : 0;
    const authSeconds = Math.floor(authMs / 1000);
    const stale =
      !!session &&
      ((prompt.login && prompt.authAfter === undefined) ||
        (prompt.maxAge !== undefined && nowSeconds - authSeconds > prompt.maxAge) ||
        // auth_after is in milliseconds: the new sign-in must come strictly after the request.
        (prompt.authAfter !== undefined && authMs <= prompt.authAfter));
    if (!session || stale) {
      if (prompt.none) return back(new OidcError("login_required", "The user must sign in"));
      // Come back without prompt=login (prompt=consent stays: it still asks), with the time the new
      // sign-in must follow.
      const url = new URL(returnTo, config.issuer);
      if (prompt.consent) url.searchParams.set("prompt", "consent");
      else url.searchParams.delete("prompt");
      if (stale) url.searchParams.set("auth_after", String(prompt.authAfter ?? nowMs));
      return { type: "login", returnTo: `${url.pathname}${url.search}`, reauthenticate: stale };
    }
    // Our own apps act for the user as the user; others ask once per scope set (docs/decisions/0036-oidc-consent.md).
    if (request.client.isFirstParty) return codeFor(request, session, tx);
    return { type: "ask", session };
  };

  /** A third-party client: a code when the user allowed these scopes before, else the consent page. */
  const askConsent = async (
    checked: Extract<Checked, { ok: true }>,
    session: LoginSession,
    returnTo: string,
  ): Promise<AuthorizeOutcome> => {
    const { request, back } = checked;
    const { prompt } = request;
    const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
    const key = { tenantId: session.tenantId, userId: session.userId, clientId: request.client.clientId };
    const granted = await deps.db.withTenant(session.tenantId, (tx) => grantedScopes(tx, key));
    const newScopes = scopesToAsk(request.scope, granted, prompt.consent);
    if (newScopes.length === 0) return codeFor(request, session);
    if (prompt.none) return back(new OidcError("consent_required", "The user has not allowed these scopes"));
    const { user, tenant } = await deps.db.withTenant(session.tenantId, async (tx) => ({
      user: await tx.user.findFirst({
        where: { tenantId: session.tenantId, id: session.userId },
        select: { firstName: true, lastName: true, email: true },
      }),
      tenant: await tx.tenant.findUnique({ where: { id: session.tenantId }, select: { name: true } }),
    }));
    const query = new URL(returnTo, config.issuer).search.slice(1);
    return {
      type: "consent",
      consent: {
        client: { clientId: request.client.clientId, name: request.client.name },
        scopes: request.scope,
        newScopes,
        interaction: deps.interactions.seal({
          sid: session.sessionId,
          q: query,
          exp: nowSeconds + CONSENT_INTERACTION_SECONDS,
        }),
        user: {
          name: `${user?.firstName ?? ""} ${user?.lastName ?? ""}`.trim(),
          email: user?.email ?? "",
        },
        organization: tenant?.name ?? "",
      },
    };
  };

  /**
   * GET authorize. `sessionHash`: the SHA-256 of the browser's session token, when it sent one that may
   * be a token. With one, the request is one transaction in the session's tenant: the client and the
   * session read in its first round trip, a first-party client's code stored in its second, which
   * commits (docs/decisions/0104-transports-ahead-of-their-peers.md). Without, the client alone.
   */
  const authorize = async (
    rawParams: FormParams,
    context: { sessionHash: string | null; returnTo: string },
  ): Promise<AuthorizeOutcome> => {
    const { sessionHash, returnTo } = context;
    if (!sessionHash) {
      const checked = await check(rawParams, (clientId) =>
        deps.db.rawTx.withPlatform((tx) => readClient(tx, clientId)),
      );
      if (!checked.ok) return checked.outcome;
      const outcome = await decideSignedIn(checked, null, returnTo);
      if (outcome.type === "ask") throw new Error("A consent without a session");
      return outcome;
    }
    const first = await deps.db.rawTx.withCredentialTenant(
      { kind: "session", hash: sessionHash },
      async (tx) => {
        let session: LoginSession | null = null;
        const checked = await check(rawParams, async (clientId) => {
          const read = await readClientAndSession(tx, clientId, sessionHash);
          session = liveSession(read.session);
          return read.client;
        });
        if (!checked.ok) return { outcome: checked.outcome };
        return { checked, outcome: await decideSignedIn(checked, session, returnTo, tx) };
      },
    );
    if (first.outcome.type !== "ask") return first.outcome;
    if (!first.checked) throw new Error("A consent without a checked request");
    return askConsent(first.checked, first.outcome.session, returnTo);
  };

  /**
   * The consent page's Allow or Deny. The sealed interaction names the session that saw the page and the
   * request, which is checked again as it is now (the client may have been deactivated meanwhile).
   */
  const decide = async (input: {
    interaction: unknown;
    allow: boolean;
    session: LoginSession | null;
    origin: RequestOrigin;
  }): Promise<ConsentOutcome> => {
    const opened = deps.interactions.open(input.interaction, Math.floor(deps.clock.now().getTime() / 1000));
    if (!opened.ok) return { type: "refused", why: opened.why };
    const { session } = input;
    if (!session || session.sessionId !== opened.interaction.sid)
      return { type: "refused", why: "other_session" };
    const checked = await check(paramsOfQuery(opened.interaction.q), deps.clients.findActive);
    if (!checked.ok) return checked.outcome;
    const { request, back } = checked;
    const key = { tenantId: session.tenantId, userId: session.userId, clientId: request.client.clientId };
    const who = { tenantId: session.tenantId, actor: { userId: session.userId }, ...input.origin };
    if (!input.allow) {
      await deps.db.withTenant(session.tenantId, (tx) =>
        audit(tx, who, "oidc_consent", request.client.clientId, "deny", {
          after: { clientId: request.client.clientId, scopes: request.scope },
        }),
      );
      return back(new OidcError("access_denied", "The user denied the request"));
    }
    await deps.db.withTenant(session.tenantId, async (tx) => {
      const before = await grantedScopes(tx, key);
      const after = await recordConsent(tx, key, request.scope);
      await audit(tx, who, "oidc_consent", request.client.clientId, "grant", {
        before: before.length > 0 ? { clientId: key.clientId, scopes: before } : null,
        after: { clientId: key.clientId, scopes: after },
      });
    });
    return codeFor(request, session);
  };

  return Object.assign(authorize, { decide });
};

export type Authorize = ReturnType<typeof createAuthorize>;
