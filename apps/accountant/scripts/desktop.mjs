// `npm run desktop`: builds the Electron app and starts it when Electron's binary is installed;
// otherwise says in one line how to get it (it is downloaded from GitHub, which some machines cannot reach).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const here = path.resolve(import.meta.dirname, "..");
const electronDir = path.dirname(require.resolve("electron/package.json"));
const pathFile = path.join(electronDir, "path.txt");
const binary = existsSync(pathFile)
  ? path.join(electronDir, "dist", readFileSync(pathFile, "utf8").trim())
  : null;
if (!binary || !existsSync(binary)) {
  console.error(
    `hisob: Electron's binary is not installed; on a machine that can reach GitHub run "node ${path.relative(process.cwd(), path.join(electronDir, "install.js"))}", then "npm run desktop" again (the same app runs in a browser at http://localhost:3000/app).`,
  );
  process.exit(1);
}
const build = spawnSync(process.execPath, [require.resolve("electron-vite/bin/electron-vite.js"), "build"], {
  cwd: here,
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(binary, [here], { stdio: "inherit", env: process.env });
process.exit(run.status ?? 0);
