import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { createUploadStorage, type UploadStorage } from "@hisob/core";
import type { Db } from "@hisob/db";
import { createTestDb, freePort } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { startS3Server, TEST_BUCKET } from "../../testing/upload-drivers";

/** The S3 driver's sweep (the local and database drivers' are tested beside them), and a bucket that is away. */
describe("the S3 driver's stale-partial sweep", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let client: S3Client;
  let storage: UploadStorage;
  let db: Db;
  const tenantId = "0190aaaa-0000-7000-8000-0000000000aa";
  const staleA = `sweep/.partial/${tenantId}/0190aaaa-0000-7000-8000-000000000001`;
  const staleB = `sweep/.partial/${tenantId}/0190aaaa-0000-7000-8000-000000000002`;
  const stored = `sweep/${tenantId}/0190aaaa-0000-7000-8000-000000000003`;
  const outside = `.partial/${tenantId}/0190aaaa-0000-7000-8000-000000000004`;

  const exists = (Key: string) =>
    client.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key })).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    s3 = await startS3Server();
    client = s3.client();
    db = await createTestDb();
    // The server's own factory: the S3 driver it loads on first use.
    storage = createUploadStorage(s3.config("sweep/"), db);
    for (const Key of [staleA, staleB, stored, outside]) {
      await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key, Body: Buffer.alloc(1024) }));
    }
  });

  afterAll(async () => {
    client?.destroy();
    await s3?.close();
    await db?.close();
  });

  it("removes partial objects older than the age under its prefix only, and nothing else", async () => {
    const hour = 60 * 60_000;
    // Everything was just written: nothing is old enough yet (it may be an upload in progress).
    expect(await storage.sweepPartials(hour)).toBe(0);
    expect(await exists(staleA)).toBe(true);
    // Two hours on, both partials under the driver's prefix are stale.
    expect(await storage.sweepPartials(hour, Date.now() + 2 * hour)).toBe(2);
    expect(await exists(staleA)).toBe(false);
    expect(await exists(staleB)).toBe(false);
    // Content under a readable name and another prefix's partials stay.
    expect(await exists(stored)).toBe(true);
    expect(await exists(outside)).toBe(true);
  });
});

describe("an S3 bucket that does not answer", () => {
  let t: TestApp;
  let user: SeededUser;

  beforeAll(async () => {
    // Nobody listens on this port: every call to the "bucket" is refused.
    const port = await freePort();
    t = await createTestApp({
      uploads: {
        driver: "s3",
        bucket: TEST_BUCKET,
        prefix: "",
        region: "us-east-1",
        endpoint: `http://127.0.0.1:${port}`,
        forcePathStyle: true,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      },
    });
    const tenant = await t.createTenant();
    user = await t.createUser(tenant.id, ["uploads:create:all", "uploads:read:all"]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("answers 503 with Retry-After and records nothing", async () => {
    const boundary = "----hisobOutage";
    const res = await t.app.inject({
      method: "POST",
      url: "/uploads",
      headers: {
        ...user.headers,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers["retry-after"]).toBeDefined();
    expect(res.json().error).toMatchObject({ code: "UNAVAILABLE", reason: "upload.storage_unavailable" });
    const list = await t.app.inject({ method: "GET", url: "/uploads", headers: user.headers });
    expect(list.json().total).toBe(0);
  }, 60_000);
});
