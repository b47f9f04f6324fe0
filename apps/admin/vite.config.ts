import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { ADMIN_CHUNKS, WORKSPACE_SOURCES } from "./vite.chunks";

// The admin screens: served by the server under /admin (apps/server/src/transports/rest/web-apps.routes.ts).
export default defineConfig({
  root: "src",
  base: "/admin/",
  // The icon both apps share (packages/ui/public), copied beside index.html.
  publicDir: "../../../packages/ui/public",
  plugins: [react()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    // The largest vendor chunk (Ant Design) is ~1 MB before gzip; anything past that is a regression.
    chunkSizeWarningLimit: 1100,
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: ADMIN_CHUNKS },
      // Our packages' modules only declare things (schemas, messages, helpers): one the admin does
      // not use stays out of its bundle (the shared UI package's tRPC client, say).
      treeshake: { moduleSideEffects: [{ test: WORKSPACE_SOURCES, sideEffects: false }] },
    },
  },
});
