import type { Locale } from "@hisob/kernel";
import { type TranslationParams, t } from "./i18n";
import { en } from "./locales/en";
import type { MessageKey } from "./messages";

/*
 * Per-field validation details (`issues[].message`) are produced in English by the kernel's zod
 * wording and by services. They are translated here by their text: `issues.*` in en.ts holds each
 * exact English text, with `{{name}}` where a value (a number, a field name, a list) is carried over.
 */

type Template = { key: MessageKey; pattern: RegExp; names: string[]; literalLength: number };

const PLACEHOLDER = /\{\{(\w+)\}\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const exact = new Map<string, MessageKey>();
const templates: Template[] = [];
for (const [name, text] of Object.entries(en.issues)) {
  const key = `issues.${name}` as MessageKey;
  const names = [...text.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
  if (names.length === 0) {
    exact.set(text, key);
    continue;
  }
  const source = text
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 1 ? "(.+?)" : escapeRegExp(part)))
    .join("");
  const literalLength = text.replace(PLACEHOLDER, "").length;
  templates.push({ key, pattern: new RegExp(`^${source}$`, "s"), names, literalLength });
}
// The most specific wording first: "must be exactly 3 characters" before "must be exactly {{limit}}".
templates.sort((a, b) => b.literalLength - a.literalLength);

/** The catalogue entry and values for an English issue text, or null when it has none. */
export const matchIssue = (english: string): { key: MessageKey; params: Record<string, string> } | null => {
  const key = exact.get(english);
  if (key) return { key, params: {} };
  for (const template of templates) {
    const match = template.pattern.exec(english);
    if (match) {
      return {
        key: template.key,
        params: Object.fromEntries(template.names.map((name, index) => [name, match[index + 1] ?? ""])),
      };
    }
  }
  return null;
};

/**
 * An issue's message in `locale`; an unknown text stays English. English text stays exactly as
 * produced, unless `data` holds a value the text names as data to format (a day the error carries as
 * `{ isoDate }`): then every language, English too, writes it its own way.
 */
export const issueMessage = (locale: Locale, english: string, data: TranslationParams = {}): string => {
  const found = matchIssue(english);
  if (!found) return english;
  const formatted = Object.keys(found.params).filter((name) => data[name] !== undefined);
  if (locale === "en" && formatted.length === 0) return english;
  const params: TranslationParams = { ...found.params };
  for (const name of formatted) params[name] = data[name] as TranslationParams[string];
  return t(locale, found.key, params);
};
