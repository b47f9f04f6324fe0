import { Readable } from "node:stream";
import type { Db } from "@hisob/db";
import { createTestDb, insertTenant } from "@hisob/db/testing";
import { newId } from "@hisob/kernel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHUNK_BYTES, createDatabaseStorage } from "./database-storage";
import type { UploadStorage } from "./storage";

let db: Db;
let storage: UploadStorage;
let tenantId: string;
let otherTenantId: string;

const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Records the upload's row, as the service does when the bytes are complete. */
const claim = (id: string, size: number) =>
  db.withTenant(tenantId, (tx) =>
    tx.upload.create({
      data: {
        id,
        tenantId,
        originalName: "f.bin",
        size: BigInt(size),
        mimeType: "x",
        sha256: "0".repeat(64),
      },
    }),
  );

beforeAll(async () => {
  db = await createTestDb();
  tenantId = (await insertTenant(db, "A")).id;
  otherTenantId = (await insertTenant(db, "B")).id;
  storage = createDatabaseStorage(db);
});

afterAll(async () => {
  await db?.close();
});

describe("uploads in the database", () => {
  it("stores a file over several chunks and reads it back in order; an empty file is content too", async () => {
    const content = Buffer.alloc(CHUNK_BYTES * 2 + 123);
    for (let i = 0; i < content.length; i += 1) content[i] = i % 251;
    const id = newId();
    const stored = await storage.write(tenantId, id, Readable.from([content]), content.length);
    expect(stored.size).toBe(content.length);
    expect(await db.withTenant(tenantId, (tx) => tx.uploadChunk.count({ where: { uploadId: id } }))).toBe(3);
    expect(await bytesOf(await storage.read(tenantId, id))).toEqual(content);

    const empty = newId();
    await storage.write(tenantId, empty, Readable.from([]), 10);
    expect(await bytesOf(await storage.read(tenantId, empty))).toEqual(Buffer.alloc(0));
  });

  it("keeps another tenant's reader out, refuses non-UUID keys and a missing upload", async () => {
    const id = newId();
    await storage.write(tenantId, id, Readable.from([Buffer.from("mine")]), 100);
    await expect(storage.read(otherTenantId, id)).rejects.toThrow(/no content/);
    await expect(storage.read(tenantId, newId())).rejects.toThrow(/no content/);
    await expect(storage.read(tenantId, "../etc/passwd")).rejects.toThrow(/UUIDs/);
  });

  it("a refused (too large) write leaves no chunk behind", async () => {
    const id = newId();
    await expect(
      storage.write(tenantId, id, Readable.from([Buffer.alloc(CHUNK_BYTES), Buffer.alloc(10)]), CHUNK_BYTES),
    ).rejects.toMatchObject({ reason: "upload.too_large" });
    expect(await db.withTenant(tenantId, (tx) => tx.uploadChunk.count({ where: { uploadId: id } }))).toBe(0);
  });

  it("the sweep removes chunks no upload claims once they are old, and nothing else", async () => {
    const claimed = newId();
    const unclaimed = newId();
    await storage.write(tenantId, claimed, Readable.from([Buffer.from("kept")]), 100);
    await claim(claimed, 4);
    await storage.write(tenantId, unclaimed, Readable.from([Buffer.from("left by a crash")]), 100);

    expect(await storage.sweepPartials(60 * 60_000)).toBe(0); // still fresh: may be an upload in progress
    const later = Date.now() + 2 * 60 * 60_000;
    expect(await storage.sweepPartials(60 * 60_000, later)).toBeGreaterThanOrEqual(1);
    await expect(storage.read(tenantId, unclaimed)).rejects.toThrow(/no content/);
    expect((await bytesOf(await storage.read(tenantId, claimed))).toString()).toBe("kept");
  });
});
