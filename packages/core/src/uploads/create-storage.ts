import type { Db } from "@hisob/db";
import { createDatabaseStorage } from "./database-storage";
import { createLocalStorage } from "./local-storage";
import type { S3StorageConfig } from "./s3-storage";
import type { UploadStorage } from "./storage";

/** UPLOADS_STORAGE and its settings (docs/decisions/0029-uploads-shared-by-every-instance.md). */
export type UploadStorageConfig =
  | { driver: "local"; dir: string }
  | { driver: "database" }
  | ({ driver: "s3" } & S3StorageConfig);

/** A driver loaded on first use: the S3 SDK stays out of memory on servers that never call it. */
const loadedOnFirstUse = (load: () => Promise<UploadStorage>): UploadStorage => {
  let loaded: Promise<UploadStorage> | undefined;
  const storage = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    write: async (...args) => (await storage()).write(...args),
    read: async (...args) => (await storage()).read(...args),
    remove: async (...args) => (await storage()).remove(...args),
    sweepPartials: async (...args) => (await storage()).sweepPartials(...args),
  };
};

export const createUploadStorage = (config: UploadStorageConfig, db: Db): UploadStorage => {
  switch (config.driver) {
    case "local":
      return createLocalStorage(config.dir);
    case "database":
      return createDatabaseStorage(db);
    case "s3":
      return loadedOnFirstUse(async () => (await import("./s3-storage")).createS3Storage(config));
  }
};
