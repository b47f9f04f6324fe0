import type { SessionInfo } from "../shared/bridge";
import type { Started } from "./app";
import { createBrowserBridge, pendingReturnTo } from "./bridge/browser-bridge";
import { preloadScreen } from "./screen-chunks";

/*
 * The entry is only the host bridge. A browser opening /app without a session of this tab (a new tab:
 * see the bridge) is sent to the provider at once, without first downloading the app; the app itself
 * loads on the way back (/app/callback) while the code is exchanged for tokens, and in Electron, whose
 * preload sets window.hisob before this runs. A tab that already has its session (a reload) starts the
 * app at once, and the chunk of the screen it opens beside it, not after the shell has rendered
 * (docs/decisions/0089-screens-as-fast-as-their-data.md). With the session known, the screen's data
 * starts too, while the app's code loads (docs/decisions/0099-first-screens-start-their-data.md).
 */
const CALLBACK_PATH = "/app/callback";

const bridge = window.hisob ?? createBrowserBridge();

const start = async (started?: Started) => {
  const { mountApp } = await import("./mount");
  const root = document.getElementById("root");
  if (root) mountApp(root, bridge, started);
};

/** The screen at `href` (a path under /app with its search): its code, its data once signed in, the app. */
const startWithScreen = (href: string, session: Promise<SessionInfo | null>, started: Started) => {
  preloadScreen(new URL(href, window.location.origin).pathname);
  // The screen's requests go out as soon as there is a token, beside the app's code (its own small chunk).
  void Promise.all([session, import("./screen-data")]).then(
    ([current, data]) => current && data.prefetchScreen(data.browserAppData(bridge), href),
    // A refused sign-in is the app's to show (it awaits the same promise).
    () => undefined,
  );
  void start(started);
};

if (bridge.host === "browser" && window.location.pathname !== CALLBACK_PATH) {
  void bridge.restoreSession().then((kept) => {
    if (kept) {
      startWithScreen(window.location.pathname + window.location.search, Promise.resolve(kept), {
        session: kept,
      });
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
  // Back from the provider: the screen it returns to is the one kept with the sign-in, and the code is
  // exchanged for tokens at once, while the app's code loads.
  const returnTo = pendingReturnTo() ?? "/app/";
  const pending = bridge.restoreSession();
  startWithScreen(returnTo, pending, { pending });
} else {
  void start();
}
