import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The real server process (main.ts) on an embedded database of its own: SIGTERM drains for
 * SHUTDOWN_DRAIN_DELAY_MS (/readyz 503 "draining", requests still served with `connection: close`), then
 * the process exits 0. The drain's details are in drain.int.test.ts; this proves main wires it.
 */

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-shutdown-"));
const DRAIN_DELAY_MS = 1_000;

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (port: number, urlPath: string) =>
  new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: urlPath, agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
        );
      })
      .on("error", reject);
  });

describe("SIGTERM to the server process", { timeout: 240_000 }, () => {
  it("drains, then exits 0", async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    server.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    try {
      const until = Date.now() + 200_000;
      for (;;) {
        const ready = await get(port, "/readyz").catch(() => null);
        if (ready?.status === 200) break;
        if (Date.now() > until || server.exitCode !== null)
          throw new Error(`the server did not start: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect((await get(port, "/healthz")).status).toBe(200);

      const signalled = Date.now();
      server.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const draining = await get(port, "/readyz");
      expect(draining.status).toBe(503);
      expect(JSON.parse(draining.body)).toEqual({ status: "draining" });
      const served = await get(port, "/healthz");
      expect(served.status).toBe(200);
      expect(served.connection).toBe("close");

      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_DELAY_MS);
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });
});
