import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "@hisob/kernel";

/** How many leading bytes we keep to sniff the type (enough for office documents' zip headers). */
const SNIFF_BYTES = 64 * 1024;

export type StoredFile = { size: number; sha256: string; head: Buffer };

/**
 * Uploaded bytes on the local disk, one folder per tenant, one file per upload id. Writes stream
 * through a hashing, counting transform into a `.partial-` file that is renamed only once complete,
 * so a refused or broken upload never leaves a readable file behind. Memory stays flat: nothing is
 * buffered but the first 64 KiB.
 */
export type UploadStorage = {
  write(
    tenantId: string,
    id: string,
    source: Readable,
    maxBytes: number,
  ): Promise<StoredFile & { commit(): Promise<void>; discard(): Promise<void> }>;
  read(tenantId: string, id: string): Promise<Readable>;
  remove(tenantId: string, id: string): Promise<void>;
  /**
   * Removes `.partial-` files nobody has written to for `olderThanMs` (left by a process killed
   * mid-upload; a live upload keeps touching its file). Answers how many it removed.
   */
  sweepPartials(olderThanMs: number, now?: number): Promise<number>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const tooLarge = (maxBytes: number) =>
  new AppError("VALIDATION_ERROR", {
    reason: "upload.too_large",
    message: `validation error: file is larger than ${maxBytes} bytes`,
    params: { maxBytes, issues: [{ path: "file", message: `must be at most ${maxBytes} bytes` }] },
  });

export const createLocalStorage = (root: string): UploadStorage => {
  const fileOf = (tenantId: string, id: string) => {
    // Ids come from our database, but a path is built from them: refuse anything that is not a UUID.
    if (!UUID.test(tenantId) || !UUID.test(id)) throw new Error("storage keys must be UUIDs");
    return path.join(root, tenantId, id);
  };

  return {
    write: async (tenantId, id, source, maxBytes) => {
      const final = fileOf(tenantId, id);
      const partial = path.join(path.dirname(final), `.partial-${id}`);
      await mkdir(path.dirname(final), { recursive: true });
      const hash = createHash("sha256");
      const head: Buffer[] = [];
      let headBytes = 0;
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(tooLarge(maxBytes));
          hash.update(chunk);
          if (headBytes < SNIFF_BYTES) {
            head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
            headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
          }
          callback(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(partial, { flags: "wx", mode: 0o600 }));
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return {
        size,
        sha256: hash.digest("hex"),
        head: Buffer.concat(head),
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
        if (!tenant.isDirectory() || !UUID.test(tenant.name)) continue;
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
