import { z } from "zod";

export const LOCALES = ["en", "ru", "uz"] as const;
export const ZLocale = z.enum(LOCALES);
export type Locale = z.infer<typeof ZLocale>;
export const DEFAULT_LOCALE: Locale = "en";
