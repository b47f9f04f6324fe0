import type { Locale } from "@hisob/kernel";

// Type-only import from the kernel: this package also runs in browsers, where the kernel's
// Node-only parts (argon2) must not be bundled.
export const SUPPORTED_LOCALES = ["en", "ru", "uz"] as const satisfies readonly Locale[];
export const FALLBACK_LOCALE: Locale = "en";

// Fails to compile when the kernel gains a locale this package does not translate.
type Missing = Exclude<Locale, (typeof SUPPORTED_LOCALES)[number]>;
const everyLocaleCovered: [Missing] extends [never] ? true : Missing = true;
void everyLocaleCovered;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);

/** Each language's name in itself, for language switchers. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", ru: "Русский", uz: "Oʻzbekcha" };
