import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/*
 * Two builds of one app measured in the same run, rounds taking turns (decision 0105): on a shared
 * machine two separate runs differ by more than the change being measured. `env` names the builds,
 * e.g. APP_BUILDS="main=/tmp/main-app,branch=apps/accountant/dist/web" (each a `vite build` output).
 * Every build's assets are copied into the served directory (their names carry a content hash, so
 * they never collide), and before each build's turn its index.html becomes the served one: the server
 * reads index.html and assets from disk on each request, and the browser caches each build's assets
 * under their own names. Without the variable: one variant, the served build as it is.
 */
export type BuildVariant = { name: string; use: () => void };

export const buildVariants = (
  envName: string,
  servedDir: string,
): {
  variants: BuildVariant[];
  restore: () => void;
} => {
  const spec = process.env[envName];
  const served = path.resolve(servedDir);
  const index = path.join(served, "index.html");
  if (!spec) return { variants: [{ name: "this build", use: () => undefined }], restore: () => undefined };
  const original = readFileSync(index);
  const variants = spec.split(",").map((entry) => {
    const [name = "", dir = ""] = entry.split("=");
    const from = path.resolve(dir);
    if (from !== served)
      cpSync(path.join(from, "assets"), path.join(served, "assets"), { force: false, recursive: true });
    const html = readFileSync(path.join(from, "index.html"));
    return { name, use: () => writeFileSync(index, html) };
  });
  return {
    variants,
    restore: () => writeFileSync(index, original),
  };
};
