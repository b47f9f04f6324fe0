import { timingSafeEqual } from "node:crypto";
import type { AuthService, LoginResult } from "@hisob/core";
import { AppError, type Clock, type Locale } from "@hisob/kernel";
import * as oidc from "openid-client";
import type { Env } from "../env";
import { createFlowSealer, FLOW_LIFETIME_MS, type TFlow } from "./flow-cookie";

/*
 * Sign-in through an upstream OpenID provider (Google or any other issuer, from EXTERNAL_OIDC_*):
 * `start` builds the authorization URL (state, nonce, PKCE S256) and the sealed flow cookie; `finish`
 * checks the callback against that cookie, exchanges the code with openid-client (a certified relying
 * party: it validates the ID token's signature, issuer, audience, expiry and nonce), and signs in the
 * platform user whose email the upstream says it verified.
 */

export type ExternalSignInConfig = NonNullable<Env["externalOidc"]>;

export type ExternalSignIn = {
  /** The provider's name on the button ("Google"). */
  name: string;
  start(input: { next: string; locale: Locale }): Promise<{ url: string; cookie: string; expiresAt: Date }>;
  /**
   * The callback URL (with code, state, iss) and the flow cookie → a new session. Throws AppError with
   * an `auth.external_*` reason; `flow` is returned when the cookie was good, so the page keeps its language.
   */
  finish(
    callbackUrl: URL,
    cookie: string | undefined,
    client: { ip: string; userAgent: string },
  ): Promise<{ result: LoginResult; next: string; locale: string }>;
  /** Reads the flow cookie (for the language of an error page). */
  peek(cookie: string | undefined): TFlow | undefined;
};

const refusal = (
  code: "VALIDATION_ERROR" | "UNAUTHENTICATED" | "FORBIDDEN" | "UNAVAILABLE",
  reason: string,
  message: string,
) => new AppError(code, { reason, message });

const sameString = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

const ZEMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export const createExternalSignIn = (deps: {
  config: ExternalSignInConfig;
  cryptoKey: string;
  auth: Pick<AuthService, "signInWithVerifiedEmail">;
  clock: Clock;
  log?: { warn(details: object, message: string): void };
}): ExternalSignIn => {
  const { config } = deps;
  const sealer = createFlowSealer(deps.cryptoKey);
  const issuer = new URL(config.issuerUrl);

  // Discovery once, on first use (the upstream may be down when we start); a failure is retried next time.
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = (): Promise<oidc.Configuration> => {
    discovered ??= oidc
      .discovery(
        issuer,
        config.clientId,
        undefined,
        oidc.ClientSecretBasic(config.clientSecret),
        // http issuers are refused in production by env.ts; elsewhere (tests, a local provider) allowed.
        issuer.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        deps.log?.warn({ err: error }, "external sign-in: discovery of the upstream provider failed");
        throw refusal(
          "UNAVAILABLE",
          "auth.external_unavailable",
          "The external identity provider cannot be reached; try again later",
        );
      });
    return discovered;
  };

  return {
    name: config.name,

    start: async ({ next, locale }) => {
      const server = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const flow: TFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier,
        next,
        locale,
        expiresAt: deps.clock.now().getTime() + FLOW_LIFETIME_MS,
      };
      const url = oidc.buildAuthorizationUrl(server, {
        redirect_uri: config.redirectUri,
        response_type: "code",
        scope: "openid email profile",
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, cookie: sealer.seal(flow), expiresAt: new Date(flow.expiresAt) };
    },

    peek: (cookie) => sealer.open(cookie, deps.clock.now()),

    finish: async (callbackUrl, cookie, client) => {
      const flow = sealer.open(cookie, deps.clock.now());
      if (!flow) {
        throw refusal(
          "VALIDATION_ERROR",
          "auth.external_flow_missing",
          "The sign-in expired or was started in another browser; start it again",
        );
      }
      const state = callbackUrl.searchParams.get("state");
      if (state === null || !sameString(state, flow.state)) {
        throw refusal(
          "VALIDATION_ERROR",
          "auth.external_state_mismatch",
          "The sign-in response does not match the sign-in this browser started",
        );
      }
      if (callbackUrl.searchParams.has("error")) {
        throw refusal("UNAUTHENTICATED", "auth.external_denied", "The identity provider did not sign you in");
      }
      const server = await configuration();
      let claims: oidc.IDToken | undefined;
      let accessToken: string;
      try {
        const tokens = await oidc.authorizationCodeGrant(server, callbackUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
        accessToken = tokens.access_token;
      } catch (error) {
        // openid-client names the failed check in its cause: `unexpected ID Token "nonce" claim value`.
        const cause = (error as { cause?: unknown }).cause;
        const text = `${(error as Error).message} ${cause instanceof Error ? cause.message : ""}`;
        deps.log?.warn({ err: error }, "external sign-in: code exchange or ID token refused");
        if (/nonce/i.test(text)) {
          throw refusal(
            "UNAUTHENTICATED",
            "auth.external_nonce_mismatch",
            "The identity provider's answer was not issued for this sign-in",
          );
        }
        throw refusal(
          "UNAUTHENTICATED",
          "auth.external_failed",
          "The identity provider's answer could not be verified",
        );
      }
      if (!claims)
        throw refusal(
          "UNAUTHENTICATED",
          "auth.external_failed",
          "The identity provider's answer could not be verified",
        );

      // Google puts email and email_verified in the ID token; other providers may keep them in userinfo.
      let email: unknown = claims.email;
      let verified: unknown = claims.email_verified;
      if (typeof email !== "string") {
        const info = await oidc.fetchUserInfo(server, accessToken, claims.sub).catch(() => undefined);
        email = info?.email;
        verified = info?.email_verified;
      }
      if (typeof email !== "string" || !ZEMAIL.test(email) || email.length > 254) {
        throw refusal(
          "UNAUTHENTICATED",
          "auth.external_no_email",
          "The identity provider did not give an email address",
        );
      }
      if (verified !== true) {
        throw refusal(
          "FORBIDDEN",
          "auth.external_email_unverified",
          "The identity provider has not verified this email address",
        );
      }
      const result = await deps.auth.signInWithVerifiedEmail(email, client);
      return { result, next: flow.next, locale: flow.locale };
    },
  };
};
