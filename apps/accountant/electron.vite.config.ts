import react from "@vitejs/plugin-react";
import { defineConfig } from "electron-vite";
import { RENDERER_CHUNKS } from "./vite.chunks";

// The desktop build (`npm run build:desktop -w @hisob/accountant`): main, the sandboxed preload (one
// CommonJS file that only requires "electron"), and the same renderer the server serves at /app.
export default defineConfig({
  main: {
    build: {
      outDir: "dist/electron/main",
      rollupOptions: { input: "src/main/index.ts" },
      // Bundled, so the desktop package carries no node_modules (electron-builder.json excludes them).
      externalizeDeps: { exclude: ["oauth4webapi", "zod"] },
    },
  },
  preload: {
    build: {
      outDir: "dist/electron/preload",
      rollupOptions: {
        input: "src/preload/index.ts",
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: {
    root: "src/renderer",
    base: "/app/",
    publicDir: "../../../../packages/ui/public",
    plugins: [react()],
    build: {
      outDir: "dist/electron/renderer",
      rollupOptions: { input: "src/renderer/index.html" },
      rolldownOptions: { output: { codeSplitting: RENDERER_CHUNKS } },
    },
  },
});
