import { endCancelledMotions } from "@hisob/ui";
import { createRoot } from "react-dom/client";
import { App } from "./App";

/** Renders the admin (its own chunk: the entry first starts the first screen's requests). */
export const mountApp = () => {
  // A motion turned back before it moved must still end (docs/decisions/0092-motions-that-end.md).
  endCancelledMotions();
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<App />);
};
