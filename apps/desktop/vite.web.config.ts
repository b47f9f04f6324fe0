import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The renderer for browsers: served by the server under /app (apps/server/src/routes/web-apps.routes.ts).
export default defineConfig({
  root: "src/renderer",
  base: "/app/",
  plugins: [react()],
  build: {
    outDir: "../../dist/web",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
});
