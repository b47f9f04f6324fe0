import { createHash } from "node:crypto";
import { MAX_UPLOAD_BYTES } from "@hisob/core";
import { createTestDb, testDatabaseKind } from "@hisob/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";
import { startUploadDriver, UPLOAD_DRIVERS, type UploadDriver } from "../../testing/upload-drivers";

// Every storage driver passes the same tests: the limits, types, tenancy and errors do not depend on
// where the bytes live.
describe.each(UPLOAD_DRIVERS)("uploads stored by the %s driver", (driverName) => {
  let t: TestApp;
  let driver: UploadDriver;
  // The test's PGlite lives in memory: a database driver there holds every byte twice (data and WAL),
  // so its limit test uses a smaller limit; the real one is tested on PostgreSQL and the other drivers.
  const maxUploadBytes =
    driverName === "database" && testDatabaseKind() === "pglite" ? 8 * 1024 * 1024 : MAX_UPLOAD_BYTES;
  let tenantA: string;
  let tenantB: string;
  let uploaderA: SeededUser;
  let adminB: SeededUser;

  const PNG = Buffer.concat([
    Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"),
    Buffer.alloc(64, 1),
  ]);

  type Part = { name?: string; filename: string; type?: string; content: Buffer };

  /** A multipart/form-data body, built by hand so tests control every header the client sends. */
  const multipart = (parts: Part[]) => {
    const boundary = `----hisob${Math.random().toString(16).slice(2)}`;
    const chunks: Buffer[] = [];
    for (const part of parts) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name ?? "file"}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        part.content,
        Buffer.from("\r\n"),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return {
      payload: Buffer.concat(chunks),
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    };
  };

  const upload = (
    user: { headers: Record<string, string> },
    parts: Part[],
    extraHeaders: Record<string, string> = {},
  ) => {
    const body = multipart(parts);
    return t.app.inject({
      method: "POST",
      url: "/uploads",
      payload: body.payload,
      headers: { ...user.headers, ...body.headers, ...extraHeaders },
    });
  };

  const filesOnDisk = (tenantId: string) => driver.stored(tenantId);

  beforeAll(async () => {
    const db = await createTestDb();
    driver = await startUploadDriver(driverName, db);
    t = await createTestApp({ db, uploads: driver.config, services: { maxUploadBytes } });
    tenantA = (await t.createTenant("A")).id;
    tenantB = (await t.createTenant("B")).id;
    uploaderA = await t.createUser(tenantA, ["uploads:create:all", "uploads:read:all", "uploads:delete:all"]);
    adminB = await t.createUser(tenantB, "admin");
  });

  afterAll(async () => {
    await t?.close();
    await t?.db.close();
    await driver?.close();
  });

  describe("POST /uploads", () => {
    it("stores a file with its sniffed type, size and SHA-256 — the client's content type is ignored", async () => {
      const res = await upload(uploaderA, [{ filename: "logo.png", type: "text/plain", content: PNG }]);
      expect(res.statusCode).toBe(201);
      const [item] = res.json().items;
      expect(item).toMatchObject({
        name: "logo.png",
        size: PNG.length,
        mimeType: "image/png",
        sha256: createHash("sha256").update(PNG).digest("hex"),
        createdById: uploaderA.id,
      });
      expect(await filesOnDisk(tenantA)).toContain(item.id);
    });

    it("a spoofed type does not make text an image", async () => {
      const res = await upload(uploaderA, [
        { filename: "evil.png", type: "image/png", content: Buffer.from("<script>alert(1)</script>") },
      ]);
      expect(res.json().items[0].mimeType).toBe("text/plain");
      const binary = await upload(uploaderA, [
        { filename: "blob.bin", type: "image/png", content: Buffer.from([0, 1, 2, 3, 255, 254]) },
      ]);
      expect(binary.json().items[0].mimeType).toBe("application/octet-stream");
    });

    it("takes several files at once and strips paths from names", async () => {
      const res = await upload(uploaderA, [
        { filename: "../../etc/passwd", content: Buffer.from("root:x:0:0") },
        { filename: "C:\\Users\\a\\hisobot №1.txt", content: Buffer.from("hisobot") },
      ]);
      expect(res.statusCode).toBe(201);
      expect(res.json().items.map((i: { name: string }) => i.name)).toEqual(["passwd", "hisobot №1.txt"]);
    });

    it("accepts a file of exactly the limit and refuses one byte more, leaving nothing behind", async () => {
      const atLimit = Buffer.alloc(maxUploadBytes, 7);
      const ok = await upload(uploaderA, [{ filename: "exact.bin", content: atLimit }]);
      expect(ok.statusCode).toBe(201);
      expect(ok.json().items[0]).toMatchObject({
        size: maxUploadBytes,
        sha256: createHash("sha256").update(atLimit).digest("hex"),
      });

      const before = {
        files: (await filesOnDisk(tenantA)).length,
        rows: await t.db.withTenant(tenantA, (tx) => tx.upload.count()),
      };
      const over = await upload(uploaderA, [
        { filename: "small.txt", content: Buffer.from("kept only if all succeed") },
        { filename: "over.bin", content: Buffer.alloc(maxUploadBytes + 1, 7) },
      ]);
      expect(over.statusCode).toBe(413);
      expect(over.json().error).toMatchObject({ code: "VALIDATION_ERROR", reason: "upload.too_large" });
      expect(await filesOnDisk(tenantA)).toHaveLength(before.files);
      expect(await driver.partials(tenantA)).toEqual([]);
      expect(await t.db.withTenant(tenantA, (tx) => tx.upload.count())).toBe(before.rows);
    }, 120_000);

    it("needs a file, a multipart body, credentials and uploads:create:all", async () => {
      const none = await upload(uploaderA, []);
      expect(none.statusCode).toBe(400);
      expect(none.json().error.message).toBe("validation error: file is required");
      const json = await t.app.inject({
        method: "POST",
        url: "/uploads",
        headers: uploaderA.headers,
        payload: { file: "x" },
      });
      expect(json.statusCode).toBe(400);
      const anonymous = multipart([{ filename: "a.txt", content: Buffer.from("a") }]);
      expect((await t.app.inject({ method: "POST", url: "/uploads", ...anonymous })).statusCode).toBe(401);
      const reader = await t.createUser(tenantA, ["uploads:read:all"]);
      expect((await upload(reader, [{ filename: "a.txt", content: Buffer.from("a") }])).statusCode).toBe(403);
    });

    it("a cookie-authenticated upload needs the CSRF header", async () => {
      const cookieOnly = { headers: { cookie: uploaderA.cookie } };
      expect((await upload(cookieOnly, [{ filename: "a.txt", content: Buffer.from("a") }])).statusCode).toBe(
        403,
      );
      expect(
        (
          await upload(cookieOnly, [{ filename: "a.txt", content: Buffer.from("a") }], {
            "x-csrf-token": "1",
          })
        ).statusCode,
      ).toBe(201);
    });
  });

  describe("reading and deleting uploads", () => {
    it("lists with paging and total, reads metadata, downloads with the right type and a safe Content-Disposition", async () => {
      const created = (
        await upload(uploaderA, [
          { filename: "otchet Q1; name=evil.pdf", content: Buffer.from("%PDF-1.4\n%...") },
        ])
      ).json().items[0];
      const list = await t.app.inject({ method: "GET", url: "/uploads?limit=2", headers: uploaderA.headers });
      expect(list.json()).toMatchObject({ limit: 2, offset: 0 });
      expect(list.json().items).toHaveLength(2);
      expect(list.json().total).toBeGreaterThan(2);
      const meta = await t.app.inject({
        method: "GET",
        url: `/uploads/${created.id}`,
        headers: uploaderA.headers,
      });
      expect(meta.json()).toMatchObject({
        id: created.id,
        mimeType: "application/pdf",
        contentUrl: `/uploads/${created.id}/content`,
      });
      const content = await t.app.inject({
        method: "GET",
        url: `/uploads/${created.id}/content`,
        headers: uploaderA.headers,
      });
      expect(content.statusCode).toBe(200);
      expect(content.headers["content-type"]).toBe("application/pdf");
      expect(content.headers["x-content-type-options"]).toBe("nosniff");
      expect(content.headers["content-disposition"]).toBe(`inline; filename="otchet Q1; name=evil.pdf"`);
      expect(content.rawPayload.toString()).toBe("%PDF-1.4\n%...");

      const unicode = (
        await upload(uploaderA, [{ filename: "hisobot №1.txt", content: Buffer.from("x") }])
      ).json().items[0];
      const download = await t.app.inject({
        method: "GET",
        url: `/uploads/${unicode.id}/content`,
        headers: uploaderA.headers,
      });
      expect(download.headers["content-disposition"]).toBe(
        `attachment; filename="hisobot ?1.txt"; filename*=UTF-8''hisobot%20%E2%84%961.txt`,
      );
    });

    it("deletes the row and the bytes", async () => {
      const created = (
        await upload(uploaderA, [{ filename: "gone.txt", content: Buffer.from("bye") }])
      ).json().items[0];
      expect(
        (await t.app.inject({ method: "DELETE", url: `/uploads/${created.id}`, headers: uploaderA.headers }))
          .statusCode,
      ).toBe(204);
      expect(await filesOnDisk(tenantA)).not.toContain(created.id);
      expect(
        (await t.app.inject({ method: "GET", url: `/uploads/${created.id}`, headers: uploaderA.headers }))
          .statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ method: "DELETE", url: `/uploads/${created.id}`, headers: uploaderA.headers }))
          .statusCode,
      ).toBe(404);
    });

    it("uploads:read:own sees only its own uploads", async () => {
      const own = await t.createUser(tenantA, ["uploads:create:all", "uploads:read:own"]);
      const mine = (await upload(own, [{ filename: "mine.txt", content: Buffer.from("m") }])).json().items[0];
      const list = await t.app.inject({ method: "GET", url: "/uploads?limit=100", headers: own.headers });
      expect(list.json().items.map((i: { id: string }) => i.id)).toEqual([mine.id]);
      const others = (
        await t.app.inject({ method: "GET", url: "/uploads?limit=1", headers: uploaderA.headers })
      ).json().items[0];
      expect(others.id).toBe(mine.id); // newest first
      const older = (
        await t.app.inject({ method: "GET", url: "/uploads?limit=1&offset=1", headers: uploaderA.headers })
      ).json().items[0];
      expect(
        (await t.app.inject({ method: "GET", url: `/uploads/${older.id}`, headers: own.headers })).statusCode,
      ).toBe(404);
    });

    it("tenant B never sees tenant A's uploads", async () => {
      const created = (
        await upload(uploaderA, [{ filename: "secret.txt", content: Buffer.from("A only") }])
      ).json().items[0];
      for (const url of [`/uploads/${created.id}`, `/uploads/${created.id}/content`]) {
        expect((await t.app.inject({ method: "GET", url, headers: adminB.headers })).statusCode).toBe(404);
      }
      expect(
        (await t.app.inject({ method: "DELETE", url: `/uploads/${created.id}`, headers: adminB.headers }))
          .statusCode,
      ).toBe(404);
      const list = await t.app.inject({ method: "GET", url: "/uploads?limit=100", headers: adminB.headers });
      expect(list.json()).toMatchObject({ total: 0, items: [] });
      expect(await filesOnDisk(tenantB)).toEqual([]);
    });
  });
});
