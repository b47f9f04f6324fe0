import fastifyFormbody from "@fastify/formbody";
import type { CoreServices } from "@hisob/core";
import { isLocale, negotiateLocale, t } from "@hisob/i18n";
import { AppError, isAppError, type Locale } from "@hisob/kernel";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { startHref } from "../../external-sign-in/external-sign-in.routes";
import {
  CSRF_FIELD,
  isSameOriginPost,
  issueCsrfToken,
  isValidCsrfToken,
  safeNextPath,
} from "../../pages/form-security";
import { sendPage } from "../../pages/layout";
import { renderLoginPage, renderLogoutPage } from "../../pages/login.page";
import {
  bearerOf,
  CSRF_HEADER,
  clearSessionCookie,
  isNonSimple,
  isSecureRequest,
  SESSION_COOKIE,
  setSessionCookie,
} from "../shared/auth-context";
import { queryParam } from "../shared/locale";

/*
 * The HTML sign-in page and sign-out. Form posts prove they come from our own page twice: the
 * Origin (or Referer) is ours, and the form carries the CSRF token bound to a cookie.
 */

/** A string field of a parsed form body (the first one when repeated). */
const formField = (body: unknown, name: string): string | undefined => {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, name)) return undefined;
  const value: unknown = (body as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : undefined;
  return typeof value === "string" ? value : undefined;
};

/** Pages follow the language asked for (a form's hidden ui_locales, the query), then the browser's. */
const pageLocale = (request: FastifyRequest, body?: unknown): Locale =>
  negotiateLocale({
    uiLocales: formField(body, "ui_locales") ?? queryParam(request, "ui_locales"),
    acceptLanguage: request.headers["accept-language"],
  });

const mediaType = (request: FastifyRequest): string =>
  (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

// The content types a cross-site HTML form can send without a preflight.
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]);

type LoginFailure = { status: number; message: string; retryAfterSeconds?: number };

/** A refused sign-in as the page shows it; undefined for errors that are not the user's (they propagate). */
const loginFailure = (
  error: unknown,
  locale: Locale,
  input: { email: string; password: string },
): LoginFailure | undefined => {
  if (!isAppError(error)) return undefined;
  switch (error.code) {
    case "UNAUTHENTICATED":
      // One message for an unknown email, a wrong password and a disabled account.
      return { status: 401, message: t(locale, "login.error.invalid_credentials") };
    case "RATE_LIMITED": {
      const seconds =
        typeof error.params.retryAfterSeconds === "number" ? error.params.retryAfterSeconds : 60;
      const minutes = Math.max(1, Math.ceil(seconds / 60));
      return {
        status: 429,
        retryAfterSeconds: seconds,
        message: t(locale, "login.error.too_many_attempts", { minutes }),
      };
    }
    case "VALIDATION_ERROR":
      // Empty fields are the user's to fix; anything else (an absurdly long email) is just wrong credentials.
      return input.email.trim() === "" || input.password === ""
        ? { status: 400, message: t(locale, "login.error.missing_fields") }
        : { status: 401, message: t(locale, "login.error.invalid_credentials") };
    default:
      return undefined;
  }
};

export const loginRoutes: FastifyPluginAsyncZod<{
  services: CoreServices;
  issuerUrl: string;
  /** The configured upstream OpenID provider: the page shows "Sign in with <name>". */
  external?: { name: string };
  /** The name of the application whose authorize request `next` continues, if it is one. */
  appNameFor?: (next: string) => Promise<string | undefined>;
}> = async (app, { services, issuerUrl, external, appNameFor }) => {
  // HTML forms post here (and only here and to the OIDC endpoints): form bodies are parsed in this
  // scope alone, so the JSON API (POST /auth/login above all) never accepts what a cross-site form sends.
  await app.register(fastifyFormbody);
  const secure = (request: FastifyRequest) => isSecureRequest(request, issuerUrl);

  const isTrustedFormPost = (request: FastifyRequest): boolean =>
    isSameOriginPost(request, issuerUrl) &&
    isValidCsrfToken(request, formField(request.body, CSRF_FIELD), secure(request));

  const showLogin = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    page: { locale: Locale; next: string; error?: string; email?: string },
  ) => {
    const csrfToken = issueCsrfToken(request, reply, secure(request));
    const appName = appNameFor ? await appNameFor(page.next) : undefined;
    return sendPage(
      reply,
      status,
      page.locale,
      renderLoginPage({
        ...page,
        csrfToken,
        app: appName,
        ...(external ? { external: { name: external.name, href: startHref(page.next, page.locale) } } : {}),
      }),
    );
  };

  app.get("/login", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const next = safeNextPath(queryParam(request, "next"));
    // Signed in already: go on, unless the authorize flow asks to sign in again (prompt=login, max_age).
    if (request.ctx && queryParam(request, "prompt") !== "login") return reply.redirect(next, 303);
    return showLogin(request, reply, 200, { locale: pageLocale(request), next });
  });

  app.post("/login", { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const body = request.body;
    const locale = pageLocale(request, body);
    const next = safeNextPath(formField(body, "next") ?? queryParam(request, "next"));
    const email = formField(body, "email") ?? "";
    const password = formField(body, "password") ?? "";
    const shownEmail = email.slice(0, 254);

    if (!isTrustedFormPost(request)) {
      request.log.info(
        { origin: request.headers.origin ?? null },
        "login form refused: origin or CSRF token",
      );
      return showLogin(request, reply, 403, {
        locale,
        next,
        email: shownEmail,
        error: t(locale, "login.error.csrf"),
      });
    }

    try {
      const { token, session } = await services.auth.login(
        { email, password },
        { ip: request.ip, userAgent: request.headers["user-agent"] ?? "", requestId: request.id },
      );
      setSessionCookie(reply, token, session.expiresAt, secure(request));
      return reply.redirect(next, 303);
    } catch (error) {
      const failure = loginFailure(error, locale, { email, password });
      if (!failure) throw error;
      if (failure.retryAfterSeconds !== undefined) {
        reply.header("retry-after", String(failure.retryAfterSeconds));
      }
      return showLogin(request, reply, failure.status, {
        locale,
        next,
        email: shownEmail,
        error: failure.message,
      });
    }
  });

  /** Where a sign-out came from, for its audit entry. */
  const signOutFrom = (request: FastifyRequest) => ({
    requestId: request.id,
    client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
  });

  app.post(
    "/logout",
    {
      config: { public: true },
      schema: {
        tags: ["auth"],
        summary: "Sign out: ends the session of the bearer token or the `session` cookie",
        description:
          "Idempotent: 204 also when there is no session. With the cookie, send JSON or the " +
          `\`${CSRF_HEADER}\` header; the sign-in page's form post is answered with 303 → /login.`,
        response: { 204: z.null().describe("Signed out") },
      },
    },
    async (request, reply) => {
      // A bearer token is never sent by a browser on its own, so it needs no CSRF proof.
      const bearer = bearerOf(request.headers.authorization);
      if (bearer) {
        await services.auth.logout(bearer, signOutFrom(request));
        return reply.code(204).send(null);
      }

      const cookieToken = request.cookies[SESSION_COOKIE];
      if (FORM_TYPES.has(mediaType(request))) {
        const locale = pageLocale(request, request.body);
        if (!isTrustedFormPost(request)) {
          request.log.info(
            { origin: request.headers.origin ?? null },
            "logout form refused: origin or CSRF token",
          );
          const csrfToken = issueCsrfToken(request, reply, secure(request));
          return sendPage(
            reply,
            403,
            locale,
            renderLogoutPage({ locale, csrfToken, error: t(locale, "login.error.csrf") }),
          );
        }
        if (cookieToken) await services.auth.logout(cookieToken, signOutFrom(request));
        clearSessionCookie(reply, secure(request));
        const chosen = formField(request.body, "ui_locales");
        return reply.redirect(isLocale(chosen) ? `/login?ui_locales=${chosen}` : "/login", 303);
      }

      if (cookieToken) {
        if (!isNonSimple(request)) {
          throw new AppError("FORBIDDEN", {
            reason: "auth.csrf_required",
            message: `Cookie-authenticated changes need a JSON body or the ${CSRF_HEADER} header`,
          });
        }
        await services.auth.logout(cookieToken, signOutFrom(request));
        clearSessionCookie(reply, secure(request));
      }
      return reply.code(204).send(null);
    },
  );
};
