import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDesktopAuth, type DesktopAuth } from "../apps/accountant/src/main/auth";
import { type IpcHandlers, registerIpc } from "../apps/accountant/src/main/ipc";
import { createTokenStore, type SafeStorageLike } from "../apps/accountant/src/main/token-store";
import { en as appEn } from "../apps/accountant/src/renderer/locales/en";
import { en } from "../packages/i18n/src/locales/en";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, serverEnv, startServer } from "./server-process";

// The renderer against the Electron bridge, without Electron's binary (it cannot be downloaded here):
// the page's window.hisob calls the real main-process code (IPC validation, the loopback + PKCE
// sign-in, the token store) running in this Node process through Playwright's exposeBinding. The
// "system browser" the sign-in opens is a second, separate browser context. The renderer is served
// by the server at /app, so the bridge treats that page's top frame as the app's own (app://hisob).

/** safeStorage as a real keystore would behave: what reaches the disk is not the token. */
const keystore: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => "gnome_libsecret",
  encryptString: (plain) => Buffer.from(Buffer.from(plain, "utf8").map((byte) => byte ^ 0x5a)),
  decryptString: (data) => Buffer.from(data.map((byte) => byte ^ 0x5a)).toString("utf8"),
};

const skipReason = browserSkipReason();
if (skipReason) console.warn(`desktop-bridge.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)(
  "the renderer over the Electron bridge (main-process handlers in Node)",
  () => {
    let dataDir = "";
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    let browser: Browser | undefined;
    let systemBrowser: BrowserContext;
    let tokenFile = "";
    const email = "desk@firm.uz";
    const password = "Desk-Passw0rd-2026";

    /** The system browser: opens the authorize URL and signs in on the real login page if asked. */
    const systemBrowserOpens = async (url: string) => {
      const page = await systemBrowser.newPage();
      await page.goto(url);
      // Asked to sign in (the authorize request's own login page), not the page after a sign-out.
      if (new URL(page.url()).pathname === "/login" && new URL(page.url()).searchParams.has("next")) {
        await page.getByLabel(en.login.email, { exact: true }).fill(email);
        await page.getByLabel(en.login.password, { exact: true }).fill(password);
        await page.getByLabel(en.login.password, { exact: true }).press("Enter");
      }
      await page.waitForURL(/127\.0\.0\.1:\d+\/callback|\/login/);
      await page.close();
    };

    const newAuth = (openExternal = systemBrowserOpens): DesktopAuth => {
      if (!server) throw new Error("no server");
      return createDesktopAuth({
        serverUrl: server.base,
        store: createTokenStore(keystore, tokenFile, "linux"),
        openExternal,
      });
    };

    /** A page whose window.hisob is the preload's shape, each call going through registerIpc's checks. */
    const openApp = async (auth: DesktopAuth): Promise<Page> => {
      if (!browser || !server) throw new Error("not started");
      const base = server.base;
      const listeners = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
      const handlers: IpcHandlers = {
        "hisob:appVersion": async () => "0.1.0",
        "hisob:serverUrl": async () => base,
        "hisob:restoreSession": () => auth.restoreSession(),
        "hisob:signIn": () => auth.signIn(),
        "hisob:accessToken": () => auth.accessToken(),
        "hisob:signOut": () => auth.signOut(),
        "hisob:forgetSession": () => auth.forgetSession(),
        "hisob:openExternal": async () => undefined,
        "hisob:saveFile": async () => false,
        "hisob:printToPdf": async () => false,
      };
      registerIpc({ handle: (channel, listener) => listeners.set(channel, listener as never) }, handlers);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.exposeBinding(
        "__hisobInvoke",
        async ({ frame }: { frame: Frame }, channel: string, args: unknown[]) => {
          const listener = listeners.get(channel);
          if (!listener) throw new Error(`${channel} refused: unknown channel`);
          const url = frame.url().startsWith(`${base}/app/`)
            ? frame.url().replace(base, "app://hisob")
            : frame.url();
          return listener({ senderFrame: { url, parent: frame.parentFrame() } }, ...args);
        },
      );
      await context.addInitScript(() => {
        const invoke = (window as unknown as { __hisobInvoke: (c: string, a: unknown[]) => Promise<unknown> })
          .__hisobInvoke;
        const call =
          (channel: string) =>
          (...args: unknown[]) =>
            invoke(`hisob:${channel}`, args);
        (window as unknown as { hisob: unknown }).hisob = {
          host: "electron",
          appVersion: call("appVersion"),
          serverUrl: call("serverUrl"),
          restoreSession: call("restoreSession"),
          signIn: call("signIn"),
          accessToken: call("accessToken"),
          signOut: call("signOut"),
          forgetSession: call("forgetSession"),
          openExternal: call("openExternal"),
          saveFile: call("saveFile"),
          printToPdf: call("printToPdf"),
        };
      });
      const page = await context.newPage();
      await page.goto(`${base}/app/`);
      return page;
    };

    beforeAll(async () => {
      requireChromium();
      dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-desktop-"));
      tokenFile = path.join(dataDir, "refresh-token.bin");
      const env = serverEnv(dataDir, await freePort());
      env.ADMIN_EMAIL = email;
      env.ADMIN_PASSWORD = password;
      const launching = launchChromium();
      launching.catch(() => undefined);
      server = await startServer(env);
      // Books with an account: the app opens on its dashboard (an empty one opens on the setup).
      const login = await fetch(`${server.base}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const account = await fetch(`${server.base}/finance/accounts`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ name: "Kassa", currency: "UZS" }),
      });
      expect(account.status).toBe(201);
      browser = await launching;
      systemBrowser = await browser.newContext();
    }, 150_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("signs in through the system browser and a loopback listener (PKCE), then shows the dashboard", async () => {
      const page = await openApp(newAuth());
      await page.getByRole("heading", { name: appEn.dashboard.title }).waitFor({ timeout: 60_000 });
      // The refresh token is on disk only encrypted.
      const stored = readFileSync(tokenFile);
      expect(stored.length).toBeGreaterThan(0);
      expect(keystore.decryptString(stored)).not.toBe(stored.toString("utf8"));
      await page.context().close();
    });

    it("a restart resumes the session from the stored refresh token (a refresh grant), no sign-in", async () => {
      let opened = 0;
      const auth = newAuth(async () => {
        opened += 1;
      });
      const page = await openApp(auth);
      await page.getByRole("heading", { name: appEn.dashboard.title }).waitFor();
      expect(opened).toBe(0);
      const token = await auth.accessToken();
      const me = await fetch(`${server?.base}/trpc/session.me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
      await page.context().close();
    });

    it("refuses IPC calls with invalid arguments and calls from a child frame", async () => {
      const page = await openApp(newAuth());
      await page.getByRole("heading", { name: appEn.dashboard.title }).waitFor();
      const refusal = (channel: string, args: unknown[]) =>
        page.evaluate(
          ([c, a]) =>
            (window as unknown as { __hisobInvoke: (c: string, a: unknown[]) => Promise<unknown> })
              .__hisobInvoke(c as string, a as unknown[])
              .then(
                () => "accepted",
                (error: Error) => error.message,
              ),
          [channel, args] as const,
        );
      expect(await refusal("hisob:openExternal", ["javascript:alert(1)"])).toMatch(
        /refused: invalid arguments/,
      );
      expect(await refusal("hisob:accessToken", ["extra"])).toMatch(/refused: invalid arguments/);
      expect(await refusal("hisob:readFile", ["/etc/passwd"])).toMatch(/refused: unknown channel/);
      expect(await refusal("hisob:openExternal", ["https://hisob.uz/"])).toBe("accepted");
      // A frame inside the app is not the app: its calls are refused.
      const attached = page.waitForEvent("frameattached");
      await page.evaluate(() => {
        const frame = document.createElement("iframe");
        frame.srcdoc = "<p>child</p>";
        document.body.append(frame);
      });
      const child = await attached;
      await child.waitForLoadState();
      const fromChild = await child.evaluate(() =>
        (window as unknown as { __hisobInvoke: (c: string, a: unknown[]) => Promise<unknown> })
          .__hisobInvoke("hisob:accessToken", [])
          .then(
            () => "accepted",
            (error: Error) => error.message,
          ),
      );
      expect(fromChild).toMatch(/untrusted sender/);
      await page.context().close();
    });

    it("refuses a callback whose state is not the one it sent", async () => {
      const auth = newAuth(async (authorizeUrl) => {
        // An attacker's (or a stale) response reaches the loopback listener with another state.
        const redirect = new URL(authorizeUrl).searchParams.get("redirect_uri");
        await fetch(`${redirect}?code=stolen-code&state=not-the-state-we-sent`);
      });
      await expect(auth.signIn()).rejects.toThrow(/state/i);
    });

    it("sign-out revokes the tokens: the old access token gets 401, the stored refresh token is gone", async () => {
      const auth = newAuth();
      expect(await auth.restoreSession()).not.toBeNull();
      const token = await auth.accessToken();
      await auth.signOut();
      const after = await fetch(`${server?.base}/trpc/session.me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(after.status).toBe(401);
      expect(await newAuth().restoreSession()).toBeNull();
    });
  },
);
