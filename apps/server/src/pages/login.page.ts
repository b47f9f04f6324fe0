import { LOCALE_NAMES, SUPPORTED_LOCALES, t } from "@hisob/i18n";
import type { Locale } from "@hisob/kernel";
import { CSRF_FIELD, DEFAULT_NEXT } from "./form-security";
import { html, type SafeHtml } from "./html";
import { layout } from "./layout";

export type LoginPageInput = {
  locale: Locale;
  /** A path already checked with `safeNextPath`. */
  next: string;
  /** A message already in `locale`, shown in the alert region. */
  error?: string | undefined;
  /** The email to keep after a failed attempt; the password is never echoed. */
  email?: string | undefined;
  csrfToken: string;
  /** Extra fields the form must carry back (the OIDC flow's interaction state). */
  hiddenFields?: Readonly<Record<string, string>> | undefined;
  /** Where the form posts; default /login. */
  action?: string | undefined;
  /** The language switcher's link for `locale`; default: this page with `ui_locales`. */
  localeHref?: ((locale: Locale) => string) | undefined;
  /** The application that asks the user to sign in (an OIDC client's name), shown above the form. */
  app?: string | undefined;
  /** Sign-in through the configured upstream provider: a "Sign in with <name>" link to `href`. */
  external?: { name: string; href: string } | undefined;
};

// The form's own fields; a hidden field must not shadow them.
const RESERVED_FIELDS = new Set([CSRF_FIELD, "next", "ui_locales", "email", "password"]);

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

const defaultLocaleHref = (action: string, next: string) => (locale: Locale) => {
  const query = new URLSearchParams({ ui_locales: locale });
  if (next !== DEFAULT_NEXT) query.set("next", next);
  return `${action}?${query.toString()}`;
};

const languageSwitcher = (
  current: Locale,
  href: (locale: Locale) => string,
) => html`<nav aria-label="${t(current, "login.language")}">
<ul>
${SUPPORTED_LOCALES.map(
  (locale) =>
    html`<li><a href="${href(locale)}" lang="${locale}" hreflang="${locale}"${locale === current ? html` aria-current="true"` : ""}>${LOCALE_NAMES[locale]}</a></li>`,
)}
</ul>
</nav>`;

/** The sign-in form: email, password, the CSRF token and where to go next. Works without JavaScript. */
export const renderLoginPage = (input: LoginPageInput): SafeHtml => {
  const { locale, next, error, email = "" } = input;
  const action = input.action ?? "/login";
  const invalid = error !== undefined;
  const described = invalid ? html` aria-describedby="form-error"` : "";
  // Focus where typing continues: the password when the email is kept, otherwise the email.
  const focusPassword = email !== "";
  return layout({
    locale,
    title: t(locale, "login.title"),
    body: html`<main aria-labelledby="heading">
<h1 id="heading">${t(locale, "login.heading")}</h1>
${input.app ? html`<p class="for-app">${t(locale, "login.forApp", { app: input.app })}</p>` : ""}
<p>${t(locale, "login.intro")}</p>
${invalid ? html`<div class="error" role="alert" id="form-error">${error}</div>` : ""}
<form method="post" action="${action}">
${hidden(CSRF_FIELD, input.csrfToken)}
${hidden("next", next)}
${hidden("ui_locales", locale)}
${Object.entries(input.hiddenFields ?? {})
  .filter(([name]) => !RESERVED_FIELDS.has(name))
  .map(([name, value]) => hidden(name, value))}
<label for="email">${t(locale, "login.email")}</label>
<input id="email" name="email" type="email" value="${email}" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="254" required${focusPassword ? "" : html` autofocus`}${described}>
<label for="password">${t(locale, "login.password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024" required${focusPassword ? html` autofocus` : ""}${described}>
<button type="submit">${t(locale, "login.submit")}</button>
</form>
${
  input.external
    ? html`<p class="separator">${t(locale, "login.or")}</p>
<a class="button secondary" href="${input.external.href}">${t(locale, "login.external", { provider: input.external.name })}</a>`
    : ""
}
${languageSwitcher(locale, input.localeHref ?? defaultLocaleHref(action, next))}
</main>`,
  });
};

/** A sign-out confirmation: shown when a sign-out form post was refused, so the user can retry. */
export const renderLogoutPage = (input: {
  locale: Locale;
  csrfToken: string;
  error?: string | undefined;
}) => {
  const { locale, error } = input;
  return layout({
    locale,
    title: t(locale, "logout.title"),
    body: html`<main aria-labelledby="heading">
<h1 id="heading">${t(locale, "logout.heading")}</h1>
<p>${t(locale, "logout.intro")}</p>
${error === undefined ? "" : html`<div class="error" role="alert">${error}</div>`}
<form method="post" action="/logout">
${hidden(CSRF_FIELD, input.csrfToken)}
${hidden("ui_locales", locale)}
<button type="submit">${t(locale, "logout.submit")}</button>
</form>
</main>`,
  });
};
