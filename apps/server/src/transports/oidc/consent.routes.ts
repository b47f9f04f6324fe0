import { negotiateLocale, t } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import type { ConsentPrompt, ConsentRefusal, LoginSession, OidcProvider } from "@hisob/oidc";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { authorizeErrorPage } from "../../pages/authorize-error.page";
import {
  CONSENT_ACTION,
  DECISION_FIELD,
  INTERACTION_FIELD,
  renderConsentPage,
  renderConsentRefusedPage,
} from "../../pages/consent.page";
import { CSRF_FIELD, isSameOriginPost, issueCsrfToken, isValidCsrfToken } from "../../pages/form-security";
import { sendPage } from "../../pages/layout";
import { isSecureRequest } from "../shared/auth-context";
import { queryParam } from "../shared/locale";

/*
 * The consent page of third-party clients (docs/decisions/0036-oidc-consent.md): GET /oidc/authorize
 * renders it, its form posts Allow or Deny here. The post proves it comes from our page as the login
 * form does (Origin and the CSRF token); the sealed interaction proves it answers this session's request.
 */

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

const formField = (body: unknown, name: string): string | undefined => {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, name)) return undefined;
  const value: unknown = (body as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : undefined;
  return typeof value === "string" ? value : undefined;
};

/** The language asked for (ui_locales of the query or the form), then the user's own, then the browser's. */
const consentLocale = (request: FastifyRequest, body?: unknown): Locale =>
  negotiateLocale({
    uiLocales: formField(body, "ui_locales") ?? queryParam(request, "ui_locales") ?? request.ctx?.locale,
    acceptLanguage: request.headers["accept-language"],
  });

/** The same authorize request in another language (a new page, a new interaction). */
const localeHrefOf = (request: FastifyRequest) => (locale: Locale) => {
  const url = new URL(request.url, "http://consent.invalid");
  url.searchParams.set("ui_locales", locale);
  return `${url.pathname}${url.search}`;
};

export const sendConsentPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  issuer: string,
  consent: ConsentPrompt,
) => {
  const locale = consentLocale(request);
  const csrfToken = issueCsrfToken(request, reply, isSecureRequest(request, issuer));
  const user = consent.user.name ? `${consent.user.name} (${consent.user.email})` : consent.user.email;
  return sendPage(
    reply,
    200,
    locale,
    renderConsentPage({
      locale,
      app: consent.client.name,
      organization: consent.organization,
      user,
      scopes: consent.scopes,
      newScopes: consent.newScopes,
      interaction: consent.interaction,
      csrfToken,
      localeHref: localeHrefOf(request),
    }),
  );
};

const REFUSAL_STATUS: Record<ConsentRefusal | "csrf", number> = {
  malformed: 400,
  expired: 400,
  other_session: 403,
  csrf: 403,
};

export const consentRoutes: FastifyPluginAsync<{
  oidc: OidcProvider;
  loginSession: (request: FastifyRequest) => Promise<LoginSession | null>;
}> = async (app, { oidc, loginSession }) => {
  const refuse = (reply: FastifyReply, locale: Locale, reason: ConsentRefusal | "csrf") =>
    sendPage(
      reply.headers(NO_STORE),
      REFUSAL_STATUS[reason],
      locale,
      renderConsentRefusedPage({ locale, message: t(locale, `consent.refused.${reason}`) }),
    );

  app.post(
    CONSENT_ACTION,
    {
      config: { public: true, oidcRateLimit: "authorize" },
      schema: {
        tags: ["oidc"],
        summary: "Allow or deny a third-party application (the consent page's form)",
      },
    },
    async (request, reply) => {
      const body = request.body;
      const locale = consentLocale(request, body);
      const secure = isSecureRequest(request, oidc.config.issuer);
      if (
        !isSameOriginPost(request, oidc.config.issuer) ||
        !isValidCsrfToken(request, formField(body, CSRF_FIELD), secure)
      ) {
        request.log.info(
          { origin: request.headers.origin ?? null },
          "consent form refused: origin or CSRF token",
        );
        return refuse(reply, locale, "csrf");
      }
      const decision = formField(body, DECISION_FIELD);
      if (decision !== "allow" && decision !== "deny") return refuse(reply, locale, "malformed");
      const outcome = await oidc.authorize.decide({
        interaction: formField(body, INTERACTION_FIELD),
        allow: decision === "allow",
        session: await loginSession(request),
        origin: {
          requestId: request.id,
          client: { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" },
        },
      });
      switch (outcome.type) {
        case "refused":
          return refuse(reply, locale, outcome.why);
        case "redirect":
          return reply.headers(NO_STORE).redirect(outcome.location, 303);
        case "error":
          // The client or its redirect URI went away while the page was open: we cannot send the user back.
          return sendPage(
            reply.headers(NO_STORE),
            outcome.error.status,
            locale,
            authorizeErrorPage({ locale, description: outcome.error.description }),
          );
        default:
          // A checked request answers with a redirect or an error; anything else is a bug.
          throw new Error(`unexpected consent outcome ${outcome.type}`);
      }
    },
  );
};
