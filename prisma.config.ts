import { defineConfig } from "prisma/config";

// Used by `prisma generate` (run on postinstall). Migrations are applied by our own
// runner (packages/db/src/migrate.ts) and authored by scripts/db-migration-new.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
