import { type Credentials, type LiveContext, sameCaller } from "@hisob/core";
import type { ResolvedCaller } from "@hisob/db";
import type { FastifyBaseLogger } from "fastify";

/*
 * Every few seconds an instance re-checks the credentials of all its open sockets in one statement
 * (docs/decisions/0028-socket-credential-sweep.md). The outbox's announcements over Redis close a socket
 * at once when its session ends; this sweep is what still closes it, within one interval, when those
 * announcements cannot arrive (Redis away, the outbox retrying), and what re-checks its access then.
 */

/** What the sweep needs of one open socket. */
export type SweptSocket = {
  credentials: Pick<Credentials, "bearerToken" | "sessionToken">;
  requestId: string;
  /** The resolution the socket runs on now. */
  resolution(): ResolvedCaller;
  /** Its credential is dead: close it (4401). */
  end(): void;
  /** Its caller changed (access, language, expiry): resolve and authorize it again. */
  changed(): void;
};

export const startSocketSweep = (options: {
  everyMs: number;
  sockets: () => readonly SweptSocket[];
  resolveLiveMany: (credentials: Credentials[]) => Promise<Array<LiveContext | null>>;
  log: FastifyBaseLogger;
}): { stop(): void; sweep(): Promise<void> } => {
  let running: Promise<void> | null = null;
  const sweepOnce = async () => {
    const sockets = options.sockets();
    if (sockets.length === 0) return;
    const answers = await options.resolveLiveMany(
      sockets.map((socket) => ({ ...socket.credentials, requestId: socket.requestId })),
    );
    sockets.forEach((socket, index) => {
      const live = answers[index];
      if (!live) socket.end();
      else if (!sameCaller(socket.resolution(), live.caller)) socket.changed();
    });
  };
  const sweep = () => {
    // One at a time: a slow database must not pile sweeps up.
    running ??= sweepOnce()
      .catch((error: unknown) => {
        // The database is away: operations fail on their own meanwhile; the next sweep tries again.
        options.log.warn({ err: error }, "graphql: re-checking the open sockets failed");
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), options.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), sweep };
};
