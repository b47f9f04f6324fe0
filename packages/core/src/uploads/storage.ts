import { createHash } from "node:crypto";
import { type Readable, Transform } from "node:stream";
import { AppError } from "@hisob/kernel";

/** How many leading bytes we keep to sniff the type (enough for office documents' zip headers). */
const SNIFF_BYTES = 64 * 1024;

export type StoredFile = { size: number; sha256: string; head: Buffer };

/**
 * Where uploaded bytes live: the local disk (one instance), the database or an S3-compatible bucket
 * (several instances; docs/decisions/0029-uploads-shared-by-every-instance.md). Every driver streams:
 * memory stays flat whatever the file's size, but for the first 64 KiB kept to sniff the type.
 *
 * `write` stores the bytes where no reader finds them yet; `commit` makes them readable under the id
 * (called inside the transaction that records the upload's row), `discard` removes them either way.
 */
export type UploadStorage = {
  write(
    tenantId: string,
    id: string,
    source: Readable,
    maxBytes: number,
  ): Promise<StoredFile & { commit(): Promise<void>; discard(): Promise<void> }>;
  /** The content's stream; rejects (before any byte) when there is no content under the id. */
  read(tenantId: string, id: string): Promise<Readable>;
  remove(tenantId: string, id: string): Promise<void>;
  /**
   * Removes content of uploads that never completed (a process killed mid-upload) untouched for
   * `olderThanMs`; answers how many it removed.
   */
  sweepPartials(olderThanMs: number, now?: number): Promise<number>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Storage keys become paths and object names: refuse anything that is not a UUID. */
export const checkStorageKeys = (tenantId: string, id: string): void => {
  if (!UUID.test(tenantId) || !UUID.test(id)) throw new Error("storage keys must be UUIDs");
};
export const isStorageKey = (value: string): boolean => UUID.test(value);

export const tooLarge = (maxBytes: number) =>
  new AppError("VALIDATION_ERROR", {
    reason: "upload.too_large",
    message: `validation error: file is larger than ${maxBytes} bytes`,
    params: { maxBytes, issues: [{ path: "file", message: `must be at most ${maxBytes} bytes` }] },
  });

/**
 * A pass-through that counts, hashes and keeps the head of what flows through it, and fails the
 * stream once it exceeds `maxBytes` (so no driver stores more than the limit).
 */
export const createMeter = (maxBytes: number) => {
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  const stream = new Transform({
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
  /** What flowed through, once the stream has ended. */
  const stored = (): StoredFile => ({ size, sha256: hash.digest("hex"), head: Buffer.concat(head) });
  return { stream, stored };
};
