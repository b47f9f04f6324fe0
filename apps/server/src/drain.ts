import { setTimeout as sleep } from "node:timers/promises";
import type { App } from "./app";

/*
 * Graceful shutdown in two steps (docs/decisions/0027-graceful-drain.md). Draining: /readyz answers 503
 * "draining" so the load balancer stops sending, while everything still works; every response says
 * `connection: close`, so kept-alive clients open their next connection elsewhere. Then, after the
 * drain delay, the server closes: it stops accepting, closes idle connections, lets in-flight requests
 * finish and closes GraphQL sockets with 1001 (going away).
 */

/** Whether this server is draining: /readyz and the responses read it. */
export type Drain = { readonly draining: boolean; start(): void };

export const createDrain = (): Drain => {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    start: () => {
      draining = true;
    },
  };
};

/**
 * Every response sent while draining closes its connection after it: the client's next request goes
 * elsewhere. At send time, not at arrival: a request that arrived before the drain and completes during
 * the close must not leave its connection kept alive (and the close waiting for the keep-alive timeout).
 */
export const closeConnectionsWhileDraining = (app: App, drain: Drain): void => {
  app.addHook("onSend", async (_request, reply, payload) => {
    if (drain.draining) reply.header("connection", "close");
    return payload;
  });
};

/** Drains for `delayMs`, then closes the server (in-flight requests complete first). */
export const drainAndClose = async (app: App, drain: Drain, delayMs: number): Promise<void> => {
  drain.start();
  if (delayMs > 0) await sleep(delayMs);
  await app.close();
};
