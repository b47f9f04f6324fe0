import { LOCALE_NAMES, SUPPORTED_LOCALES, t } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import { CSRF_FIELD } from "./form-security";
import { html, type SafeHtml } from "./html";
import { layout } from "./layout";

/** Where the consent form posts: the provider's own route (docs/decisions/0036-oidc-consent.md). */
export const CONSENT_ACTION = "/oidc/consent";
export const INTERACTION_FIELD = "interaction";
export const DECISION_FIELD = "decision";

export type ConsentPageInput = {
  locale: Locale;
  app: string;
  organization: string;
  /** The signed-in user as the page names them: "name (email)". */
  user: string;
  /** Every scope asked for; those not in `newScopes` are marked as already allowed. */
  scopes: string[];
  newScopes: string[];
  interaction: string;
  csrfToken: string;
  /** The language switcher's link for a locale (the same authorize request in that language). */
  localeHref: (locale: Locale) => string;
};

const SCOPE_TEXT = {
  openid: "consent.scope.openid",
  profile: "consent.scope.profile",
  email: "consent.scope.email",
  offline_access: "consent.scope.offline_access",
} as const;

const scopeText = (locale: Locale, scope: string): string =>
  scope in SCOPE_TEXT ? t(locale, SCOPE_TEXT[scope as keyof typeof SCOPE_TEXT]) : scope;

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

/** "Allow <app> to use your account?": names the app, the organization and the user; Allow or Deny. */
export const renderConsentPage = (input: ConsentPageInput): SafeHtml => {
  const { locale, app } = input;
  return layout({
    locale,
    title: t(locale, "consent.title", { app }),
    body: html`<main aria-labelledby="heading">
<h1 id="heading">${t(locale, "consent.heading", { app })}</h1>
<p>${t(locale, "consent.signedInAs", { user: input.user, organization: input.organization })}</p>
<p>${t(locale, "consent.asks", { app })}</p>
<ul class="scopes">
${input.scopes.map(
  (scope) =>
    html`<li data-scope="${scope}">${scopeText(locale, scope)}${
      input.newScopes.includes(scope) ? "" : html` <small>(${t(locale, "consent.alreadyAllowed")})</small>`
    }</li>`,
)}
</ul>
<form method="post" action="${CONSENT_ACTION}">
${hidden(CSRF_FIELD, input.csrfToken)}
${hidden(INTERACTION_FIELD, input.interaction)}
${hidden("ui_locales", locale)}
<button type="submit" name="${DECISION_FIELD}" value="allow">${t(locale, "consent.allow")}</button>
<button type="submit" name="${DECISION_FIELD}" value="deny" class="secondary">${t(locale, "consent.deny")}</button>
</form>
<p class="hint">${t(locale, "consent.revokeHint")}</p>
<nav aria-label="${t(locale, "login.language")}">
<ul>
${SUPPORTED_LOCALES.map(
  (option) =>
    html`<li><a href="${input.localeHref(option)}" lang="${option}" hreflang="${option}"${option === locale ? html` aria-current="true"` : ""}>${LOCALE_NAMES[option]}</a></li>`,
)}
</ul>
</nav>
</main>`,
  });
};

/** A consent decision we could not take (edited or old page, another session, a forged form). */
export const renderConsentRefusedPage = (input: { locale: Locale; message: string }): SafeHtml =>
  layout({
    locale: input.locale,
    title: t(input.locale, "consent.refused.title"),
    body: html`<main>
<h1>${t(input.locale, "consent.refused.heading")}</h1>
<div class="error" role="alert">${input.message}</div>
</main>`,
  });
