import {
  type CoreServiceDeps,
  createCoreServices,
  createUploadStorage,
  syncPermissions,
  type UploadStorage,
} from "@hisob/core";
import { createCrmServices } from "@hisob/crm";
import { createDb, createOutbox, type Db, embeddedDatabaseExists, type Outbox } from "@hisob/db";
import { createFinanceServices } from "@hisob/finance";
import { createHrmServices } from "@hisob/hrm";
import { type Clock, systemClock } from "@hisob/kernel";
import { createOidcProvider, type OidcProvider } from "@hisob/oidc";
import { createProjectsServices } from "@hisob/projects";
import { createWarehouseServices } from "@hisob/warehouse";
import type { AppServices } from "./app-services";
import { type BootstrapResult, bootstrapPlatform } from "./bootstrap";
import type { ResolvedEnv } from "./env";
import { connectRedis, createRedisThrottleStore } from "./redis";

// Importing the modules above registers their permissions before syncPermissions runs.

export type AppContext = {
  db: Db;
  outbox: Outbox;
  services: AppServices;
  oidc: OidcProvider;
  bootstrap: BootstrapResult | null;
  /** Closes what the context opened besides the database (the Redis connection of attempt budgets). */
  closeExtras(): Promise<void>;
};

/** Services and the OpenID provider over one database, wired the way every entry point needs them. */
export const composeServices = (
  db: Db,
  outbox: Outbox,
  env: ResolvedEnv,
  options: {
    clock?: Clock;
    /** Test apps bring their own (a temporary folder, a test bucket). */
    uploadStorage?: UploadStorage;
    core?: Partial<Omit<CoreServiceDeps, "db" | "outbox">>;
  } = {},
) => {
  const clock = options.clock ?? systemClock;
  const services: AppServices = {
    ...createCoreServices({
      db,
      outbox,
      clock,
      uploadStorage: options.uploadStorage ?? createUploadStorage(env.uploads, db),
      ...options.core,
    }),
    finance: createFinanceServices({ db, outbox, clock }),
    crm: createCrmServices({ db, outbox, clock }),
    warehouse: createWarehouseServices({ db, outbox, clock }),
    projects: createProjectsServices({ db, outbox, clock }),
    hrm: createHrmServices({ db, outbox, clock }),
  };
  const oidc = createOidcProvider({
    db,
    outbox,
    clock,
    cryptoKey: env.oidc.cryptoKey,
    config: {
      issuer: env.oidc.issuerUrl,
      accessTokenLifetime: env.oidc.accessTokenLifetime,
      idTokenLifetime: env.oidc.idTokenLifetime,
      refreshTokenLifetime: env.oidc.refreshTokenLifetime,
      keyPropagationSeconds: env.oidc.keyPropagationSeconds,
      production: env.isProduction,
    },
  });
  // First-party access tokens (the accountant app) authenticate our APIs like a session: the
  // context service resolves them in the same statement as session tokens (db.system.resolveCaller).
  return { services, oidc };
};

/**
 * Opens the database, applies migrations, syncs the permission registry, makes sure a signing key
 * exists and decrypts (else: "failed to decrypt private key"), registers the accountant app and,
 * on first start, bootstraps the platform admin — the steps the server and the CLI share.
 */
export const openAppContext = async (
  env: ResolvedEnv,
  options: {
    purpose: string;
    bootstrap: boolean;
    log?: (message: string) => void;
    /** The server shares attempt budgets through REDIS_URL when set; the CLI needs none. */
    shareAttemptBudgets?: boolean;
    /**
     * The server runs every event handler, so it settles the events no handler subscribes to; the
     * CLI leaves them (and the server's own due events) to it (see createOutbox).
     */
    unhandledEvents?: "settle" | "leave";
    /**
     * The server's first start: the steps that write (creating the embedded database, the permission
     * registry, the first signing key, the accountant app, the platform tenant and administrator) run
     * through Prisma, whose query compiler then stays loaded for the life of the process. With this,
     * a database that has no platform tenant yet (an embedded data directory with no database yet,
     * or a database that, once migrated, has none) is handed to this — the server runs its first
     * start in a short-lived process of its own (first-start.ts) — with nothing held open here, and
     * this process then opens it as any later start does: reading only, on the driver.
     */
    firstStartElsewhere?: () => Promise<BootstrapResult | null>;
  },
): Promise<AppContext> => {
  const openDb = () =>
    createDb({
      ...(env.database.url ? { databaseUrl: env.database.url } : {}),
      ...(env.database.directUrl ? { pooler: { directUrl: env.database.directUrl } } : {}),
      poolSize: env.database.poolSize,
      dataDir: env.dataDir,
      purpose: options.purpose,
    });
  const elsewhere = options.firstStartElsewhere;
  let delegated: { result: BootstrapResult | null } | undefined;
  // An embedded database that does not exist yet is created over there: not even opened here.
  if (elsewhere && !env.database.url && !embeddedDatabaseExists(env.dataDir)) {
    delegated = { result: await elsewhere() };
  }
  let db = await openDb();
  if (elsewhere && !delegated) {
    let setUp = true;
    try {
      // Migrations run on the driver here; the platform tenant's check too (db.system).
      await db.migrate(options.log, async () => {
        setUp = await db.system.hasPlatformTenant();
      });
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
    if (!setUp) {
      await db.close(); // releases the embedded data directory's lock for the other process
      delegated = { result: await elsewhere() };
      db = await openDb();
    }
  }
  let redis: Awaited<ReturnType<typeof connectRedis>> | undefined;
  try {
    const outbox = createOutbox(db, { unhandled: options.unhandledEvents ?? "leave" });
    // Several instances share one budget of sign-in attempts through Redis.
    const log = { warn: (details: object, message: string) => console.warn(`hisob: ${message}`, details) };
    if (env.redis.url && options.shareAttemptBudgets) {
      redis = await connectRedis(env.redis.url, { name: "hisob-attempts", log, purpose: "Attempt budgets" });
    }
    const { services, oidc } = composeServices(db, outbox, env, {
      ...(redis ? { core: { throttleStore: createRedisThrottleStore(redis, { log }) } } : {}),
    });
    let bootstrap: BootstrapResult | null = null;
    const opened = db;
    await db.migrate(options.log, async () => {
      await syncPermissions(opened);
      await oidc.start();
      if (options.bootstrap) bootstrap = await bootstrapPlatform({ db: opened, outbox }, env.admin);
    });
    const closeExtras = async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    };
    return { db, outbox, services, oidc, bootstrap: delegated?.result ?? bootstrap, closeExtras };
  } catch (error) {
    redis?.disconnect();
    await db.close().catch(() => {});
    throw error;
  }
};
