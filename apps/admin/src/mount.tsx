import { createRoot } from "react-dom/client";
import { App } from "./App";

/** Renders the admin (its own chunk: the entry first starts the first screen's requests). */
export const mountApp = () => {
  const root = document.getElementById("root");
  if (root) createRoot(root).render(<App />);
};
