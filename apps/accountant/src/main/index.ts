import { readFile } from "node:fs/promises";
import path from "node:path";
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from "electron";
import { createDesktopAuth } from "./auth";
import { registerIpc } from "./ipc";
import { saveAsPdf } from "./print-pdf";
import { APP_ORIGIN, contentSecurityPolicy, isExternalWebUrl, secureContents } from "./security";
import { createTokenStore } from "./token-store";

/*
 * The Electron main process: one window showing the renderer from app://hisob (a privileged scheme,
 * not file://, so requests carry a real Origin), locked down (context isolation, sandbox, no Node in
 * the page, strict CSP, no navigation or new windows away from the app), and the bridge over IPC.
 * The server is HISOB_SERVER_URL, default http://localhost:3000.
 */

const SERVER_URL = (process.env.HISOB_SERVER_URL ?? "http://localhost:3000").replace(/\/+$/, "");
const RENDERER_DIR = path.join(import.meta.dirname, "../renderer");

protocol.registerSchemesAsPrivileged([
  { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};

/** app://hisob/<path>: a file of the renderer build, or index.html for the app's own routes. */
const serveRenderer = async (request: Request): Promise<Response> => {
  const { pathname } = new URL(request.url);
  const relative = decodeURIComponent(pathname).replace(/^\/app\//, "/");
  const file = path.resolve(RENDERER_DIR, `.${relative}`);
  const inside = file.startsWith(`${RENDERER_DIR}${path.sep}`);
  const chosen = inside && path.extname(file) ? file : path.join(RENDERER_DIR, "index.html");
  try {
    const body = await readFile(chosen);
    return new Response(body, {
      headers: {
        "content-type": TYPES[path.extname(chosen)] ?? "application/octet-stream",
        "content-security-policy": contentSecurityPolicy(SERVER_URL),
      },
    });
  } catch {
    return new Response("Not found", { status: 404 });
  }
};

const openExternal = async (url: string) => {
  if (isExternalWebUrl(url)) await shell.openExternal(url);
};

const createWindow = () => {
  const window = new BrowserWindow({
    width: 1366,
    height: 860,
    minWidth: 1280,
    minHeight: 720,
    show: false,
    webPreferences: {
      preload: path.join(import.meta.dirname, "../preload/index.cjs"),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  secureContents(window.webContents, (url) => void openExternal(url));
  window.once("ready-to-show", () => window.show());
  void window.loadURL(`${APP_ORIGIN}/app/`);
  return window;
};

const start = async () => {
  await app.whenReady();
  protocol.handle("app", serveRenderer);
  // Every page of every window gets the CSP, including responses we did not serve ourselves.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        ...(details.url.startsWith(APP_ORIGIN)
          ? { "content-security-policy": [contentSecurityPolicy(SERVER_URL)] }
          : {}),
      },
    });
  });
  const store = createTokenStore(safeStorage, path.join(app.getPath("userData"), "refresh-token.bin"));
  const reason = store.unavailableReason();
  if (reason) console.warn(`hisob: the sign-in is not kept between starts: ${reason}`);
  const auth = createDesktopAuth({ serverUrl: SERVER_URL, store, openExternal });
  registerIpc(ipcMain, {
    "hisob:appVersion": async () => app.getVersion(),
    "hisob:serverUrl": async () => SERVER_URL,
    "hisob:restoreSession": () => auth.restoreSession(),
    "hisob:signIn": () => auth.signIn(),
    "hisob:accessToken": () => auth.accessToken(),
    "hisob:signOut": async () => {
      await auth.signOut();
      for (const window of BrowserWindow.getAllWindows()) window.reload();
    },
    "hisob:forgetSession": () => auth.forgetSession(),
    "hisob:openExternal": (url) => openExternal(url),
    "hisob:saveFile": async (name, bytes) => {
      const target = await dialog.showSaveDialog({ defaultPath: name });
      if (target.canceled || !target.filePath) return false;
      const { writeFile } = await import("node:fs/promises");
      await writeFile(target.filePath, bytes);
      return true;
    },
    "hisob:printToPdf": async (name) =>
      saveAsPdf(name, {
        window: BrowserWindow.getFocusedWindow(),
        choosePath: async (defaultPath) => {
          const target = await dialog.showSaveDialog({
            defaultPath,
            filters: [{ name: "PDF", extensions: ["pdf"] }],
          });
          return target.canceled || !target.filePath ? null : target.filePath;
        },
        writeFile: async (filePath, bytes) => {
          const { writeFile } = await import("node:fs/promises");
          await writeFile(filePath, bytes);
        },
      }),
  });
  createWindow();
  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
};

app.on("window-all-closed", () => {
  if (process.platform !== "darwin") app.quit();
});

void start();
