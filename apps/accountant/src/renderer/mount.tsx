import { browserLocale, endCancelledMotions } from "@hisob/ui";
import { createRoot } from "react-dom/client";
import type { HisobBridge } from "../shared/bridge";
import { createAppI18n, Root } from "./app";

/** Renders the app (its own chunk: the entry only signs in). */
export const mountApp = (element: HTMLElement, bridge: HisobBridge) => {
  // A motion turned back before it moved must still end (docs/decisions/0092-motions-that-end.md).
  endCancelledMotions();
  const i18n = createAppI18n(browserLocale());
  createRoot(element).render(<Root bridge={bridge} i18n={i18n} />);
};
