/*
 * A tiny HTML template: every interpolated value is escaped unless it is already `SafeHtml`
 * (the result of another `html` template). There is deliberately no way to mark a plain string safe.
 */

const SAFE = Symbol("SafeHtml");

export type SafeHtml = { readonly [SAFE]: true; readonly value: string };

/** What a template accepts: text (escaped), numbers, nested templates, lists of them; nothing for null/false. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Safe in text and in quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char);

const isSafeHtml = (value: unknown): value is SafeHtml =>
  typeof value === "object" && value !== null && SAFE in value;

const render = (value: HtmlValue): string => {
  if (value === null || value === undefined || value === false) return "";
  if (typeof value === "number") return escapeHtml(String(value));
  if (typeof value === "string") return escapeHtml(value);
  if (isSafeHtml(value)) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  // Anything else that slipped past the types is text.
  return escapeHtml(String(value));
};

export const html = (strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml => {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? "");
  });
  return { [SAFE]: true, value: out };
};
