import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./server-process";

// The desktop package: electron-builder's configuration for Linux, Windows and macOS, and a real
// `npm run desktop:package` (electron-vite's build, electron-builder's Linux `dir` target and its asar).
// Electron's binary cannot be downloaded here, so ELECTRON_DIST names a folder holding a stand-in
// `electron` executable: electron-builder only copies and renames it; everything it packs of ours is real.

const require = createRequire(import.meta.url);
const APP_DIR = path.join(ROOT, "apps/accountant");
const config = JSON.parse(readFileSync(path.join(APP_DIR, "electron-builder.json"), "utf8"));
const appPackage = JSON.parse(readFileSync(path.join(APP_DIR, "package.json"), "utf8"));

const pngSize = (file: string) => {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
};

const packageScript = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [path.join(APP_DIR, "scripts/desktop-package.mjs")], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: 400_000,
  });

describe("the desktop package", () => {
  const electronDist = mkdtempSync(path.join(tmpdir(), "hisob-electron-dist-"));
  afterAll(() => rmSync(electronDist, { recursive: true, force: true }));

  it("is configured for Linux (AppImage, deb), Windows (nsis) and macOS (dmg) with the app's name, id and icon", () => {
    expect(config.appId).toBe("uz.hisob.accountant");
    expect(config.productName).toBe("Hisob");
    expect(config.linux.target).toEqual(["AppImage", "deb"]);
    expect(config.win.target).toEqual(["nsis"]);
    expect(config.mac.target).toEqual(["dmg"]);
    // The version is the app's own (electron-builder reads package.json); no other is set here.
    expect(appPackage.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(config.extraMetadata.version).toBeUndefined();
    for (const platform of ["linux", "win", "mac"]) {
      // macOS needs at least 512×512 to make its icns; Windows' ico is made from the same file.
      expect(pngSize(path.join(APP_DIR, config[platform].icon))).toEqual({ width: 512, height: 512 });
    }
    // Pinned: 26.17.0 installs and runs on Node 20 (docs/decisions/0053-node-20-floor-and-pins-that-keep-it.md).
    expect(appPackage.devDependencies["electron-builder"]).toBe("26.17.0");
    expect(appPackage.dependencies["electron-builder"]).toBeUndefined();
  });

  it("says in one line what it needs when no unpacked Electron is given", () => {
    const env = { ...process.env };
    delete env.ELECTRON_DIST;
    const result = packageScript(env);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("ELECTRON_DIST");
  });

  it("packs main, preload and the renderer, and nothing else: no node_modules, maps, server code or .env", () => {
    writeFileSync(path.join(electronDist, "electron"), "#!/bin/sh\necho stand-in for Electron\n");
    chmodSync(path.join(electronDist, "electron"), 0o755);
    mkdirSync(path.join(electronDist, "resources"), { recursive: true });
    const result = packageScript({ ...process.env, ELECTRON_DIST: electronDist });
    expect(result.status, result.stderr).toBe(0);
    const unpacked = path.join(APP_DIR, "dist/desktop/linux-unpacked");
    const asar = require("@electron/asar") as { listPackage(file: string): string[] };
    const files = asar.listPackage(path.join(unpacked, "resources/app.asar"));
    console.log(`desktop package: ${files.length} entries in app.asar`);
    expect(files).toEqual(
      expect.arrayContaining([
        "/package.json",
        "/dist/electron/main/index.js",
        "/dist/electron/preload/index.cjs",
        "/dist/electron/renderer/index.html",
      ]),
    );
    expect(files.some((file) => /^\/dist\/electron\/renderer\/assets\/.+\.js$/.test(file))).toBe(true);
    for (const file of files) {
      expect(file).toMatch(/^\/(package\.json|dist(\/electron(\/(main|preload|renderer)(\/.*)?)?)?)$/);
      expect(file).not.toMatch(/node_modules|\.map$|\/\.env|\/src\/|apps\/server|prisma/);
    }
    // The executable has the app's name; the packed package.json names the bundled entry and the version.
    expect(readFileSync(path.join(unpacked, "hisob"), "utf8")).toContain("stand-in");
    const packed = JSON.parse(
      (require("@electron/asar") as { extractFile(a: string, f: string): Buffer })
        .extractFile(path.join(unpacked, "resources/app.asar"), "package.json")
        .toString("utf8"),
    );
    expect(packed.main).toBe("dist/electron/main/index.js");
    expect(packed.version).toBe(appPackage.version);
    // The main bundle imports only Electron and Node itself: nothing it needs is left outside the asar.
    const main = readFileSync(path.join(APP_DIR, "dist/electron/main/index.js"), "utf8");
    const imports = [...main.matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
    expect(imports.filter((name) => name !== "electron" && !name?.startsWith("node:"))).toEqual([]);
  }, 420_000);
});
