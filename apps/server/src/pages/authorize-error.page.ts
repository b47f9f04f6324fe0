import { t } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import { html, type SafeHtml } from "./html";
import { layout } from "./layout";

/**
 * What a person sees when an app's authorize link names an unknown client or a redirect URI it may
 * not use: we cannot send them back (that would be an open redirect), so we say who must fix it.
 * `description` is the provider's fixed English text, shown as a detail for the developer.
 */
export const authorizeErrorPage = (input: { locale: Locale; description: string }): SafeHtml =>
  layout({
    locale: input.locale,
    title: t(input.locale, "authorizeError.title"),
    body: html`<main>
<h1>${t(input.locale, "authorizeError.heading")}</h1>
<p>${t(input.locale, "authorizeError.body")}</p>
<p>${t(input.locale, "authorizeError.developer")}</p>
<p><small>${t(input.locale, "authorizeError.detail")} <code>${input.description}</code></small></p>
</main>`,
  });
