import { browserLocale } from "@hisob/ui";
import { createRoot } from "react-dom/client";
import { createAppI18n, Root } from "./app";
import { createBrowserBridge } from "./bridge/browser-bridge";

// The Electron preload sets window.hisob before this runs; a browser gets the web implementation.
const bridge = window.hisob ?? createBrowserBridge();
const i18n = createAppI18n(browserLocale());
const root = document.getElementById("root");
if (root) createRoot(root).render(<Root bridge={bridge} i18n={i18n} />);
