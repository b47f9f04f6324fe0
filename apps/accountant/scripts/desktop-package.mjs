// `npm run desktop:package`: the desktop app as electron-builder packs it (electron-builder.json), the
// Linux `dir` target, from an unpacked Electron given in ELECTRON_DIST: Electron's binary comes from
// GitHub, which some machines cannot reach, so it is never downloaded here. Without it, one line says
// what is needed. The installers (AppImage, deb, nsis, dmg) are built on a machine that reaches GitHub
// with `npx electron-builder --config electron-builder.json` in apps/accountant.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const here = path.resolve(import.meta.dirname, "..");
const electronVersion = JSON.parse(readFileSync(require.resolve("electron/package.json"), "utf8")).version;
const dist = process.env.ELECTRON_DIST ? path.resolve(process.env.ELECTRON_DIST) : "";
if (!dist || !existsSync(path.join(dist, "electron"))) {
  console.error(
    `hisob: desktop:package needs an unpacked Electron ${electronVersion} for Linux: set ELECTRON_DIST to the folder holding its "electron" binary (electron-v${electronVersion}-linux-x64.zip from Electron's releases, unzipped)${dist ? `; ${dist} has none` : ""}.`,
  );
  process.exit(1);
}
/** A package's command-line script, found from its folder (its "exports" may not list it). */
const bin = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
const run = (script, args) => {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: here, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run(bin("electron-vite", "bin/electron-vite.js"), ["build"]);
run(bin("electron-builder", "cli.js"), [
  "--linux",
  "dir",
  "--config",
  "electron-builder.json",
  `-c.electronDist=${dist}`,
  `-c.electronVersion=${electronVersion}`,
  "--publish",
  "never",
]);
console.log(`hisob: packed into ${path.join(here, "dist/desktop/linux-unpacked")}`);
