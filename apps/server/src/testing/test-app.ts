import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type CoreServiceDeps,
  createUploadStorage,
  syncPermissions,
  type UploadStorageConfig,
} from "@hisob/core";
import { type SeededUser, seedTenant, seedUser, TEST_PASSWORD } from "@hisob/core/testing";
import { createOutbox, type Db, type Outbox } from "@hisob/db";
import { createTestDb } from "@hisob/db/testing";
import type { Clock, Permission } from "@hisob/kernel";
import type { OidcProvider } from "@hisob/oidc";
import type { App } from "../app";
import { composeServices } from "../app-context";
import type { AppServices } from "../app-services";
import { loadEnv, resolveDevCryptoKey } from "../env";
import { buildServer, type ServerDeps } from "../server";

/**
 * An in-process server on a fresh test database (PGlite, or PostgreSQL with DATABASE_URL), with
 * seed helpers. Call routes with `app.inject()`; authenticate with the headers a seeded user gets.
 * The tenants and users are the shared test kit's (@hisob/core/testing), which the tests beside the
 * features use without a server (docs/decisions/0091-tests-beside-their-features.md).
 */
export type TestApp = {
  app: App;
  db: Db;
  outbox: Outbox;
  services: AppServices;
  oidc: OidcProvider;
  /** The temporary storage directory of this app's uploads (when they go to the local disk). */
  uploadsDir: string;
  close(): Promise<void>;
  /** A new tenant with its admin role (`platform: true` → the platform tenant, whose admins manage tenants). */
  createTenant(name?: string, options?: { platform?: boolean }): Promise<{ id: string; adminRoleId: string }>;
  /**
   * A user in `tenantId` holding exactly `permissions` (through a role of its own), signed in.
   * `headers` authenticate as a bearer session token; `cookie` is the same session as a cookie.
   */
  createUser(
    tenantId: string,
    permissions: readonly Permission[] | "admin",
    options?: { email?: string; password?: string },
  ): Promise<SeededUser>;
};

export type { SeededUser };

/** The issuer the test app believes it is served at. */
export const ISSUER = "http://localhost:3000";

export { TEST_PASSWORD };

export const createTestApp = async (
  options: {
    clock?: Clock;
    services?: Partial<Omit<CoreServiceDeps, "uploadStorage">>;
    /** Where uploads go (default: a temporary folder on the local disk, `uploadsDir`). */
    uploads?: UploadStorageConfig;
    /** Extra environment variables (e.g. OIDC_ALLOWED_ORIGINS, OIDC_RATE_LIMIT_ENABLED). */
    env?: Record<string, string>;
    /** PostgreSQL connection pool size (default 4); concurrency tests ask for more. */
    poolSize?: number;
    /** Hears every SQL statement (tests count them). */
    onQuery?: (sql: string) => void;
    /** PostgreSQL only: rewrites the database URL (a test routes the connections through its own proxy). */
    connectVia?: (url: string) => string;
    /**
     * Serve an existing database (a second instance beside another test app); it is left open on close.
     * The instance still has its own outbox, services, pub/sub and rate-limit counters.
     */
    db?: Db;
    /** GraphQL test hooks (lower limits, extra modules, the pub/sub). */
    graphql?: ServerDeps["graphql"];
    /** The server's drain state (the shutdown tests start it). */
    drain?: ServerDeps["drain"];
    /** Runs before the app is ready: a test adds routes of its own. */
    beforeReady?: (app: App) => void;
  } = {},
): Promise<TestApp> => {
  const db =
    options.db ??
    (await createTestDb({
      ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      ...(options.onQuery ? { onQuery: options.onQuery } : {}),
      ...(options.connectVia ? { connectVia: options.connectVia } : {}),
    }));
  // As the server's: it runs every handler, so it settles events no handler subscribes to.
  const outbox = createOutbox(db, { unhandled: "settle" });
  await syncPermissions(db);
  const uploadsDir = mkdtempSync(path.join(tmpdir(), "hisob-uploads-"));
  const env = resolveDevCryptoKey(
    loadEnv({
      NODE_ENV: "test",
      OIDC_ISSUER_URL: ISSUER,
      OIDC_CRYPTO_KEY: "t".repeat(40),
      // Whole suites share one app and one IP; the rate-limit tests opt in.
      OIDC_RATE_LIMIT_ENABLED: "false",
      API_RATE_LIMIT: "0",
      ...options.env,
    }),
  );
  const { services, oidc } = composeServices(db, outbox, env, {
    uploadStorage: createUploadStorage(options.uploads ?? { driver: "local", dir: uploadsDir }, db),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.services ? { core: options.services } : {}),
  });
  await oidc.start();
  const app = await buildServer({
    env,
    db,
    services,
    oidc,
    logger: false,
    events: outbox,
    ...(options.graphql ? { graphql: options.graphql } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.drain ? { drain: options.drain } : {}),
  });
  options.beforeReady?.(app);
  await app.ready();

  const createTenant: TestApp["createTenant"] = (name, tenantOptions) =>
    seedTenant({ db, outbox }, name, tenantOptions);

  const createUser: TestApp["createUser"] = (tenantId, permissions, userOptions) =>
    seedUser({ db, outbox, auth: services.auth }, tenantId, permissions, userOptions);

  return {
    app,
    db,
    outbox,
    services,
    oidc,
    uploadsDir,
    close: async () => {
      await app.close();
      if (!options.db) await db.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
    createTenant,
    createUser,
  };
};
