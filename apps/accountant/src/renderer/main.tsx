import { createBrowserBridge } from "./bridge/browser-bridge";

/*
 * The entry is only the host bridge. A browser opening /app without a session (every fresh load: its
 * tokens live in memory) is sent to the provider at once, without first downloading the app; the
 * app itself loads on the way back (/app/callback) while the code is exchanged for tokens, and in
 * Electron, whose preload sets window.hisob before this runs.
 */
const CALLBACK_PATH = "/app/callback";

const bridge = window.hisob ?? createBrowserBridge();

const start = async () => {
  const { mountApp } = await import("./mount");
  const root = document.getElementById("root");
  if (root) mountApp(root, bridge);
};

if (bridge.host === "browser" && window.location.pathname !== CALLBACK_PATH) {
  // Leaves the page on success; on a failure (provider unreachable) the app shows it and offers a retry.
  bridge.signIn().then(
    (session) => {
      if (session) void start();
    },
    () => void start(),
  );
} else {
  void start();
}
