import { browserLocale } from "@hisob/ui";
import { createRoot } from "react-dom/client";
import type { HisobBridge } from "../shared/bridge";
import { createAppI18n, Root } from "./app";

/** Renders the app (its own chunk: the entry only signs in). */
export const mountApp = (element: HTMLElement, bridge: HisobBridge) => {
  const i18n = createAppI18n(browserLocale());
  createRoot(element).render(<Root bridge={bridge} i18n={i18n} />);
};
