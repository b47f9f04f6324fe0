import type { Locale } from "@hisob/ui";

/*
 * The language the forms' client-side checks speak. The shell sets it (no zod in the first screen);
 * `checkWith` (loaded with the screens that have forms) reads it at every check.
 */
let current: Locale = "en";

export const setFormLocale = (locale: Locale): void => {
  current = locale;
};

export const formLocale = (): Locale => current;
