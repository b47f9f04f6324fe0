import { errorMessage, negotiateLocale } from "@hisob/i18n";
import { isAppError, type Locale } from "@hisob/kernel";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { issueCsrfToken, safeNextPath } from "../pages/form-security";
import { sendPage } from "../pages/layout";
import { renderLoginPage } from "../pages/login.page";
import { isSecureRequest, setSessionCookie } from "../transports/shared/auth-context";
import { queryParam } from "../transports/shared/locale";
import type { ExternalSignIn } from "./external-sign-in";
import { FLOW_COOKIE, FLOW_COOKIE_PATH, FLOW_LIFETIME_MS } from "./flow-cookie";

/*
 * GET /auth/external/start — what the login page's "Sign in with …" button opens: sets the flow cookie
 * and redirects to the upstream provider (the same start as the `googleAuthenticate` mutation).
 * GET /auth/external/callback — where the upstream sends the browser back: verifies, signs in, sets the
 * `session` cookie as the login form does, and redirects to the flow's safe `next`. A refusal is the
 * login page with the reason in the user's language, never a JSON document.
 */

export const EXTERNAL_START_PATH = "/auth/external/start";
export const EXTERNAL_CALLBACK_PATH = "/auth/external/callback";

/** Sets the sealed flow cookie on a reply (the start route and the GraphQL mutation share it). */
export const setFlowCookie = (reply: FastifyReply, sealed: string, secure: boolean) =>
  reply.setCookie(FLOW_COOKIE, sealed, {
    httpOnly: true,
    // Lax: the upstream's redirect back is a top-level GET navigation, which carries Lax cookies.
    sameSite: "lax",
    secure,
    path: FLOW_COOKIE_PATH,
    maxAge: Math.floor(FLOW_LIFETIME_MS / 1000),
  });

const STATUS: Record<string, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  UNAVAILABLE: 503,
};

export const externalSignInRoutes: FastifyPluginAsync<{
  externalSignIn: ExternalSignIn;
  issuerUrl: string;
}> = async (app, { externalSignIn, issuerUrl }) => {
  const secure = (request: FastifyRequest) => isSecureRequest(request, issuerUrl);
  const localeOf = (request: FastifyRequest, chosen?: string): Locale =>
    negotiateLocale({
      uiLocales: chosen ?? queryParam(request, "ui_locales"),
      acceptLanguage: request.headers["accept-language"],
    });

  const showRefusal = (
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    locale: Locale,
    next: string,
  ) => {
    if (!isAppError(error) || STATUS[error.code] === undefined) throw error;
    const csrfToken = issueCsrfToken(request, reply, secure(request));
    const message = errorMessage(locale, error.reason) ?? error.message;
    return sendPage(
      reply,
      STATUS[error.code] ?? 400,
      locale,
      renderLoginPage({
        locale,
        next,
        csrfToken,
        error: message,
        external: { name: externalSignIn.name, href: startHref(next, locale) },
      }),
    );
  };

  app.get(
    EXTERNAL_START_PATH,
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const next = safeNextPath(queryParam(request, "next"));
      const locale = localeOf(request);
      try {
        const started = await externalSignIn.start({ next, locale });
        setFlowCookie(reply, started.cookie, secure(request));
        return reply.header("cache-control", "no-store").redirect(started.url, 303);
      } catch (error) {
        return showRefusal(request, reply, error, locale, next);
      }
    },
  );

  app.get(
    EXTERNAL_CALLBACK_PATH,
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const cookie = request.cookies[FLOW_COOKIE];
      const flow = externalSignIn.peek(cookie);
      const locale = localeOf(request, flow?.locale);
      const next = flow?.next ?? safeNextPath(undefined);
      // The flow is single use: whatever happens now, the browser must start again for another try.
      reply.clearCookie(FLOW_COOKIE, {
        httpOnly: true,
        sameSite: "lax",
        secure: secure(request),
        path: FLOW_COOKIE_PATH,
      });
      reply.header("cache-control", "no-store");
      // Our registered redirect URI plus the query the upstream sent: openid-client compares it exactly.
      const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?")) : "";
      const callbackUrl = new URL(`${issuerUrl}${EXTERNAL_CALLBACK_PATH}${query}`);
      try {
        const { result, next: target } = await externalSignIn.finish(callbackUrl, cookie, {
          ip: request.ip,
          userAgent: request.headers["user-agent"] ?? "",
        });
        setSessionCookie(reply, result.token, result.session.expiresAt, secure(request));
        return reply.redirect(safeNextPath(target), 303);
      } catch (error) {
        request.log.info(
          { reason: isAppError(error) ? error.reason : undefined },
          "external sign-in refused",
        );
        return showRefusal(request, reply, error, locale, next);
      }
    },
  );
};

/** The login page's button: starts the flow in this browser, keeping `next` and the language. */
export const startHref = (next: string, locale: Locale): string => {
  const query = new URLSearchParams({ next, ui_locales: locale });
  return `${EXTERNAL_START_PATH}?${query.toString()}`;
};
