import { ConfigProvider } from "antd";
import enUS from "antd/locale/en_US";
import ruRU from "antd/locale/ru_RU";
import uzUZ from "antd/locale/uz_UZ";
import dayjs from "dayjs";
import "dayjs/locale/ru";
import "dayjs/locale/uz-latn";
import i18next, { type i18n as I18n, type Resource } from "i18next";
import { type ReactNode, useEffect, useState } from "react";
import { I18nextProvider, initReactI18next, useTranslation } from "react-i18next";
import { en } from "./locales/en";
import { ru } from "./locales/ru";
import { uz } from "./locales/uz";
import type { Locale } from "./money";
import { HISOB_THEME } from "./theme";

/**
 * Every dialog of both apps fits the window, however small (1280×720 included): centred, its body
 * scrolls, its title and buttons stay in view.
 */
const MODAL_CONFIG = {
  centered: true,
  styles: {
    body: {
      maxHeight: "calc(100vh - 180px)",
      overflowY: "auto",
      overflowX: "hidden",
      // Room for the focus outline of a field at the body's edge (it would be clipped).
      padding: "0 6px",
      margin: "0 -6px",
    },
  },
} as const;

export const LOCALES: readonly Locale[] = ["en", "ru", "uz"];
/** Each language's own name, as the switch shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", ru: "Русский", uz: "Oʻzbekcha" };
export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * Ant Design's Uzbek leaves "OK" untranslated on confirmations; an Uzbek reader confirming a
 * destructive action should read the word in their own language.
 */
const uzUZConfirmed = {
  ...uzUZ,
  Modal: { ...uzUZ.Modal, okText: "Tasdiqlash", justOkText: "Tushunarli" },
  Popconfirm: { ...uzUZ.Popconfirm, okText: "Tasdiqlash" },
} as typeof uzUZ;
const ANTD_LOCALES = { en: enUS, ru: ruRU, uz: uzUZConfirmed };
const DAYJS_LOCALES: Record<Locale, string> = { en: "en", ru: "ru", uz: "uz-latn" };

/** Where a browser keeps the language it last showed (the signed-in user's, once known). */
const LAST_LOCALE_KEY = "hisob.locale";

const lastLocale = (): Locale | undefined => {
  try {
    const saved = globalThis.localStorage?.getItem(LAST_LOCALE_KEY);
    return isLocale(saved) ? saved : undefined;
  } catch {
    return undefined; // storage refused (privacy settings): the browser's languages decide
  }
};

/**
 * The language to start in: the one this browser last showed, else its preferred supported one, else
 * English. A screen renders as soon as its code and data are here, often before the user's saved
 * language arrives: starting in the last one shown keeps a reload from flashing another language.
 */
export const browserLocale = (): Locale => {
  const last = lastLocale();
  if (last) return last;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLocale(base)) return base;
  }
  return "en";
};

/**
 * One i18next instance: the shared "ui" namespace plus each app's own namespaces
 * (`{ app: { en, ru, uz } }`). A missing key shows as itself in tests, never silently.
 */
export const createI18n = (appResources: Record<string, Record<Locale, object>>, locale: Locale): I18n => {
  const resources: Resource = {};
  for (const lng of LOCALES) {
    resources[lng] = { ui: lng === "en" ? en : lng === "ru" ? ru : uz };
    for (const [ns, byLocale] of Object.entries(appResources)) {
      (resources[lng] as Record<string, object>)[ns] = byLocale[lng];
    }
  }
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: false,
    ns: ["ui", ...Object.keys(appResources)],
    defaultNS: Object.keys(appResources)[0] ?? "ui",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
};

/** i18next + Ant Design's and dayjs's locale, kept in step with the current language. */
export const I18nProvider = ({ i18n, children }: { i18n: I18n; children: ReactNode }) => {
  const [locale, setLocale] = useState<Locale>(isLocale(i18n.language) ? i18n.language : "en");
  useEffect(() => {
    const onChange = (lng: string) => {
      if (isLocale(lng)) setLocale(lng);
    };
    i18n.on("languageChanged", onChange);
    return () => i18n.off("languageChanged", onChange);
  }, [i18n]);
  useEffect(() => {
    dayjs.locale(DAYJS_LOCALES[locale]);
    document.documentElement.lang = locale;
    try {
      globalThis.localStorage?.setItem(LAST_LOCALE_KEY, locale);
    } catch {
      // storage refused: the next start follows the browser's languages
    }
  }, [locale]);
  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={ANTD_LOCALES[locale]} theme={HISOB_THEME} modal={MODAL_CONFIG}>
        {children}
      </ConfigProvider>
    </I18nextProvider>
  );
};

/** The current language as our Locale type. */
export const useLocale = (): Locale => {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : "en";
};
