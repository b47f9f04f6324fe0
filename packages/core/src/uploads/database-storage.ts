import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db } from "@hisob/db";
import { checkStorageKeys, createMeter, type UploadStorage } from "./storage";

/** Bytes per stored chunk: large enough that a 100 MB file is 200 statements, small enough to stream. */
export const CHUNK_BYTES = 512 * 1024;

const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Uploaded bytes in the database (`upload_chunks`, under the tenant's row-level security): every
 * instance sharing the database reads what any of them wrote, with no other service. Each chunk is
 * written in a transaction of its own as it arrives, so memory stays at one chunk; the chunks become
 * readable with the upload's row (readers find them only through it), and `discard` or the hourly
 * sweep removes chunks no row claims.
 */
export const createDatabaseStorage = (db: Db): UploadStorage => {
  const insertChunk = (tenantId: string, id: string, seq: number, bytes: Buffer) =>
    db.rawTx.withTenant(tenantId, (tx) =>
      tx.query(
        "INSERT INTO upload_chunks (tenant_id, upload_id, seq, bytes) VALUES ($1::uuid, $2::uuid, $3, $4)",
        [tenantId, id, seq, bytes],
      ),
    );
  const readChunk = async (tenantId: string, id: string, seq: number): Promise<Buffer | undefined> => {
    const [row] = await db.rawTx.withTenant(
      tenantId,
      (tx) =>
        tx.query<{ bytes: Uint8Array }>(
          "SELECT bytes FROM upload_chunks WHERE tenant_id = $1::uuid AND upload_id = $2::uuid AND seq = $3",
          [tenantId, id, seq],
        ),
      { readOnly: true },
    );
    return row ? asBuffer(row.bytes) : undefined;
  };
  const remove = async (tenantId: string, id: string) => {
    checkStorageKeys(tenantId, id);
    await db.rawTx.withTenant(tenantId, (tx) =>
      tx.query("DELETE FROM upload_chunks WHERE tenant_id = $1::uuid AND upload_id = $2::uuid", [
        tenantId,
        id,
      ]),
    );
  };

  return {
    write: async (tenantId, id, source, maxBytes) => {
      checkStorageKeys(tenantId, id);
      const meter = createMeter(maxBytes);
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      /** Stores the first `bytes` pending (all when undefined) as the next chunk. */
      const flush = async (bytes = pendingBytes) => {
        const all = Buffer.concat(pending, pendingBytes);
        await insertChunk(tenantId, id, seq, all.subarray(0, bytes));
        seq += 1;
        pending = bytes < all.length ? [all.subarray(bytes)] : [];
        pendingBytes = all.length - bytes;
      };
      try {
        await pipeline(source, meter.stream, async (chunks: AsyncIterable<Buffer>) => {
          for await (const chunk of chunks) {
            pending.push(chunk);
            pendingBytes += chunk.length;
            while (pendingBytes >= CHUNK_BYTES) await flush(CHUNK_BYTES);
          }
          // An empty file is one empty chunk: content that exists.
          if (pendingBytes > 0 || seq === 0) await flush();
        });
      } catch (error) {
        await remove(tenantId, id).catch(() => {});
        throw error;
      }
      return { ...meter.stored(), commit: async () => {}, discard: () => remove(tenantId, id) };
    },

    read: async (tenantId, id) => {
      checkStorageKeys(tenantId, id);
      const first = await readChunk(tenantId, id, 0);
      if (!first) throw new Error(`no content for upload ${id}`);
      async function* chunks() {
        yield first;
        for (let seq = 1; ; seq += 1) {
          const next = await readChunk(tenantId, id, seq);
          if (!next) return;
          yield next;
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },

    remove,

    sweepPartials: async (olderThanMs, now = Date.now()) => {
      // The system role sees every tenant's rows; an upload is stale when even its newest chunk is old.
      const [row] = await db.rawTx.withSystem((tx) =>
        tx.query<{ removed: number }>(
          `WITH stale AS (
             SELECT c.tenant_id, c.upload_id FROM upload_chunks c
             WHERE NOT EXISTS (SELECT 1 FROM uploads u WHERE u.tenant_id = c.tenant_id AND u.id = c.upload_id)
             GROUP BY c.tenant_id, c.upload_id HAVING max(c.created_at) < $1::timestamptz
           ), gone AS (
             DELETE FROM upload_chunks c USING stale
             WHERE c.tenant_id = stale.tenant_id AND c.upload_id = stale.upload_id RETURNING 1
           )
           SELECT (SELECT count(*) FROM stale)::int AS removed, (SELECT count(*) FROM gone) AS chunks`,
          [new Date(now - olderThanMs).toISOString()],
        ),
      );
      return row?.removed ?? 0;
    },
  };
};
