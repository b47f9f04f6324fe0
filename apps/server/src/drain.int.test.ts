import http from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createDrain, drainAndClose } from "./drain";
import { createTestApp, type SeededUser, type TestApp } from "./testing/test-app";

/*
 * The shutdown main.ts runs on SIGTERM (drainAndClose), against a server listening on a real port with
 * real clients: a keep-alive HTTP agent, a graphql-ws client. docs/decisions/0027-graceful-drain.md
 */

const DRAIN_DELAY_MS = 600;
const SLOW_MS = 1_000;

let t: TestApp;
let user: SeededUser;
let port: number;
const drain = createDrain();
let releaseSlow: () => void = () => {};

beforeAll(async () => {
  t = await createTestApp({
    drain,
    beforeReady: (app) => {
      // A request still running when the server closes (as a long export would be).
      app.get("/test/slow", { config: { public: true } }, async () => {
        await new Promise<void>((resolve) => {
          releaseSlow = resolve;
          setTimeout(resolve, SLOW_MS);
        });
        return { done: true };
      });
    },
  });
  user = await t.createUser((await t.createTenant()).id, "admin");
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  releaseSlow();
  await t?.close().catch(() => {});
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A GET over the keep-alive agent: its status, `connection` header and whether the socket was reused. */
const get = (path: string) =>
  new Promise<{ status: number; connection: string | undefined; body: string; reused: boolean }>(
    (resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port, path, agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            connection: response.headers.connection,
            body,
            reused: request.reusedSocket,
          }),
        );
      });
      request.on("error", reject);
    },
  );

describe("SIGTERM: drain, then close", () => {
  it("turns /readyz 503 at once, serves everything meanwhile, closes sockets with 1001, finishes in-flight work", async () => {
    // A kept-alive connection and a GraphQL socket, open before the signal.
    expect((await get("/readyz")).status).toBe(200);
    expect((await get("/healthz")).reused).toBe(true);
    const closed = new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${port}/api/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => {},
        connectionParams: { Authorization: `Bearer ${user.token}` },
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      void client;
    });
    await new Promise<void>((resolve, reject) => {
      const probe = createClient({
        url: `ws://127.0.0.1:${port}/api/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { Authorization: `Bearer ${user.token}` },
      });
      probe.subscribe(
        { query: "{ me { id } }" },
        {
          next: () => {},
          error: reject,
          complete: () => void Promise.resolve(probe.dispose()).then(resolve),
        },
      );
    });

    const slow = fetch(`http://127.0.0.1:${port}/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const shutdown = drainAndClose(t.app, drain, DRAIN_DELAY_MS);

    // Draining: not ready, but everything is still served — each answer closes its connection.
    const ready = await get("/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: "draining" });
    expect(ready.connection).toBe("close");
    const served = await get("/healthz");
    expect(served.status).toBe(200);
    expect(served.reused).toBe(false);
    expect(served.connection).toBe("close");

    // After the delay: the socket goes away (1001), the slow request completes, the port stops accepting.
    expect(await closed).toBe(1001);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DRAIN_DELAY_MS - 20);
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ done: true });
    await shutdown;
    const refused = await fetch(`http://127.0.0.1:${port}/healthz`).catch((error: Error) => error.cause);
    expect(refused).toMatchObject({ code: "ECONNREFUSED" });
  }, 60_000);
});
