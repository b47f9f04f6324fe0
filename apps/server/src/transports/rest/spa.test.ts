import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { acceptsGzip, spaRoutes } from "./spa";

const dir = mkdtempSync(path.join(tmpdir(), "hisob-spa-"));
mkdirSync(path.join(dir, "assets"));
writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>App</title>");
writeFileSync(path.join(dir, "assets", "main-abc.js"), "console.log(1)");
const bigScript = `export const text = "${"hisob ".repeat(2_000)}";`;
writeFileSync(path.join(dir, "assets", "big-abc.js"), bigScript);
writeFileSync(path.join(dir, "assets", "big-abc.js.gz"), gzipSync(bigScript));
writeFileSync(path.join(path.dirname(dir), "secret.txt"), "TOP-SECRET-CONTENT");

const app = Fastify();
await app.register(spaRoutes, { mount: "/app", dir, missingHint: "Run the build." });
const missing = Fastify();
await missing.register(spaRoutes, {
  mount: "/x",
  dir: path.join(dir, "nope"),
  missingHint: "Run the build.",
});
afterAll(async () => {
  await app.close();
  await missing.close();
});

describe("spaRoutes", () => {
  it("redirects the bare prefix to its trailing slash", async () => {
    const reply = await app.inject("/app");
    expect(reply.statusCode).toBe(302);
    expect(reply.headers.location).toBe("/app/");
  });

  it("serves index.html at the root and for any client-side route, never cached, with a CSP", async () => {
    for (const url of ["/app/", "/app/accounts/123", "/app/callback?code=x&state=y"]) {
      const reply = await app.inject(url);
      expect(reply.statusCode).toBe(200);
      expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(reply.headers["cache-control"]).toBe("no-cache");
      expect(reply.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(reply.body).toContain("<title>App</title>");
    }
  });

  it("serves hashed assets with a long cache and a missing asset as 404 (never HTML)", async () => {
    const asset = await app.inject("/app/assets/main-abc.js");
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toContain("immutable");
    expect(asset.body).toBe("console.log(1)");
    const gone = await app.inject("/app/assets/main-old.js");
    expect(gone.statusCode).toBe(404);
  });

  it("sends the build's gzip copy only to browsers that accept gzip, and says it varies", async () => {
    const zipped = await app.inject({
      url: "/app/assets/big-abc.js",
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(zipped.headers.vary).toBe("accept-encoding");
    expect(Number(zipped.headers["content-length"])).toBeLessThan(bigScript.length / 10);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(bigScript);
    for (const encoding of [undefined, "identity", "br", "gzip;q=0", "*;q=0"]) {
      const plain = await app.inject({
        url: "/app/assets/big-abc.js",
        headers: encoding === undefined ? {} : { "accept-encoding": encoding },
      });
      expect(plain.headers["content-encoding"], String(encoding)).toBeUndefined();
      expect(plain.body).toBe(bigScript);
    }
    // A file without a gzip copy is sent as it is, whatever the browser accepts.
    const small = await app.inject({
      url: "/app/assets/main-abc.js",
      headers: { "accept-encoding": "gzip" },
    });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body).toBe("console.log(1)");
  });

  it("reads accept-encoding by its tokens and q-values", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("deflate, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("br, *;q=0.1")).toBe(true);
    expect(acceptsGzip("gzip;q=0, *")).toBe(false);
    expect(acceptsGzip("GZIP; Q=0")).toBe(false);
    expect(acceptsGzip("x-gzip2")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip(["br", "gzip"])).toBe(true);
  });

  it("never leaves the build directory", async () => {
    for (const url of ["/app/../secret.txt", "/app/%2e%2e/secret.txt", "/app/..%2fsecret.txt", "/app/%00"]) {
      const reply = await app.inject(url);
      expect(reply.body).not.toContain("TOP-SECRET-CONTENT");
    }
  });

  it("says how to build when the build is missing (an HTML page, not JSON)", async () => {
    const reply = await missing.inject("/x/");
    expect(reply.statusCode).toBe(503);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.body).toContain("Run the build.");
  });
});
