import type { Locale } from "@hisob/ui";

/** A small first set of categories per language: what most small firms sort money into. */
export const DEFAULT_CATEGORIES: Record<Locale, { income: string[]; expense: string[] }> = {
  en: {
    income: ["Sales", "Services", "Other income"],
    expense: ["Rent", "Salaries", "Utilities", "Taxes", "Office supplies", "Bank fees"],
  },
  ru: {
    income: ["Продажи", "Услуги", "Прочие доходы"],
    expense: ["Аренда", "Зарплата", "Коммунальные услуги", "Налоги", "Канцтовары", "Банковские комиссии"],
  },
  uz: {
    income: ["Savdo", "Xizmatlar", "Boshqa daromadlar"],
    expense: ["Ijara", "Ish haqi", "Kommunal xizmatlar", "Soliqlar", "Ofis buyumlari", "Bank komissiyalari"],
  },
};
