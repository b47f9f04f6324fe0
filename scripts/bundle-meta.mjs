// Bundled into apps/server/dist/main.mjs by scripts/build-server.mjs: `import.meta.url` here is the
// bundle's own URL, so a source file's `import.meta.dirname`/`filename`/`url` is rebuilt from its path
// relative to the bundle (kept relative so the checkout can move after the build).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const bundleDir = path.dirname(fileURLToPath(import.meta.url));
export const filename = (relative) => path.resolve(bundleDir, relative);
export const dirname = (relative) => path.dirname(filename(relative));
export const url = (relative) => pathToFileURL(filename(relative)).href;
