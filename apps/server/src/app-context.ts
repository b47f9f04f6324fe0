import "@hisob/finance";
import { type CoreServices, createCoreServices, syncPermissions } from "@hisob/core";
import { createDb, createOutbox, type Db, type Outbox } from "@hisob/db";
import { type BootstrapResult, bootstrapPlatform } from "./bootstrap";
import type { Env } from "./env";

// Importing the modules above registers their permissions before syncPermissions runs.

export type AppContext = {
  db: Db;
  outbox: Outbox;
  services: CoreServices;
  bootstrap: BootstrapResult | null;
};

/**
 * Opens the database, applies migrations, syncs the permission registry and, on first start,
 * bootstraps the platform admin — the steps the server and the CLI share.
 */
export const openAppContext = async (
  env: Env,
  options: { purpose: string; bootstrap: boolean; log?: (message: string) => void },
): Promise<AppContext> => {
  const db = await createDb({
    ...(env.database.url ? { databaseUrl: env.database.url } : {}),
    dataDir: env.dataDir,
    purpose: options.purpose,
  });
  try {
    const outbox = createOutbox(db);
    let bootstrap: BootstrapResult | null = null;
    await db.migrate(options.log, async () => {
      await syncPermissions(db);
      if (options.bootstrap) bootstrap = await bootstrapPlatform({ db, outbox }, env.admin);
    });
    return {
      db,
      outbox,
      services: createCoreServices({ db, outbox, uploadsDir: env.uploadsDir }),
      bootstrap,
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
};
