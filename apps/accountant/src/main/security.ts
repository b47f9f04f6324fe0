/*
 * What the window may do: show the app from app://hisob, talk to the configured server, nothing else.
 * Pure functions (tested without Electron) plus the one place that wires them to a window.
 */

export const APP_ORIGIN = "app://hisob";

/** The renderer's Content-Security-Policy: our own scripts only; network only to the server. */
export const contentSecurityPolicy = (serverUrl: string): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    // Ant Design writes its CSS-in-JS into <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // The server's origin over HTTP, and over WebSocket for the live sign-out (GraphQL subscriptions).
    `connect-src 'self' ${new URL(serverUrl).origin} ${new URL(serverUrl).origin.replace(/^http/, "ws")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

const originOf = (url: string): string | null => {
  try {
    const parsed = new URL(url);
    // "app://hisob/x" has origin "null" in the URL standard; compare scheme and host ourselves.
    return parsed.protocol === "app:" ? `app://${parsed.host}` : parsed.origin;
  } catch {
    return null;
  }
};

/** In-app navigation stays inside the app; everything else is refused (links go to the system browser). */
export const isAppUrl = (url: string): boolean => originOf(url) === APP_ORIGIN;

/** Only plain web links may be handed to the system browser (never file:, javascript:, custom schemes). */
export const isExternalWebUrl = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
};

export type WindowOpenDecision = { action: "deny" };

/** New windows are never created: a web link opens in the system browser instead. */
export const decideWindowOpen = (url: string, openExternal: (url: string) => void): WindowOpenDecision => {
  if (isExternalWebUrl(url)) openExternal(url);
  return { action: "deny" };
};

/** A navigation the window itself attempts (a link, a redirect, location.assign). */
export const decideNavigation = (url: string, openExternal: (url: string) => void): { allow: boolean } => {
  if (isAppUrl(url)) return { allow: true };
  if (isExternalWebUrl(url)) openExternal(url);
  return { allow: false };
};

/** Only the app's own top frame may call the main process. */
export const isTrustedSender = (frameUrl: string | undefined, isMainFrame: boolean): boolean =>
  isMainFrame && frameUrl !== undefined && isAppUrl(frameUrl);

type Event = { preventDefault(): void };
type SecurableContents = {
  on(event: "will-navigate" | "will-redirect", listener: (event: Event, url: string) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenDecision): void;
  session: {
    setPermissionRequestHandler(
      handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
    ): void;
  };
};

/** Applies the policy to a window's contents: navigation, redirects, new windows, permissions. */
export const secureContents = (contents: SecurableContents, openExternal: (url: string) => void): void => {
  const guard = (event: Event, url: string) => {
    if (!decideNavigation(url, openExternal).allow) event.preventDefault();
  };
  contents.on("will-navigate", guard);
  contents.on("will-redirect", guard);
  contents.setWindowOpenHandler(({ url }) => decideWindowOpen(url, openExternal));
  // Camera, notifications, geolocation…: the app asks for none of them.
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
};
