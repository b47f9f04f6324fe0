import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

// The whole main process started against a mocked Electron: which window it opens, with what.
const created: { options: Record<string, unknown>; url?: string }[] = [];
const handled = new Map<string, (request: Request) => Promise<Response>>();
const ipc = new Map<string, unknown>();
const privileged: unknown[] = [];
const contents = {
  on: vi.fn(),
  setWindowOpenHandler: vi.fn(),
  session: { setPermissionRequestHandler: vi.fn() },
};

vi.mock("electron", () => ({
  app: {
    whenReady: async () => undefined,
    on: vi.fn(),
    getPath: () => mkdtempSync(path.join(tmpdir(), "hisob-electron-")),
    getVersion: () => "0.1.0",
  },
  BrowserWindow: class {
    static getAllWindows = () => [];
    webContents = contents;
    entry: { options: Record<string, unknown>; url?: string };
    constructor(options: Record<string, unknown>) {
      this.entry = { options };
      created.push(this.entry);
    }
    once() {}
    async loadURL(url: string) {
      this.entry.url = url;
    }
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: unknown[]) => privileged.push(...schemes),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
      handled.set(scheme, handler),
  },
  ipcMain: { handle: (channel: string, listener: unknown) => ipc.set(channel, listener) },
  safeStorage: {
    isEncryptionAvailable: () => false,
    encryptString: () => Buffer.alloc(0),
    decryptString: () => "",
  },
  session: { defaultSession: { webRequest: { onHeadersReceived: vi.fn() } } },
  shell: { openExternal: vi.fn() },
  dialog: {},
}));

describe("the Electron main process", () => {
  it("opens one locked-down window on app://hisob with the bridge's preload", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await import("./index");
    await vi.waitFor(() => expect(created).toHaveLength(1));
    const window = created[0];
    expect(window?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(String((window?.options.webPreferences as { preload: string }).preload)).toMatch(
      /preload\/index\.cjs$/,
    );
    expect(window?.url).toBe("app://hisob/app/");
    expect(privileged).toEqual([expect.objectContaining({ scheme: "app" })]);
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(contents.session.setPermissionRequestHandler).toHaveBeenCalled();
    expect([...ipc.keys()].sort()).toEqual([
      "hisob:accessToken",
      "hisob:appVersion",
      "hisob:forgetSession",
      "hisob:openExternal",
      "hisob:printToPdf",
      "hisob:restoreSession",
      "hisob:saveFile",
      "hisob:serverUrl",
      "hisob:signIn",
      "hisob:signOut",
    ]);
  });

  it("serves the renderer with the CSP and never a file outside it", async () => {
    const serve = handled.get("app");
    if (!serve) throw new Error("no app: handler");
    const escaped = await serve(new Request("app://hisob/app/../../../../etc/passwd"));
    expect(await escaped.text()).not.toContain("root:");
    const page = await serve(new Request("app://hisob/app/accounts"));
    // Without a build here the page is a 404; with one, index.html with the CSP.
    if (page.status === 200)
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    else expect(page.status).toBe(404);
  });
});
