import { negotiateLocale } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import type { FastifyRequest } from "fastify";

/** A string value of the parsed query string (the first one when repeated); undefined otherwise. */
export const queryParam = (request: FastifyRequest, name: string): string | undefined => {
  const query: unknown = request.query;
  if (typeof query !== "object" || query === null || !Object.hasOwn(query, name)) return undefined;
  const value: unknown = (query as Record<string, unknown>)[name];
  if (Array.isArray(value)) return typeof value[0] === "string" ? value[0] : undefined;
  return typeof value === "string" ? value : undefined;
};

/**
 * The language to answer `request` in: the signed-in user's own setting, else `ui_locales` from the
 * query (OIDC style), else Accept-Language, else English.
 */
export const requestLocale = (request: FastifyRequest): Locale => {
  // `ctx` is only decorated when the API routes are mounted; errors can also precede the auth hook.
  const userLocale = request.ctx?.locale;
  if (userLocale) return userLocale;
  return negotiateLocale({
    uiLocales: queryParam(request, "ui_locales"),
    acceptLanguage: request.headers["accept-language"],
  });
};
