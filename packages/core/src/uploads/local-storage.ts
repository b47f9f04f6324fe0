import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { checkStorageKeys, createMeter, isStorageKey, type UploadStorage } from "./storage";

/**
 * Uploaded bytes on the local disk, one folder per tenant, one file per upload id: the embedded
 * default, for one instance. Writes stream into a `.partial-` file that is renamed only once complete,
 * so a refused or broken upload never leaves a readable file behind.
 */
export const createLocalStorage = (root: string): UploadStorage => {
  const fileOf = (tenantId: string, id: string) => {
    checkStorageKeys(tenantId, id);
    return path.join(root, tenantId, id);
  };

  return {
    write: async (tenantId, id, source, maxBytes) => {
      const final = fileOf(tenantId, id);
      const partial = path.join(path.dirname(final), `.partial-${id}`);
      await mkdir(path.dirname(final), { recursive: true });
      const meter = createMeter(maxBytes);
      try {
        await pipeline(source, meter.stream, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return {
        ...meter.stored(),
        commit: () => rename(partial, final),
        discard: async () => {
          await rm(partial, { force: true });
          await rm(final, { force: true });
        },
      };
    },
    read: async (tenantId, id) => {
      const file = fileOf(tenantId, id);
      await stat(file); // throws ENOENT before we commit to a 200
      return createReadStream(file);
    },
    remove: (tenantId, id) => rm(fileOf(tenantId, id), { force: true }),
    sweepPartials: async (olderThanMs, now = Date.now()) => {
      let removed = 0;
      const tenants = await readdir(root, { withFileTypes: true }).catch(() => []);
      for (const tenant of tenants) {
        if (!tenant.isDirectory() || !isStorageKey(tenant.name)) continue;
        const dir = path.join(root, tenant.name);
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          if (!name.startsWith(".partial-")) continue;
          const file = path.join(dir, name);
          const info = await stat(file).catch(() => null);
          if (!info || now - info.mtimeMs < olderThanMs) continue;
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
};
