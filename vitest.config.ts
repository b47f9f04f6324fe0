import { defineConfig } from "vitest/config";

const exclude = ["**/node_modules/**", "**/generated/**", ".tmp/**"];

// Four projects: fast unit tests (no database), integration tests (a real database: PGlite by
// default, PostgreSQL when DATABASE_URL is set), several instances behind nginx, and browser tests.
// graphql ships CommonJS and ESM builds; Node loads the CommonJS one for yoga and graphql-ws, so our
// code must too (two copies of graphql refuse each other's types: "from another module or realm").
const resolve = { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] };

export default defineConfig({
  resolve,
  test: {
    // Two cores on our machines: two workers keep integration files from starving each other.
    maxWorkers: 2,
    projects: [
      {
        resolve,
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: [...exclude, "**/*.int.test.ts", "**/*.resilience.test.ts"],
        },
      },
      {
        resolve,
        test: {
          name: "integration",
          include: ["packages/*/src/**/*.int.test.ts", "apps/*/src/**/*.int.test.ts"],
          exclude,
          globalSetup: ["packages/db/src/testing/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve,
        test: {
          // Several built server processes behind nginx on PostgreSQL (DATABASE_URL) and Redis:
          // `npm run test:resilience`, which `.ci/run` calls; skipped without PostgreSQL.
          name: "resilience",
          include: ["apps/server/src/resilience/**/*.resilience.test.ts"],
          exclude,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve,
        test: {
          name: "e2e",
          include: ["e2e/**/*.spec.ts"],
          exclude,
          // Real server processes on a fresh embedded database: generous under a loaded CI machine.
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // A screen's answer can take seconds on a loaded machine; vitest's 1 s default failed
          // waits on a confirmed posting in CI. A poll waits on the state, so only a failure is slower.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
