import { createBrowserBridge, pendingReturnTo } from "./bridge/browser-bridge";
import { preloadScreen } from "./screen-chunks";

/*
 * The entry is only the host bridge. A browser opening /app without a session of this tab (a new tab:
 * see the bridge) is sent to the provider at once, without first downloading the app; the app itself
 * loads on the way back (/app/callback) while the code is exchanged for tokens, and in Electron, whose
 * preload sets window.hisob before this runs. A tab that already has its session (a reload) starts the
 * app at once, and the chunk of the screen it opens beside it, not after the shell has rendered
 * (docs/decisions/0089-screens-as-fast-as-their-data.md).
 */
const CALLBACK_PATH = "/app/callback";

const bridge = window.hisob ?? createBrowserBridge();

const start = async () => {
  const { mountApp } = await import("./mount");
  const root = document.getElementById("root");
  if (root) mountApp(root, bridge);
};

const startWithScreen = (pathname: string) => {
  preloadScreen(pathname);
  void start();
};

if (bridge.host === "browser" && window.location.pathname !== CALLBACK_PATH) {
  void bridge.restoreSession().then((kept) => {
    if (kept) {
      startWithScreen(window.location.pathname);
      return;
    }
    // Leaves the page on success; on a failure (provider unreachable) the app shows it and offers a retry.
    bridge.signIn().then(
      (session) => {
        if (session) void start();
      },
      () => void start(),
    );
  });
} else if (bridge.host === "browser") {
  // Back from the provider: the screen it returns to is the one kept with the sign-in.
  startWithScreen(pendingReturnTo() ?? "/app/");
} else {
  void start();
}
