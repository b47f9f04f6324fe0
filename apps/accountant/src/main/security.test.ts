import { describe, expect, it, vi } from "vitest";
import {
  contentSecurityPolicy,
  decideNavigation,
  decideWindowOpen,
  isAppUrl,
  isTrustedSender,
  secureContents,
} from "./security";

describe("the window's policy", () => {
  it("a strict CSP: own scripts only, network only to the configured server", () => {
    const csp = contentSecurityPolicy("https://hisob.example:8443/");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("connect-src 'self' https://hisob.example:8443 wss://hisob.example:8443");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("navigation stays inside app://hisob; web links go to the system browser; other schemes go nowhere", () => {
    const opened: string[] = [];
    const open = (url: string) => opened.push(url);
    expect(decideNavigation("app://hisob/app/accounts", open).allow).toBe(true);
    for (const url of [
      "https://evil.example/",
      "http://localhost:3000/login",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "app://other/app/",
      "not a url",
    ]) {
      expect(decideNavigation(url, open).allow).toBe(false);
    }
    expect(opened).toEqual(["https://evil.example/", "http://localhost:3000/login"]);
    expect(isAppUrl("app://hisob.evil/")).toBe(false);
  });

  it("never opens a new window (target=_blank, window.open): web links go to the system browser", () => {
    const opened: string[] = [];
    expect(decideWindowOpen("https://docs.example/help", (url) => opened.push(url))).toEqual({
      action: "deny",
    });
    expect(decideWindowOpen("app://hisob/app/", (url) => opened.push(url))).toEqual({ action: "deny" });
    expect(decideWindowOpen("file:///tmp/x", (url) => opened.push(url))).toEqual({ action: "deny" });
    expect(opened).toEqual(["https://docs.example/help"]);
  });

  it("only the app's own top frame is a trusted IPC sender", () => {
    expect(isTrustedSender("app://hisob/app/", true)).toBe(true);
    expect(isTrustedSender("app://hisob/app/", false)).toBe(false);
    expect(isTrustedSender("https://evil.example/", true)).toBe(false);
    expect(isTrustedSender(undefined, true)).toBe(false);
  });

  it("wires the policy to a window: navigations and redirects refused, windows denied, permissions refused", () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((details: { url: string }) => unknown) | undefined;
    let permissionHandler:
      | ((contents: unknown, permission: string, callback: (ok: boolean) => void) => void)
      | undefined;
    const contents = {
      on: (event: string, listener: (event: { preventDefault(): void }, url: string) => void) =>
        listeners.set(event, listener),
      setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => {
        openHandler = handler;
      },
      session: {
        setPermissionRequestHandler: (handler: typeof permissionHandler) => {
          permissionHandler = handler;
        },
      },
    };
    const openExternal = vi.fn();
    secureContents(contents as never, openExternal);
    for (const event of ["will-navigate", "will-redirect"]) {
      const preventDefault = vi.fn();
      listeners.get(event)?.({ preventDefault }, "https://evil.example/");
      expect(preventDefault).toHaveBeenCalled();
      const allowed = vi.fn();
      listeners.get(event)?.({ preventDefault: allowed }, "app://hisob/app/payments");
      expect(allowed).not.toHaveBeenCalled();
    }
    expect(openHandler?.({ url: "https://x.example/" })).toEqual({ action: "deny" });
    const granted = vi.fn();
    permissionHandler?.(null, "geolocation", granted);
    expect(granted).toHaveBeenCalledWith(false);
  });
});
