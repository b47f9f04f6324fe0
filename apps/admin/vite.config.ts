import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The admin screens: served by the server under /admin (apps/server/src/routes/web-apps.routes.ts).
export default defineConfig({
  root: "src",
  base: "/admin/",
  plugins: [react()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    chunkSizeWarningLimit: 3000,
  },
});
