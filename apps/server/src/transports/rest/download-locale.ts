import { isLocale } from "@hisob/i18n";
import { validationError } from "@hisob/kernel";
import type { FastifyRequest } from "fastify";
import { queryParam } from "../shared/locale";

/**
 * Downloads answer by the same rule as everything else — the signed-in user's profile language —
 * unless the link names one: `?lang=en|ru|uz` exports for a reader in another language (a client,
 * an auditor). A preValidation hook: `lang` leaves the query before the route's schema sees it, so
 * each download keeps its JSON list's query schema; the request then speaks that language throughout
 * (sheet names, headers, labels, and any error).
 */
export const takeDownloadLang = async (request: FastifyRequest): Promise<void> => {
  const query: unknown = request.query;
  if (typeof query !== "object" || query === null || !Object.hasOwn(query, "lang")) return;
  const lang = queryParam(request, "lang");
  delete (query as Record<string, unknown>).lang;
  if (!isLocale(lang)) throw validationError([{ path: "lang", message: "must be one of en, ru, uz" }]);
  if (request.ctx) request.ctx = { ...request.ctx, locale: lang };
};
