import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { RENDERER_CHUNKS } from "./vite.chunks";

// The renderer for browsers: served by the server under /app (apps/server/src/transports/rest/web-apps.routes.ts).
export default defineConfig({
  root: "src/renderer",
  base: "/app/",
  // The icon both apps share (packages/ui/public), copied beside index.html.
  publicDir: "../../../../packages/ui/public",
  plugins: [react()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    // The largest vendor chunk (Ant Design) is ~1 MB before gzip; anything past that is a regression.
    chunkSizeWarningLimit: 1100,
    manifest: true,
    rolldownOptions: { output: { codeSplitting: RENDERER_CHUNKS } },
  },
});
